/* Squares: the side panels of the game pages, filled from a state object or from
   events: the status panel (_status.html), the stage-3 pieces (_pieces.html) and the
   computer's plans (_ai.html), with the seat and text helpers the pages share. */

import { pieceFigure } from "./board.js";
import { pt } from "./captions.js";

/* An HTML element with `content` as its text (never parsed as HTML). */
export function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

export function seatLetter(state, seat) {
  const s = state.seats.find((s) => s.seat === seat);
  return s ? s.letter : "R";
}

export function seatName(state, seat) {
  const s = state.seats.find((s) => s.seat === seat);
  return s ? s.name : "";
}

/* "H.Score" / "C.Score" labels as in the assignment; names for two humans. */
export function seatLabel(state, seat) {
  const s = state.seats.find((s) => s.seat === seat);
  if (!s) return "";
  if (state.mode === "vs_computer") return s.kind === "computer" ? "C" : "H";
  return s.name || `Seat ${seat}`;
}

/* Fill the status panel (elements found by data-field inside `root`). */
export function fillStatus(root, state) {
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

export function fillPieces(list, pieces) {
  while (list.firstChild) list.removeChild(list.firstChild);
  for (const piece of pieces) addPiece(list, piece);
  list.closest("section").hidden = pieces.length === 0;
}

export function addPiece(list, piece) {
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
export function addPlan(plans, ev) {
  if (!ev || ev.type !== "move_explained") return plans;
  const d = ev.data;
  if (d.stage === 1 || !plans[1] || plans[1].seat !== d.seat) return { [d.stage]: d };
  return { ...plans, [d.stage]: d };
}

export function plansOf(events) {
  return events.reduce(addPlan, {});
}

/* Without the events: the state keeps each seat's latest explanation only. */
export function plansOfState(state) {
  const list = state.explanations || [];
  const ex = list.length ? list[list.length - 1] : null;
  return ex ? { [ex.stage]: ex } : {};
}

export function fillPlans(root, plans) {
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
