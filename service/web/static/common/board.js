/* Squares: the SVG board shared by the play, watch and replay pages, and the small
 * figure of a stage-3 piece.
 *
 * Coordinates are those of RULES F2: x is the column 0..W-1, y the row 0..H-1;
 * dots have x and y even, horizontal slots x odd / y even, vertical slots x even /
 * y odd, boxes x and y odd. The board only draws what it is told: no rule logic.
 * Names and other data are always set with textContent, never as HTML.
 */

import { svgEl } from "./dom.js";
import { nt } from "./i18n.js";
import { boxLetters } from "./letters.js";

const U = 20; // SVG units per character cell (dots are 2 cells apart)
const PAD = 12; // right and bottom margin
const PAD_L = 28; // room for the row numbers (the y axis)
const PAD_T = 24; // room for the column numbers (the x axis)

const key = (x, y) => x + "," + y;
const LINE_CLASSES = ["empty", "by-P", "by-C", "by-R"];
const BOX_CLASSES = ["own-P", "own-C", "own-O"];
const ownerClass = (owner) => (owner === "P" ? "own-P" : owner === "C" ? "own-C" : "own-O");

export class Board {
  constructor(svg, height, width) {
    this.svg = svg;
    this.height = height;
    this.width = width;
    this.slots = new Map();
    this.boxes = new Map();
    this.letters = boxLetters(null); // the text of a won square, by owner (paint sets it)
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const vw = PAD_L + PAD + (width - 1) * U;
    const vh = PAD_T + PAD + (height - 1) * U;
    this.units = vw;
    svg.setAttribute("viewBox", `0 0 ${vw} ${vh}`);
    // Small fields do not blow up to giant dots: at most 2.5 px per unit.
    svg.style.maxWidth = `${Math.round(vw * 2.5)}px`;
    svg.style.setProperty("--board-units", String(vw));
    svg.setAttribute("data-height", height);
    svg.setAttribute("data-width", width);
    // Axis labels (RULES F2): x is the column along the top, y the row down the
    // left, the same numbers as the captions, the hints and the text board.
    const gAxes = svgEl("g", { class: "axes", "aria-hidden": "true" }, svg);
    for (let x = 0; x < width; x++) {
      const t = svgEl("text", { x: this.px(x), y: PAD_T - 9, "text-anchor": "middle", class: x % 2 ? "odd" : "even" }, gAxes);
      t.textContent = String(x);
    }
    for (let y = 0; y < height; y++) {
      const t = svgEl("text", { x: PAD_L - 9, y: this.py(y) + 3.5, "text-anchor": "end", class: y % 2 ? "odd" : "even" }, gAxes);
      t.textContent = String(y);
    }
    const gBoxes = svgEl("g", { class: "boxes" }, svg);
    const gSlots = svgEl("g", { class: "slots" }, svg);
    const gDots = svgEl("g", { class: "dots" }, svg);
    for (let y = 1; y < height; y += 2) {
      for (let x = 1; x < width; x += 2) {
        const g = svgEl("g", { class: "box", "data-x": x, "data-y": y }, gBoxes);
        svgEl("rect", { x: this.px(x) - U + 3, y: this.py(y) - U + 3, width: 2 * U - 6, height: 2 * U - 6, rx: 3 }, g);
        const t = svgEl("text", { x: this.px(x), y: this.py(y) + 1, "text-anchor": "middle", "dominant-baseline": "middle" }, g);
        t.textContent = "";
        this.boxes.set(key(x, y), g);
      }
    }
    for (let y = 0; y < height; y++) {
      for (let x = (y + 1) % 2; x < width; x += 2) {
        const horizontal = x % 2 === 1;
        const a = horizontal ? [this.px(x - 1), this.py(y)] : [this.px(x), this.py(y - 1)];
        const b = horizontal ? [this.px(x + 1), this.py(y)] : [this.px(x), this.py(y + 1)];
        const g = svgEl("g", { class: "slot empty", "data-x": x, "data-y": y }, gSlots);
        // The invisible hit area: every point of the board belongs to its nearest
        // slot (a diamond from dot to dot and from box centre to box centre), so
        // a tap needs no precision; its centre is the slot's centre.
        const cx = this.px(x), cy = this.py(y);
        svgEl("polygon", { class: "hit", points: `${cx - U},${cy} ${cx},${cy - U} ${cx + U},${cy} ${cx},${cy + U}` }, g);
        svgEl("line", { class: "ink", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, g);
        this.slots.set(key(x, y), g);
      }
    }
    for (let y = 0; y < height; y += 2) {
      for (let x = 0; x < width; x += 2) svgEl("circle", { cx: this.px(x), cy: this.py(y), r: 2.6 }, gDots);
    }
    this.cursor = svgEl("rect", { class: "cursor", visibility: "hidden", rx: 4 }, svg);
  }

  px(x) { return PAD_L + x * U; }
  py(y) { return PAD_T + y * U; }

  /* Screen pixels per board unit as laid out now (the board scales to its box). */
  scale() {
    const box = this.svg.getBoundingClientRect();
    return box.width / this.units;
  }

  /* Where the point (x, y) of the field is on the screen now, in the viewport's CSS
     pixels (the zoomed board's axis strips and cues, play/zoom.js). */
  clientPoint(x, y) {
    const m = this.svg.getScreenCTM();
    return { x: m.a * this.px(x) + m.c * this.py(y) + m.e, y: m.b * this.px(x) + m.d * this.py(y) + m.f };
  }

  slot(x, y) { return this.slots.get(key(x, y)) || null; }
  box(x, y) { return this.boxes.get(key(x, y)) || null; }

  setLine(x, y, by, mark) {
    const g = this.slot(x, y);
    if (!g) return;
    g.classList.remove(...LINE_CLASSES);
    g.classList.add(by ? "by-" + by : "empty");
    if (mark) g.classList.add(mark);
  }

  setBox(x, y, owner, mark) {
    const g = this.box(x, y);
    if (!g) return;
    g.classList.remove(...BOX_CLASSES);
    g.classList.add("formed", ownerClass(owner));
    g.querySelector("text").textContent = this.letters[owner] ?? owner;
    g.setAttribute("data-owner", owner);
    if (mark) g.classList.add(mark);
  }

  /* A new turn starts while animating: the current turn becomes the last one. */
  newTurn() {
    for (const n of this.svg.querySelectorAll(".last")) n.classList.remove("last");
    for (const n of this.svg.querySelectorAll(".cur")) {
      n.classList.remove("cur");
      n.classList.add("last");
    }
  }

  /* Show a whole state object of the HTTP contract. */
  paint(state) {
    this.letters = boxLetters(state);
    for (const g of this.slots.values()) {
      g.classList.remove(...LINE_CLASSES, "cur", "last", "hint");
      g.classList.add("empty");
    }
    for (const g of this.boxes.values()) {
      g.classList.remove(...BOX_CLASSES, "formed", "cur", "last");
      g.removeAttribute("data-owner");
      g.querySelector("text").textContent = "";
    }
    for (const line of state.lines) this.setLine(line.x, line.y, line.by);
    for (const b of state.boxes) this.setBox(b.x, b.y, b.owner);
    const mark = (turn, cls) => {
      if (!turn) return;
      for (const [x, y] of turn.lines) this.slot(x, y)?.classList.add(cls);
      for (const [x, y] of turn.squares) this.box(x, y)?.classList.add(cls);
    };
    mark(state.last_turn, "last");
    mark(state.current_turn, "cur");
  }

  /* The lines and squares of one replay step (or one event), outlined. */
  markStep(ev) {
    for (const n of this.svg.querySelectorAll(".step")) n.classList.remove("step");
    const d = (ev && ev.data) || {};
    if (ev && ev.type === "line_placed") {
      this.slot(d.x, d.y)?.classList.add("step");
      for (const [x, y] of d.squares) this.box(x, y)?.classList.add("step");
    } else if (ev && ev.type === "piece_inserted") {
      for (const [x, y] of d.lines) this.slot(x, y)?.classList.add("step");
      for (const [x, y] of d.squares) this.box(x, y)?.classList.add("step");
    }
  }

  clearHint() {
    for (const n of this.svg.querySelectorAll(".hint")) n.classList.remove("hint");
  }

  setHint(x, y) {
    this.clearHint();
    this.slot(x, y)?.classList.add("hint");
  }

  showCursor(x, y) {
    const horizontal = x % 2 === 1;
    const w = horizontal ? 2 * U - 4 : 12;
    const h = horizontal ? 12 : 2 * U - 4;
    this.cursor.setAttribute("x", this.px(x) - w / 2);
    this.cursor.setAttribute("y", this.py(y) - h / 2);
    this.cursor.setAttribute("width", w);
    this.cursor.setAttribute("height", h);
    this.cursor.setAttribute("data-x", x);
    this.cursor.setAttribute("data-y", y);
    this.cursor.setAttribute("visibility", "visible");
    this.svg.appendChild(this.cursor); // keep it on top
  }

  hideCursor() { this.cursor.setAttribute("visibility", "hidden"); }
}

/* The small figure of a stage-3 piece: its lines inside the 5 x 5 box (3 x 3 dots). */
export function pieceFigure(shape, size) {
  const s = 9;
  const svg = svgEl("svg", { class: "piece-figure", viewBox: `0 0 ${4 * s + 8} ${4 * s + 8}`, width: 48, height: 48, role: "img" });
  svg.setAttribute("aria-label", nt("piece of {n} line", "piece of {n} lines", size));
  const p = (v) => 4 + v * s;
  for (const [x, y] of shape) {
    const horizontal = x % 2 === 1;
    svgEl("line", horizontal
      ? { x1: p(x - 1), y1: p(y), x2: p(x + 1), y2: p(y) }
      : { x1: p(x), y1: p(y - 1), x2: p(x), y2: p(y + 1) }, svg);
  }
  for (let y = 0; y <= 4; y += 2) for (let x = 0; x <= 4; x += 2) svgEl("circle", { cx: p(x), cy: p(y), r: 1.6 }, svg);
  return svg;
}
