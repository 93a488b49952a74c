/* Squares, the replay page: the review's chart, one group per turn: the best stage 1
   as an outlined bar, what the player took filled inside it, in the seat's colour;
   a "?" over the turns that lost points. A click on a turn goes to its start. */

import { t } from "../../common/i18n.js";
import { svgEl } from "../../common/dom.js";
import { approx, lossText, stage1Text } from "./text.js";

const CW = 300, CH = 120, L = 26, R = 6, T = 14, BOT = 16;

function label(parent, text, attrs) {
  svgEl("text", attrs, parent).textContent = text;
}

/* Draw `turns` (the review's) into `svg`; `names` maps seat -> name; `onPick(step)`
   is called with a turn's start_seq when the turn is clicked. */
export function drawReviewChart(svg, turns, names, onPick) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute("viewBox", `0 0 ${CW} ${CH}`);
  const values = turns.flatMap((turn) => [turn.stage1.best, turn.stage1.gained]).concat([0]);
  const hi = Math.max(...values, 1);
  const lo = Math.min(...values);
  const y = (v) => T + ((CH - T - BOT) * (hi - v)) / (hi - lo);
  const slot = (CW - L - R) / Math.max(1, turns.length);
  const bw = Math.max(2, Math.min(16, slot * 0.7));
  svgEl("line", { class: "axis", x1: L, y1: y(0), x2: CW - R, y2: y(0) }, svg);
  svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: CH - BOT }, svg);
  label(svg, String(hi), { x: L - 4, y: y(hi) + 4, "text-anchor": "end" });
  label(svg, "0", { x: L - 4, y: y(0) + 4, "text-anchor": "end" });
  if (lo < 0) label(svg, String(lo), { x: L - 4, y: y(lo) + 4, "text-anchor": "end" });
  if (turns.length) {
    label(svg, t("turn {n}", { n: 1 }), { x: L, y: CH - 3 });
    label(svg, t("turn {n}", { n: turns.length }), { x: CW - R, y: CH - 3, "text-anchor": "end" });
  }
  const bar = (g, cls, x, v) => {
    const top = Math.min(y(v), y(0));
    svgEl("rect", { class: cls, x, y: top, width: bw, height: Math.max(1, Math.abs(y(v) - y(0))) }, g);
  };
  turns.forEach((turn, i) => {
    const g = svgEl("g", {
      class: `review-turn seat-${turn.seat}${turn.lost > 0 ? " lost" : ""}${turn.exact === false ? " approximate" : ""}`,
      "data-turn": turn.turn, "data-start-seq": turn.start_seq,
    }, svg);
    const name = names[turn.seat] || t("Seat {seat}", { seat: turn.seat });
    const said = turn.lost > 0 ? lossText(turn) : stage1Text(turn);
    const mark = approx(turn);
    svgEl("title", {}, g).textContent = t("Turn {turn} (round {round}, {name}): {said}",
      { turn: turn.turn, round: turn.round, name, said }) + (mark && !said.includes(mark) ? mark : "");
    const x = L + slot * i + (slot - bw) / 2;
    svgEl("rect", { class: "hit", x: L + slot * i, y: T - 12, width: slot, height: CH - BOT - T + 12 }, g);
    bar(g, "best", x, turn.stage1.best);
    bar(g, "gained", x, turn.stage1.gained);
    if (turn.lost > 0) label(g, "?", { class: "lost-mark", x: x + bw / 2, y: Math.min(y(turn.stage1.best), y(0)) - 3, "text-anchor": "middle" });
    g.addEventListener("click", () => onPick(turn.start_seq));
  });
}

/* Outline the turn on screen (its number; null for none). */
export function markReviewTurn(svg, turnNo) {
  for (const g of svg.querySelectorAll("g.review-turn")) {
    g.classList.toggle("current", Number(g.dataset.turn) === turnNo);
  }
}
