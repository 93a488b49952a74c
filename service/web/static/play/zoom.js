/* Squares, the play page: the zoom of small screens. When the board's slots are
   closer than 24 px on screen, the first tap zooms in (the board then scrolls in its
   box) before a tap places a line. While zoomed (zoom.css; the score bar: scorebar.js):
   - the axis numbers stay in view: strips of column (top) and row numbers (left),
     sticky in the scroller; the top strip follows the screen's top (or the score bar)
     when the page scrolls the board's top away (one transform per frame);
   - each side with more board beyond it shows a shade and an arrow (.edge-cue);
   - the other side's line drawn off screen gets a "New move" button in the strip
     under the board (never over its lines), on the side it points to (`noteMove`); a
     tap scrolls to the line; it goes once the line is on screen, or with this page's
     player's next line. Passive scroll listeners, one frame at a time. */

import { t } from "../common/i18n.js";
import { pt } from "../common/captions.js";
import { $ } from "../common/dom.js";
import { syncScorebar } from "./scorebar.js";
import { S, otherSide } from "./state.js";

const MIN_TAP_SCALE = 0.85; // px per board unit for 24 px tap targets (slots 28.3 units apart)
const SIDES = ["left", "right", "up", "down"];
const ARROW = { left: "←", right: "→", up: "↑", down: "↓" };
const WHERE = { left: () => t("to the left"), right: () => t("to the right"), up: () => t("above"), down: () => t("below") };

let geo = null; // while zoomed: where the field lies in the scroller's content (px)
let pending = []; // the other side's lines drawn off screen, oldest first: {x, y, side}
let frame = 0; // the requestAnimationFrame asked for, 0: none
let built = null; // the board the axis strips were made for
let wired = false;
const shown = {}; // side -> the line its "New move" button shows

export function tooSmall() {
  return Boolean(S.board) && !S.zoomed && S.board.scale() < MIN_TAP_SCALE;
}

/* The rule in words under the board: a tap on a board whose lines are too close
   together to hit only zooms in; zoomed (or on a board big enough), a tap draws. */
const TIP_FIT = t("The lines are too close together to tap: your first tap zooms in, then a tap draws a line.");
const TIP_ZOOMED = t("Tap a line to draw it.");

export function syncZoomTools() {
  const small = S.zoomed || tooSmall();
  $("zoom-btn").hidden = !small;
  $("zoom-tip").hidden = !small;
  $("zoom-tip").textContent = S.zoomed ? TIP_ZOOMED : TIP_FIT;
  $("zoom-btn").textContent = S.zoomed ? t("Fit the board") : t("Zoom in");
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
    syncScorebar();
    unzoomed();
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
  syncScorebar();
  zoomed();
}

// -- the strips, the cues and the markers ----------------------------------------------

const cue = (side) => document.querySelector(`.edge-cue[data-side="${side}"]`);
const marker = (side) => document.querySelector(`.new-move[data-side="${side}"]`);
const strips = () => ["axis-top", "axis-corner", "axis-left"].map($);

function setHidden(node, hidden) {
  if (node && node.hidden !== hidden) node.hidden = hidden;
}

function wire() {
  if (wired) return;
  wired = true;
  $("board-scroll").addEventListener("scroll", schedule, { passive: true });
  for (const side of SIDES) marker(side)?.addEventListener("click", () => reveal(side));
}

function zoomed() {
  wire();
  window.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", remeasure, { passive: true });
  for (const s of strips()) setHidden(s, false);
  measure();
  update();
}

function unzoomed() {
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  geo = null;
  pending = [];
  window.removeEventListener("scroll", schedule);
  window.removeEventListener("resize", remeasure);
  for (const s of strips()) setHidden(s, true);
  for (const side of SIDES) for (const node of [cue(side), marker(side)]) setHidden(node, true);
}

/* The field's place in the scroller's content, the strips' size and their numbers:
   once per zoom (and on a resize), not while scrolling. */
