/* Squares, the replay page: a game review (GET /api/games/{id}/analysis) in words,
   and which of its turns a replay step belongs to. Plain strings (set with
   textContent). */

import { pt } from "../../common/captions.js";
import { nt, t } from "../../common/i18n.js";

const num = (n) => (n < 0 ? `−${-n}` : String(n));
/* "1 point", "−3 points": the sign as written, the form by the size. */
const points = (n) => nt("{n} point", "{n} points", Math.abs(n), { n: num(n) });
/* A search that stopped at the review's work budget: its figures are the best found. */
export const approx = (part) => (part.exact === false ? t(" (approximate)") : "");

export function stage1Text(turn) {
  return t("stage 1 took {gained} of {best}", { gained: num(turn.stage1.gained), best: turn.stage1.best }) + approx(turn.stage1);
}

export function stage2Text(turn) {
  return t("the stage-2 line gave {gives}, a line giving {least} was there",
    { gives: turn.stage2.gives, least: turn.stage2.least_gives }) + approx(turn.stage2);
}

/* "Round 3: stage 1 took 2 of 5"; `turn` is the mistake's turn of the review. */
export function mistakeText(m, turn) {
  let what = t("stage {stage} lost {points}", { stage: m.stage, points: points(m.lost) });
  if (turn && m.stage === 1) what = stage1Text(turn);
  if (turn && m.stage === 2 && turn.stage2) what = stage2Text(turn);
  return t("Round {round}: {what}", { round: m.round, what });
}

/* What a turn lost, for the "?" of the move list: "lost 3 points: stage 1 took 2 of 5". */
export function lossText(turn) {
  const parts = [];
  if (turn.stage1.gained < turn.stage1.best) parts.push(stage1Text(turn));
  if (turn.stage2 && turn.stage2.gives > turn.stage2.least_gives) parts.push(stage2Text(turn));
  const lost = points(turn.lost);
  return parts.length ? t("lost {points}: {parts}", { points: lost, parts: parts.join("; ") }) : t("lost {points}", { points: lost });
}

/* What "Show best" draws for a turn, in words. */
export function bestText(turn, name) {
  let s = t("Turn {turn} (round {round}, {name}): best stage 1 takes {best}",
    { turn: turn.turn, round: turn.round, name, best: turn.stage1.best });
  if (turn.stage1.best_lines.length) s += t(" (dashed)");
  if (turn.stage2) {
    s += t(" · stage 2: {point} gives {least} (dotted)",
      { point: pt(turn.stage2.better[0], turn.stage2.better[1]), least: turn.stage2.least_gives });
  }
  if (turn.exact === false) s += t(" · approximate: the search stopped at its budget");
  return s;
}

/* The turn a step belongs to: the one with the greatest start_seq <= k (none before
   the first turn). `turns` in the order of the review (by start_seq). */
export function turnAt(turns, k) {
  let found = null;
  for (const turn of turns) {
    if (turn.start_seq > k) break;
    found = turn;
  }
  return found;
}
