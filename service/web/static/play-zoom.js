/* Squares, the play page: the zoom of small screens. When the board's slots are
   closer than 24 px on screen, the first tap zooms in (the board then scrolls in
   its box) before a tap places a line. */

import { $, S } from "./play-state.js";

const MIN_TAP_SCALE = 0.85; // px per board unit for 24 px tap targets (slots 28.3 units apart)

export function tooSmall() {
  return Boolean(S.board) && !S.zoomed && S.board.scale() < MIN_TAP_SCALE;
}

export function syncZoomTools() {
  const small = S.zoomed || tooSmall();
  $("zoom-btn").hidden = !small;
  $("zoom-tip").hidden = !small || S.zoomed;
  $("zoom-btn").textContent = S.zoomed ? "Fit the board" : "Zoom in";
  $("zoom-btn").setAttribute("aria-pressed", S.zoomed ? "true" : "false");
}

/* Zoom in so that neighbouring slots are 28 px apart (the board scrolls in its
   box), centred on (fx, fy), fractions of the board; or back to fit the screen. */
export function zoom(on, fx, fy) {
  const svg = $("board");
  const scroller = $("board-scroll");
  if (!S.board || !on) {
    S.zoomed = false;
    scroller.classList.remove("zoomed");
    svg.style.removeProperty("width");
    svg.style.removeProperty("max-height");
    if (S.board) svg.style.maxWidth = `${Math.round(S.board.units * 2.5)}px`;
    if (S.board) syncZoomTools();
    return;
  }
  S.zoomed = true;
  scroller.classList.add("zoomed");
  svg.style.maxWidth = "none";
  svg.style.maxHeight = "none";
  svg.style.width = `${Math.round(S.board.units * 1.0)}px`;
  const box = svg.getBoundingClientRect();
  scroller.scrollLeft = Math.max(0, (fx === undefined ? 0.5 : fx) * box.width - scroller.clientWidth / 2);
  const top = box.top + window.scrollY + (fy === undefined ? 0.5 : fy) * box.height - window.innerHeight / 2;
  window.scrollTo({ top: Math.max(0, top) });
  syncZoomTools();
}