function measure() {
  const sc = $("board-scroll");
  const board = S.board;
  const r = sc.getBoundingClientRect();
  const a = board.clientPoint(0, 0), b = board.clientPoint(board.width - 1, board.height - 1);
  const k = (b.x - a.x) / (board.px(board.width - 1) - board.px(0)); // px per board unit
  const ox = a.x - r.left - sc.clientLeft + sc.scrollLeft;
  const oy = a.y - r.top - sc.clientTop + sc.scrollTop;
  const cell = (b.x - a.x) / (board.width - 1);
  const svg = board.svg.getBoundingClientRect();
  geo = {
    x: (x) => ox + x * cell, y: (y) => oy + y * cell, cell,
    // The strips end before the dots: the left one 5 units before column 0, the top
    // one 7 units above row 0, where the column numbers end, so that the row
    // number 0 (10 units tall, centred on row 0) is never half under it.
    left: Math.round(ox - 5 * k), top: Math.round(oy - 7 * k),
    width: sc.clientWidth, height: sc.clientHeight, scrollW: sc.scrollWidth, scrollH: sc.scrollHeight,
  };
  const [top, corner, left] = strips();
  // Each strip takes no room (a negative bottom margin of its height): the board lies under it.
  for (const [node, w, h] of [[top, svg.width, geo.top], [corner, geo.left, geo.top], [left, geo.left, svg.height]]) {
    const px = (n) => `${Math.round(n)}px`;
    Object.assign(node.style, { width: px(w), height: px(h), marginBottom: px(-h) });
  }
  // For zoom.css: the strips' size, the scroll bars', the numbers' type and places:
  // those of the board's own (board.js), the rows' right-aligned 9 units before column 0.
  const vars = {
    "--strip-w": geo.left, "--strip-h": geo.top, "--axis-font": 10 * k, "--axis-row": oy - 12.5 * k,
    "--axis-right": geo.left - (ox - 9 * k),
    "--bar-w": sc.offsetWidth - sc.clientWidth, "--bar-h": sc.offsetHeight - sc.clientHeight,
  };
  for (const [name, px] of Object.entries(vars)) $("board-frame").style.setProperty(name, `${px.toFixed(2)}px`);
  if (built !== board) {
    numbers(top, board.width, "x");
    numbers(left, board.height, "y");
    built = board;
  }
  for (const span of top.children) span.style.left = `${geo.x(Number(span.dataset.x)).toFixed(1)}px`;
  for (const span of left.children) span.style.top = `${geo.y(Number(span.dataset.y)).toFixed(1)}px`;
}

function numbers(strip, count, axis) {
  strip.replaceChildren();
  delete strip.dataset.cut;
  for (let i = 0; i < count; i++) {
    const span = document.createElement("span");
    span.textContent = String(i);
    span.dataset[axis] = String(i);
    span.className = i % 2 ? "odd" : "even";
    strip.appendChild(span);
  }
}

function remeasure() {
  if (!S.zoomed || !S.board) return;
  measure();
  schedule();
}

function schedule() {
  if (!frame && geo) frame = requestAnimationFrame(update);
}

/* The part of the scroller's content on screen now (px, content coordinates), and
   how far the top strip follows the screen's top down (`lift`). */
function visible() {
  const sc = $("board-scroll");
  const r = sc.getBoundingClientRect();
  const left = sc.scrollLeft, top = sc.scrollTop;
  // The page scrolled the board's top away: the part below the screen's top (its bar's).
  const above = Math.max(0, Math.max(0, $("scorebar").getBoundingClientRect().bottom) - r.top - sc.clientTop);
  const below = Math.max(0, r.top + sc.clientTop + geo.height - window.innerHeight);
  const lift = Math.max(0, Math.min(above, geo.height - geo.top - 2 * geo.cell));
  return {
    left, top, lift,
    l: left + geo.left, r: left + geo.width,
    t: top + Math.max(above, lift + geo.top), b: top + geo.height - below,
  };
}

