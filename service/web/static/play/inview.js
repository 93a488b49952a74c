/* Squares, the play page zoomed on a phone: keeping the action in view. A hinted
   line, the cursor and the squares a line just won are scrolled clear of the edges
   of the part of the board on screen, where the axis strips, the shades and arrows
   of the edge cues (zoom.js) and the compact score bar (scorebar.js) lie over the
   board. Not zoomed (the whole board on screen) nothing moves. */

import { $ } from "../common/dom.js";
import { S } from "./state.js";

const CLEAR = 30; // px between the action and an edge: an edge cue's shade is 1.4rem

/* The board part on screen: the scroller's box cut by the window, less the strips,
   the score bar and a margin for the cues, in viewport pixels. */
function room() {
  const sc = $("board-scroll");
  const r = sc.getBoundingClientRect();
  const frame = $("board-frame").style;
  const strip = (name) => Number.parseFloat(frame.getPropertyValue(name)) || 0;
  const bar = $("scorebar");
  const barBottom = bar && !bar.hidden ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const top = Math.max(r.top + sc.clientTop, barBottom);
  return {
    left: r.left + sc.clientLeft + strip("--strip-w") + CLEAR,
    right: r.left + sc.clientLeft + sc.clientWidth - CLEAR,
    top: top + strip("--strip-h") + CLEAR,
    bottom: Math.min(r.top + sc.clientTop + sc.clientHeight, window.innerHeight) - CLEAR,
  };
}

/* How far to move a span [lo, hi] to fit into [min, max]: its start first when it
   is too long. */
function shift(lo, hi, min, max) {
  if (hi - lo > max - min || lo < min) return lo - min;
  return hi > max ? hi - max : 0;
}

/* Scroll so that every node of `nodes` (slots, boxes, the cursor) is clear of the
   edges: the board's box sideways and up and down, then the page for what is left. */
export function keepInView(nodes) {
  const shown = nodes.filter(Boolean);
  if (!S.zoomed || !shown.length) return;
  const boxes = shown.map((n) => (n.querySelector && n.querySelector(".ink, rect")) || n)
    .map((n) => n.getBoundingClientRect());
  const u = {
    left: Math.min(...boxes.map((b) => b.left)), right: Math.max(...boxes.map((b) => b.right)),
    top: Math.min(...boxes.map((b) => b.top)), bottom: Math.max(...boxes.map((b) => b.bottom)),
  };
  const v = room();
  const dx = shift(u.left, u.right, v.left, v.right);
  const dy = shift(u.top, u.bottom, v.top, v.bottom);
  if (!dx && !dy) return;
  const sc = $("board-scroll");
  const before = sc.scrollTop;
  sc.scrollLeft += dx;
  sc.scrollTop += dy;
  const rest = dy - (sc.scrollTop - before); // the box could not scroll that far
  if (Math.abs(rest) > 0.5) window.scrollBy(0, rest);
}
