/* Squares, the replay page: "Show best". At the step on screen it draws, over the
   board, the best stage-1 lines of the turn the step belongs to (dashed) and the
   stage-2 line that gives the least (dotted), in a group of its own on top: the
   board's own lines and squares are left as they are. review/main.js calls
   `drawBest` for every step shown. */

import { t } from "../../common/i18n.js";
import { $, svgEl } from "../../common/dom.js";
import { R, names } from "../state.js";
import { bestText, turnAt } from "./text.js";

let turns = [];
let on = false;

function button() {
  return $("show-best-btn");
}

/* A copy of slot (x, y)'s line on the board, or null when the board has no such slot. */
function lineAt(svg, x, y, cls) {
  const ink = svg.querySelector(`.slot[data-x="${x}"][data-y="${y}"] .ink`);
  if (!ink) return null;
  const line = svgEl("line", { class: cls, "data-x": x, "data-y": y });
  for (const a of ["x1", "y1", "x2", "y2"]) line.setAttribute(a, ink.getAttribute(a));
  return line;
}

export function drawBest(k) {
  const svg = $("board");
  for (const old of svg.querySelectorAll("g.review-overlay")) old.remove();
  const turn = turnAt(turns, k);
  $("best-note").textContent = on && turn ? bestText(turn, names[turn.seat] || t("Seat {seat}", { seat: turn.seat })) : "";
  if (!on || !turn) return;
  const g = svgEl("g", { class: "review-overlay", "aria-hidden": "true", "data-turn": turn.turn });
  for (const [x, y] of turn.stage1.best_lines) {
    const line = lineAt(svg, x, y, "best-line");
    if (line) g.appendChild(line);
  }
  if (turn.stage2) {
    const line = lineAt(svg, turn.stage2.better[0], turn.stage2.better[1], "better-line");
    if (line) g.appendChild(line);
  }
  svg.appendChild(g);
}

export function setShowBest(value) {
  on = value;
  button().setAttribute("aria-pressed", on ? "true" : "false");
  drawBest(R.step);
}

/* The button, for the review's `sortedTurns` (by start_seq). */
export function initOverlay(sortedTurns) {
  turns = sortedTurns;
  $("best-tools").hidden = false;
  button().addEventListener("click", () => setShowBest(!on));
  drawBest(R.step);
}
