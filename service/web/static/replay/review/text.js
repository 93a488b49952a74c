/* Squares, the replay page: a game review (GET /api/games/{id}/analysis) in words,
   and which of its turns a replay step belongs to. Plain strings (set with
   textContent). */

import { pt } from "../../common/captions.js";
const num = (n) => (n < 0 ? `−${-n}` : String(n));
const points = (n) => `${num(n)} point${n === 1 || n === -1 ? "" : "s"}`;
/* A search that stopped at the review's work budget: its figures are the best found. */
const approx = (part) => (part.exact === false ? " (approximate)" : "");

export function stage1Text(t) {
  return `stage 1 took ${num(t.stage1.gained)} of ${t.stage1.best}${approx(t.stage1)}`;
}

export function stage2Text(t) {
  return `the stage-2 line gave ${t.stage2.gives}, a line giving ${t.stage2.least_gives} was there${approx(t.stage2)}`;
}

/* "Round 3: stage 1 took 2 of 5"; `turn` is the mistake's turn of the review. */
export function mistakeText(m, turn) {
  let what = `stage ${m.stage} lost ${points(m.lost)}`;
  if (turn && m.stage === 1) what = stage1Text(turn);
  if (turn && m.stage === 2 && turn.stage2) what = stage2Text(turn);
  return `Round ${m.round}: ${what}`;
}

/* What a turn lost, for the "?" of the move list: "lost 3 points: stage 1 took 2 of 5". */
export function lossText(t) {
  const parts = [];
  if (t.stage1.gained < t.stage1.best) parts.push(stage1Text(t));
  if (t.stage2 && t.stage2.gives > t.stage2.least_gives) parts.push(stage2Text(t));
  return `lost ${points(t.lost)}${parts.length ? ": " + parts.join("; ") : ""}`;
}

/* What "Show best" draws for a turn, in words. */
export function bestText(t, name) {
  let s = `Turn ${t.turn} (round ${t.round}, ${name}): best stage 1 takes ${t.stage1.best}`;
  if (t.stage1.best_lines.length) s += " (dashed)";
  if (t.stage2) s += ` · stage 2: ${pt(t.stage2.better[0], t.stage2.better[1])} gives ${t.stage2.least_gives} (dotted)`;
  if (t.exact === false) s += " · approximate: the search stopped at its budget";
  return s;
}

/* The turn a step belongs to: the one with the greatest start_seq <= k (none before
   the first turn). `turns` in the order of the review (by start_seq). */
export function turnAt(turns, k) {
  let found = null;
  for (const t of turns) {
    if (t.start_seq > k) break;
    found = t;
  }
  return found;
}
