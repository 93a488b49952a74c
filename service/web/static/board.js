/* Squares: the SVG board shared by the play and replay pages.
 *
 * Coordinates are those of RULES F2: x is the column 0..W-1, y the row 0..H-1;
 * dots have x and y even, horizontal slots x odd / y even, vertical slots x even /
 * y odd, boxes x and y odd. The board only draws what it is told: no rule logic.
 * Names and other data are always set with textContent, never as HTML.
 */
"use strict";

const SquaresBoard = (() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const U = 20; // SVG units per character cell (dots are 2 cells apart)
  const PAD = 12; // right and bottom margin
  const PAD_L = 28; // room for the row numbers (the y axis)
  const PAD_T = 24; // room for the column numbers (the x axis)
  /* A point as the rules and the API name it, never broken across two lines. */
  const pt = (x, y) => `(${x},\u00a0${y})`;
  /* The points a line_placed event cost (older streams said `true` for 5). */
  const penaltyOf = (d) => (d.penalty === true ? 5 : Number(d.penalty) || 0);

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  const key = (x, y) => x + "," + y;
  const LINE_CLASSES = ["empty", "by-P", "by-C", "by-R"];
  const BOX_CLASSES = ["own-P", "own-C", "own-O"];
  const ownerClass = (owner) => (owner === "P" ? "own-P" : owner === "C" ? "own-C" : "own-O");

  class Board {
    constructor(svg, height, width) {
      this.svg = svg;
      this.height = height;
      this.width = width;
      this.slots = new Map();
      this.boxes = new Map();
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
      const gAxes = el("g", { class: "axes", "aria-hidden": "true" }, svg);
      for (let x = 0; x < width; x++) {
        const t = el("text", { x: this.px(x), y: PAD_T - 9, "text-anchor": "middle", class: x % 2 ? "odd" : "even" }, gAxes);
        t.textContent = String(x);
      }
      for (let y = 0; y < height; y++) {
        const t = el("text", { x: PAD_L - 9, y: this.py(y) + 3.5, "text-anchor": "end", class: y % 2 ? "odd" : "even" }, gAxes);
        t.textContent = String(y);
      }
      const gBoxes = el("g", { class: "boxes" }, svg);
      const gSlots = el("g", { class: "slots" }, svg);
      const gDots = el("g", { class: "dots" }, svg);
      for (let y = 1; y < height; y += 2) {
        for (let x = 1; x < width; x += 2) {
          const g = el("g", { class: "box", "data-x": x, "data-y": y }, gBoxes);
          el("rect", { x: this.px(x) - U + 3, y: this.py(y) - U + 3, width: 2 * U - 6, height: 2 * U - 6, rx: 3 }, g);
          const t = el("text", { x: this.px(x), y: this.py(y) + 1, "text-anchor": "middle", "dominant-baseline": "middle" }, g);
          t.textContent = "";
          this.boxes.set(key(x, y), g);
        }
      }
      for (let y = 0; y < height; y++) {
        for (let x = (y + 1) % 2; x < width; x += 2) {
          const horizontal = x % 2 === 1;
          const a = horizontal ? [this.px(x - 1), this.py(y)] : [this.px(x), this.py(y - 1)];
          const b = horizontal ? [this.px(x + 1), this.py(y)] : [this.px(x), this.py(y + 1)];
          const g = el("g", { class: "slot empty", "data-x": x, "data-y": y }, gSlots);
          // The invisible hit area: every point of the board belongs to its nearest
          // slot (a diamond from dot to dot and from box centre to box centre), so
          // a tap needs no precision; its centre is the slot's centre.
          const cx = this.px(x), cy = this.py(y);
          el("polygon", { class: "hit", points: `${cx - U},${cy} ${cx},${cy - U} ${cx + U},${cy} ${cx},${cy + U}` }, g);
          el("line", { class: "ink", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, g);
          this.slots.set(key(x, y), g);
        }
      }
      for (let y = 0; y < height; y += 2) {
        for (let x = 0; x < width; x += 2) el("circle", { cx: this.px(x), cy: this.py(y), r: 2.6 }, gDots);
      }
      this.cursor = el("rect", { class: "cursor", visibility: "hidden", rx: 4 }, svg);
    }

    px(x) { return PAD_L + x * U; }
    py(y) { return PAD_T + y * U; }

    /* Screen pixels per board unit as laid out now (the board scales to its box). */
    scale() {
      const box = this.svg.getBoundingClientRect();
      return box.width / this.units;
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
      g.querySelector("text").textContent = owner;
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
  function pieceFigure(shape, size) {
    const s = 9;
    const svg = el("svg", { class: "piece-figure", viewBox: `0 0 ${4 * s + 8} ${4 * s + 8}`, width: 48, height: 48, role: "img" });
    svg.setAttribute("aria-label", `piece of ${size} line${size === 1 ? "" : "s"}`);
    const p = (v) => 4 + v * s;
    for (const [x, y] of shape) {
      const horizontal = x % 2 === 1;
      el("line", horizontal
        ? { x1: p(x - 1), y1: p(y), x2: p(x + 1), y2: p(y) }
        : { x1: p(x), y1: p(y - 1), x2: p(x), y2: p(y + 1) }, svg);
    }
    for (let y = 0; y <= 4; y += 2) for (let x = 0; x <= 4; x += 2) el("circle", { cx: p(x), cy: p(y), r: 1.6 }, svg);
    return svg;
  }

  /* Text helpers shared by the pages. */
  function text(tag, content, cls) {
    const node = document.createElement(tag);
    node.textContent = content;
    if (cls) node.className = cls;
    return node;
  }

  function seatLetter(state, seat) {
    const s = state.seats.find((s) => s.seat === seat);
    return s ? s.letter : "R";
  }

  function seatName(state, seat) {
    const s = state.seats.find((s) => s.seat === seat);
    return s ? s.name : "";
  }

  /* "H.Score" / "C.Score" labels as in the assignment; names for two humans. */
  function seatLabel(state, seat) {
    const s = state.seats.find((s) => s.seat === seat);
    if (!s) return "";
    if (state.mode === "vs_computer") return s.kind === "computer" ? "C" : "H";
    return s.name || `Seat ${seat}`;
  }

  /* Fill the status panel (elements found by data-field inside `root`). */
  function fillStatus(root, state) {
    const set = (field, value) => {
      for (const n of root.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(value);
    };
    set("round", state.round);
    set("turn", state.over ? "—" : seatName(state, state.turn));
    set("stage", state.over ? "—" : state.stage);
    for (const seat of [1, 2]) {
      set(`label${seat}`, seatLabel(state, seat));
      // An online game's invited seat has no name until a friend claims it.
      set(`name${seat}`, seatName(state, seat) || (state.open_seat === seat ? "(open seat)" : ""));
      set(`score${seat}`, state.scores[seat - 1]);
      set(`squares${seat}`, state.squares[seat - 1]);
    }
    set("ownerless", state.ownerless);
    root.classList.toggle("turn-1", !state.over && state.turn === 1);
    root.classList.toggle("turn-2", !state.over && state.turn === 2);
  }

  function fillPieces(list, pieces) {
    while (list.firstChild) list.removeChild(list.firstChild);
    for (const piece of pieces) addPiece(list, piece);
    list.closest("section").hidden = pieces.length === 0;
  }

  function addPiece(list, piece) {
    const li = document.createElement("li");
    li.className = "piece";
    li.appendChild(pieceFigure(piece.shape, piece.size));
    const where = piece.skipped
      ? ` — skipped after ${piece.tries} tries`
      : ` at ${piece.lines.map(([x, y]) => pt(x, y)).join(", ")}`;
    let caption = `Random piece: ${piece.size} line${piece.size === 1 ? "" : "s"}${where}`;
    if (piece.squares && piece.squares.length) {
      caption += ` — closed ${piece.squares.map(([x, y]) => pt(x, y)).join(", ")}, ownerless`;
    }
    li.appendChild(text("span", caption));
    list.appendChild(li);
    list.closest("section").hidden = false;
  }

  /* The computer's plans (RULES A2) of its latest turn: {1: stage-1, 2: stage-2}.
     Fed event by event: a stage-1 explanation starts a new turn's plans. */
  function addPlan(plans, ev) {
    if (!ev || ev.type !== "move_explained") return plans;
    const d = ev.data;
    if (d.stage === 1 || !plans[1] || plans[1].seat !== d.seat) return { [d.stage]: d };
    return { ...plans, [d.stage]: d };
  }

  function plansOf(events) {
    return events.reduce(addPlan, {});
  }

  /* Without the events: the state keeps each seat's latest explanation only. */
  function plansOfState(state) {
    const list = state.explanations || [];
    const ex = list.length ? list[list.length - 1] : null;
    return ex ? { [ex.stage]: ex } : {};
  }

  function fillPlans(root, plans) {
    const one = plans[1];
    const two = plans[2];
    root.hidden = !one && !two;
    const set = (field, value) => {
      for (const n of root.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(value);
    };
    const plan1 = root.querySelector(".plan-1");
    plan1.hidden = !one;
    if (one) {
      set("best_point", one.best_point);
      set("best_x", one.best_x ?? "—");
      set("best_y", one.best_y ?? "—");
      set("best_direction", (one.best_direction || []).join(", ") || "—");
      set("more1", `Stage 1, ${one.level}: ${one.starts} start${one.starts === 1 ? "" : "s"}, ${one.trials} trial${one.trials === 1 ? "" : "s"} — ${one.reason}`);
    }
    const plan2 = root.querySelector(".plan-2");
    plan2.hidden = !two;
    if (two) {
      const where = two.best_x === null || two.best_x === undefined ? "" : ` at ${pt(two.best_x, two.best_y)}`;
      set("more2", `Stage 2, extra line${where}: ${two.reason}`);
    }
  }

  /* One event of the HTTP contract in words; `names` maps seat -> name. */
  function describeEvent(ev, names) {
    const d = ev.data || {};
    const who = (seat) => names[seat] || `Seat ${seat}`;
    const at = (p) => pt(p[0], p[1]);
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    switch (ev.type) {
      case "game_created":
        return `Game created: ${d.height} × ${d.width} field with ${plural(d.initial_lines.length, "random line")} (seed ${d.seed})`;
      case "line_placed": {
        let s = `${who(d.seat)} placed a line at ${pt(d.x, d.y)}`;
        if (d.squares.length) {
          const sq = d.squares.map((q) => at(q) + (q[2] === ":" ? " ownerless" : ""));
          s += ` — square${d.squares.length > 1 ? "s" : ""} at ${sq.join(", ")}`;
        }
        if (penaltyOf(d)) s += ` — irregular, −${penaltyOf(d)} points`;
        if (d.stage === 2) s += " (stage 2 extra line)";
        return s;
      }
      case "stage_advanced":
        if (d.stage === 1) return `${who(d.seat)} ended the turn — round ${d.round}, ${who(d.turn)} to move`;
        if (d.reason === "irregular_square") return `${who(d.seat)}'s stage 1 ended by an irregular square — stage 2`;
        return `${who(d.seat)} moved on to stage ${d.stage}`;
      case "piece_inserted": {
        const what = `Random piece: ${plural(d.size, "line")}`;
        if (d.skipped) return `${what} — skipped after ${d.tries} tries`;
        let s = `${what} at ${d.lines.map(at).join(", ")}`;
        if (d.squares.length) s += ` — ownerless square${d.squares.length > 1 ? "s" : ""} at ${d.squares.map(at).join(", ")}`;
        return s;
      }
      case "move_explained":
        return `${who(d.seat)}'s plan for stage ${d.stage}: BestPoint ${d.best_point}, BestX ${d.best_x ?? "—"}, BestY ${d.best_y ?? "—"}, BestDirection ${(d.best_direction || []).join(", ") || "—"}`;
      case "game_over": {
        const result = d.winner === 0 ? "a draw" : `${who(d.winner)} wins`;
        return `Game over: ${who(1)} ${d.scores[0]} – ${d.scores[1]} ${who(2)}, ${result}`;
      }
      case "seat_claimed":
        return `${d.name} joined`;
      case "high_scores_entered":
        return `High score table: ${d.entries.map((e) => `${e.name} ${e.score}`).join(", ")}`;
      default:
        return ev.type;
    }
  }

  return { pt, penaltyOf, describeEvent, Board, pieceFigure, text, seatLetter, seatName, seatLabel, fillStatus, fillPieces, addPiece, addPlan, plansOf, plansOfState, fillPlans };
})();
