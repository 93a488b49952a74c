/* Squares: the words of the pages, in one place: messages as sentences, counts,
   points, and the computer's plan (RULES A2) in plain words. Plain strings: the pages
   set them with textContent; every sentence is the page's language's (i18n.js). */

import { nt, t } from "./i18n.js";

/* A message as a page shows it: its first letter a capital (the API's messages
   start in lowercase; the API keeps them so), by the page's language's rules (Turkish
   "i" -> "İ"). */
export function sentence(message) {
  const s = String(message ?? "");
  return s ? s.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + s.slice(1) : s;
}

/* Points with their sign: "+2", "−5", "±0". */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/* A point as the rules and the API name it (x, y), never broken across two lines. */
export const pt = (x, y) => `(${x},\u00a0${y})`;

// -- the computer's plan -----------------------------------------------------------------
const DIRECTIONS = { 1: () => t("right"), 2: () => t("up"), 3: () => t("left"), 4: () => t("down") }; // RULES F3
const RUNS_SAID = 6; // a longer walk is cut with "…"

/* One run of a walk: "down", "down twice", "left 3 times". */
function run(d, n) {
  const dir = DIRECTIONS[d] ? DIRECTIONS[d]() : String(d);
  if (n === 1) return dir;
  return n === 2 ? t("{dir} twice", { dir }) : t("{dir} {n} times", { dir, n });
}

/* A walk of RULES F3 directions in words: [4, 4, 3, 3, 3, 2] -> "down twice, left 3
   times, then up". */
export function walkWords(directions) {
  const runs = [];
  for (const d of directions) {
    const last = runs[runs.length - 1];
    if (last && last[0] === d) last[1] += 1;
    else runs.push([d, 1]);
  }
  const parts = runs.slice(0, RUNS_SAID).map(([d, n]) => run(d, n));
  if (runs.length > RUNS_SAID) return `${parts.join(", ")}, …`;
  if (parts.length < 2) return parts.join("");
  return t("{runs}, then {last}", { runs: parts.slice(0, -1).join(", "), last: parts[parts.length - 1] });
}

/* A stage-1 plan (a move_explained event's data): "start at (15, 13) and take 14
   squares, going down twice, then left". */
export function squaringWords(d) {
  if (d.best_x === null || d.best_x === undefined) return t("no square can be closed, so straight on to the extra line");
  const params = { point: pt(d.best_x, d.best_y), squares: nt("{n} square", "{n} squares", d.best_point) };
  if (!(d.best_direction || []).length) return t("start at {point} and take {squares}", params);
  return t("start at {point} and take {squares}, going {walk}", { ...params, walk: walkWords(d.best_direction) });
}

/* A stage-2 plan: "an extra line at (3, 2), which leaves no square to close". */
export function extraLineWords(d) {
  if (d.best_x === null || d.best_x === undefined) {
    return d.best_point === 0 ? t("an extra line, which leaves no square to close")
      : t("an extra line: no line was safe, this one gives away as little as it could find");
  }
  const point = pt(d.best_x, d.best_y);
  return d.best_point === 0 ? t("an extra line at {point}, which leaves no square to close", { point })
    : t("an extra line at {point}: no line was safe, this one gives away as little as it could find", { point });
}

/* A turn's plans ({1: stage 1, 2: stage 2}) in one sentence: "The computer's plan:
   start at (15, 13) and take 14 squares, going down twice, then left; then an extra
   line at (3, 2), which leaves no square to close." `who`: a seat's name, or null for
   the computer. */
export function planSentence(plans, who) {
  const parts = [];
  if (plans[1]) parts.push(squaringWords(plans[1]));
  if (plans[2]) parts.push(extraLineWords(plans[2]));
  if (!parts.length) return "";
  const plan = parts.join(t("; then "));
  return who ? t("{name}'s plan: {plan}.", { name: who, plan }) : t("The computer's plan: {plan}.", { plan });
}

/* The scores (or squares) of both seats: "You 12 · Computer 9". */
export const tally = (labels, values) => `${labels[0]} ${values[0]} · ${labels[1]} ${values[1]}`;

/* A computer level (the API's difficulty) as the pages name it: "easy", "kolay". */
const LEVELS = { easy: () => t("easy"), moderate: () => t("moderate"), hard: () => t("hard"), expert: () => t("expert") };
export const levelWord = (level) => (LEVELS[level] ? LEVELS[level]() : level || "");

// -- the computer's reasons ------------------------------------------------------------
/* A move_explained event's `reason` in the page's language. The event keeps the words
   the computer wrote (English, part of the game's history); each of their forms
   (service/domain/ai: player.py for stage 1, stage2.py for stage 2) is said again
   here from its numbers. A form not known here is shown as it is. */
const REASONS = [
  [/^no box can be formed with one line$/, () => t("no box can be formed with one line")],
  [/^exhaustive search of (\d+) paths from (\d+) starts; of the best, the one leaving the least to give away$/,
    (m) => t("exhaustive search of {trials} paths from {starts} starts; of the best, the one leaving the least to give away", { trials: m[1], starts: m[2] })],
  [/^exhaustive search of (\d+) paths from (\d+) starts; of the best, the one leaving the least to give away \(search budget reached; hard's random walks added\)$/,
    (m) => t("exhaustive search of {trials} paths from {starts} starts; of the best, the one leaving the least to give away", { trials: m[1], starts: m[2] })
      + " " + t("(search budget reached; hard's random walks added)")],
  [/^(\d+) random walks from each of (\d+) starts$/,
    (m) => t("{n} random walks from each of {starts} starts", { n: m[1], starts: m[2] })],
  [/^safe line: no box is left with three sides \((\d+) safe lines\)$/,
    (m) => t("safe line: no box is left with three sides ({n} safe lines)", { n: m[1] })],
  [/^no safe line: gives away the least, (\d+) square\(s\)$/,
    (m) => t("no safe line: gives away the least, {n} square(s)", { n: m[1] })],
  [/^opponent expects ([\d.]+) after (\d+) samples of the stage-3 pieces$/,
    (m) => t("opponent expects {mean} after {n} samples of the stage-3 pieces", { mean: m[1], n: m[2] })],
  [/^\(search budget reached; hard's random walks added\)$/,
    () => t("(search budget reached; hard's random walks added)")],
  [/^\(search budget reached: some lines judged roughly\)$/,
    () => t("(search budget reached: some lines judged roughly)")],
];

function reasonPart(part) {
  for (const [form, say] of REASONS) {
    const m = part.match(form);
    if (m) return say(m);
  }
  return null;
}

export function reasonWords(reason) {
  const text = String(reason ?? "");
  const whole = reasonPart(text);
  if (whole !== null) return whole;
  // "<why>[ (budget note)][; opponent expects …]": each part said apart
  const parts = text.split("; ");
  const said = parts.map((part) => {
    const note = part.match(/^(.*?) (\(search budget reached[^)]*\))$/);
    if (note) {
      const head = reasonPart(note[1]);
      const tail = reasonPart(note[2]);
      return head !== null && tail !== null ? `${head} ${tail}` : null;
    }
    return reasonPart(part);
  });
  return said.every((s) => s !== null) ? said.join("; ") : text;
}
