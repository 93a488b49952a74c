/* Squares: the words of the pages, in one place: messages as sentences, counts,
   points, and the computer's plan (RULES A2) in plain words. Plain strings: the pages
   set them with textContent. */

/* A message as a page shows it: its first letter a capital (the API's messages
   start in lowercase; the API keeps them so). */
export function sentence(message) {
  const s = String(message ?? "");
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/* "1 line", "3 lines". */
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/* Points with their sign: "+2", "−5", "±0". */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/* A point as the rules and the API name it (x, y), never broken across two lines. */
export const pt = (x, y) => `(${x},\u00a0${y})`;

// -- the computer's plan -----------------------------------------------------------------
const DIRECTIONS = { 1: "right", 2: "up", 3: "left", 4: "down" }; // RULES F3
const RUNS_SAID = 6; // a longer walk is cut with "…"

const times = (n) => (n === 1 ? "" : n === 2 ? " twice" : ` ${n} times`);

/* A walk of RULES F3 directions in words: [4, 4, 3, 3, 3, 2] -> "down twice, left 3
   times, then up". */
export function walkWords(directions) {
  const runs = [];
  for (const d of directions) {
    const last = runs[runs.length - 1];
    if (last && last[0] === d) last[1] += 1;
    else runs.push([d, 1]);
  }
  const parts = runs.slice(0, RUNS_SAID).map(([d, n]) => `${DIRECTIONS[d] || d}${times(n)}`);
  if (runs.length > RUNS_SAID) return `${parts.join(", ")}, …`;
  if (parts.length < 2) return parts.join("");
  return `${parts.slice(0, -1).join(", ")}, then ${parts[parts.length - 1]}`;
}

/* A stage-1 plan (a move_explained event's data): "start at (15, 13) and take 14
   squares, going down twice, then left". */
export function squaringWords(d) {
  if (d.best_x === null || d.best_x === undefined) return "no square can be closed, so straight on to the extra line";
  const walk = (d.best_direction || []).length ? `, going ${walkWords(d.best_direction)}` : "";
  return `start at ${pt(d.best_x, d.best_y)} and take ${plural(d.best_point, "square")}${walk}`;
}

/* A stage-2 plan: "an extra line at (3, 2), which leaves no square to close". */
export function extraLineWords(d) {
  const at = d.best_x === null || d.best_x === undefined ? "" : ` at ${pt(d.best_x, d.best_y)}`;
  return d.best_point === 0 ? `an extra line${at}, which leaves no square to close`
    : `an extra line${at}: no line was safe, this one gives away as little as it could find`;
}

/* A turn's plans ({1: stage 1, 2: stage 2}) in one sentence: "The computer's plan:
   start at (15, 13) and take 14 squares, going down twice, then left; then an extra
   line at (3, 2), which leaves no square to close." `whose`: "The computer's", "Bob's". */
export function planSentence(plans, whose) {
  const parts = [];
  if (plans[1]) parts.push(squaringWords(plans[1]));
  if (plans[2]) parts.push(extraLineWords(plans[2]));
  return parts.length ? `${whose} plan: ${parts.join("; then ")}.` : "";
}

/* The scores (or squares) of both seats: "You 12 · Computer 9". */
export const tally = (labels, values) => `${labels[0]} ${values[0]} · ${labels[1]} ${values[1]}`;