function sideOf(v, p) {
  const cx = geo.x(p.x), cy = geo.y(p.y), m = geo.cell / 2;
  if (cx < v.l + m) return "left";
  if (cx > v.r - m) return "right";
  if (cy < v.t + m) return "up";
  if (cy > v.b - m) return "down";
  return "";
}

function update() {
  frame = 0;
  if (!S.zoomed || !geo) return;
  const v = visible();
  const [top, corner, left] = strips();
  for (const s of [top, corner]) setStyle(s, "transform", `translateY(${v.lift}px)`);
  cut(top, geo.x, v.l, v.r, (n) => (n < 10 ? 4 : 7)); // half a number's width, and a pixel
  cut(left, geo.y, v.t, v.b, () => 6); // and height
  setHidden(cue("left"), v.left <= 1);
  setHidden(cue("right"), v.left + geo.width >= geo.scrollW - 1);
  setHidden(cue("up"), v.top <= 1);
  setHidden(cue("down"), v.top + geo.height >= geo.scrollH - 1);
  setStyle($("board-frame"), "--view-top", `${v.t - v.top - geo.top}px`);
  setStyle($("board-frame"), "--view-bottom", `${v.top + geo.height - v.b}px`);
  pending = pending.filter((p) => (p.side = sideOf(v, p)));
  for (const side of SIDES) {
    const mine = pending.filter((p) => p.side === side);
    const p = mine[mine.length - 1];
    const button = marker(side);
    shown[side] = p || null;
    setHidden(button, !p);
    if (p) label(button, side, p, mine.length);
  }
}

function setStyle(node, name, value) {
  if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}

/* Only the numbers wholly on screen, between `lo` and `hi` (px): one half under the
   corner or cut by the edge would read as another ("16" as "6"). */
function cut(strip, at, lo, hi, half) {
  let first = 0, last = strip.children.length - 1;
  while (first <= last && at(first) < lo + half(first)) first++;
  while (last >= first && at(last) > hi - half(last)) last--;
  if (strip.dataset.cut === `${first}-${last}`) return;
  strip.dataset.cut = `${first}-${last}`;
  for (const [i, span] of [...strip.children].entries()) span.classList.toggle("cut", i < first || i > last);
}

/* A "New move" button's words: its arrow on the side it points to, and the line it
   shows in its accessible name. */
function label(button, side, p, count) {
  const words = count > 1 ? t("New moves") : t("New move");
  const text = side === "left" || side === "up" ? `${ARROW[side]} ${words}` : `${words} ${ARROW[side]}`;
  if (button.textContent !== text) button.textContent = text;
  const where = WHERE[side]();
  button.setAttribute("aria-label", t("{moves} {where}, off screen: show the line at {point}", { moves: words, where, point: pt(p.x, p.y) }));
  button.dataset.x = String(p.x);
  button.dataset.y = String(p.y);
}

/* Scroll the line a "New move" button stands for into view; the focus stays on the
   board (the button goes away once the line is on screen). */
function reveal(side) {
  const p = shown[side];
  if (!p || !S.board) return;
  const slot = S.board.slot(p.x, p.y);
  const across = side === "left" || side === "right";
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  slot?.scrollIntoView({ behavior: calm ? "auto" : "smooth", inline: across ? "center" : "nearest",
    block: across ? "nearest" : "center" });
  $("board").focus({ preventScroll: true });
}

/* Every event the page applies (anim.js): the other side's lines drawn off
   screen get a marker; this page's player's own line clears them. */
export function noteMove(ev) {
  if (ev.type !== "line_placed" && ev.type !== "piece_inserted") return;
  const d = ev.data || {};
  if (!otherSide(d.seat)) {
    if (ev.type === "line_placed" && pending.length) {
      pending = [];
      schedule();
    }
    return;
  }
  if (!S.zoomed || !geo) return;
  const lines = ev.type === "line_placed" ? [[d.x, d.y]] : d.lines || [];
  const v = visible();
  for (const [x, y] of lines) {
    const p = { x, y, side: "" };
    p.side = sideOf(v, p);
    if (p.side) pending.push(p);
  }
  schedule();
}
