/* Squares: the side panels of the game pages, filled from a state object or from
   events: the status panel (_status.html), the stage-3 pieces (_pieces.html) and the
   computer's plans (_ai.html), with the seat helpers the pages share. */

import { pieceFigure } from "./board.js";
import { text } from "./dom.js";
import { nt, t } from "./i18n.js";
import { levelWord, planSentence, pt, reasonWords, tally } from "./words.js";

export function seatLetter(state, seat) {
  const s = state.seats.find((s) => s.seat === seat);
  return s ? s.letter : "R";
}

/* A seat's name as the pages show it: a computer's, which the game's data writes in
   English ("Computer", "Computer 1 (easy)"), in the page's language; a person's as
   they wrote it. */
export function shownName(s) {
  if (!s || !s.name) return "";
  const m = s.kind === "computer" ? /^Computer(?: (\d+))?(?: \((\w+)\))?$/.exec(s.name) : null;
  if (!m) return s.name;
  const name = m[1] ? t("Computer {n}", { n: m[1] }) : t("Computer");
  return m[2] ? t("{name} ({level})", { name, level: levelWord(m[2]) }) : name;
}

export function seatName(state, seat) {
  const s = state.seats.find((s) => s.seat === seat);
  return s ? shownName(s) : "";
}

/* {seat: name} of a state's seats, as describeEvent takes them. */
export const namesOf = (state) => Object.fromEntries(state.seats.map((s) => [s.seat, shownName(s)]));

/* A finished game's result as the game-over boxes of the play and watch pages say
   it: {title: "You win!" | "Ann wins" | "A draw" | "Abandoned" | "You resigned" |
   "Your friend resigned" | "Ann resigned" | "The game was aborted", line: "You 12 ·
   Computer 9"}; `me`: the seat this page calls "You" (null: none). */
export function overResult(st, me = null) {
  const label = (seat) => seatView(st, seat, me).label;
  const line = tally([label(1), label(2)], st.scores);
  if (st.abandoned) return { title: t("Abandoned"), line: t("No result: the game was abandoned. {scores}", { scores: line }) };
  if (st.aborted) return { title: t("The game was aborted"), line: t("No result. {scores}", { scores: line }) };
  if (st.resigned) {
    const title = st.resigned === me ? t("You resigned")
      : me !== null && st.mode === "online" ? t("Your friend resigned") : t("{name} resigned", { name: label(st.resigned) });
    const won = st.winner === me ? t("You win.") : t("{name} wins.", { name: label(st.winner) });
    return { title, line: `${won} ${line}` };
  }
  if (st.winner === 0) return { title: t("A draw"), line };
  return { title: st.winner === me ? t("You win!") : t("{name} wins", { name: label(st.winner) }), line };
}

const OPEN_SEAT = () => t("Waiting for a friend");

/* How the status panel shows `seat`: its name (or "Waiting for a friend" while an
   online game's seat is open), the tag after it ("(P)" / "(C)", the board's letters,
   against the computer; "(you)" on this page's own seat of an online game) and the
   label of its score and squares ("You", "Computer", a name). `me`: the seat this
   page plays and calls "You" (its human seat against the computer, its own seat
   online; null: none, e.g. watching, or two players on one screen). */
export function seatView(state, seat, me = null) {
  const s = state.seats.find((x) => x.seat === seat) || {};
  const open = !s.name && state.open_seat === seat;
  const name = shownName(s) || (open ? OPEN_SEAT() : "");
  const label = me === seat ? t("You") : open ? t("Friend") : name || t("Seat {seat}", { seat });
  if (state.mode === "vs_computer") {
    return { name, tag: s.kind === "computer" ? "(C)" : "(P)", label, full: name };
  }
  if (me !== null && me === seat) return { name, tag: t("(you)"), label, full: t("{name} (you)", { name }) };
  return { name, tag: "", label, full: open ? OPEN_SEAT() : name };
}

/* Fill the status panel (elements found by data-field inside `root`); `me`: the
   seat this page calls "You" (`seatView`). */
export function fillStatus(root, state, me = null) {
  const nodes = (field) => root.querySelectorAll(`[data-field="${field}"]`);
  const set = (field, value) => {
    for (const n of nodes(field)) n.textContent = String(value);
  };
  const titled = (field, value, title) => {
    for (const n of nodes(field)) {
      n.textContent = String(value);
      if (title) n.title = title;
      else n.removeAttribute("title");
    }
  };
  set("round", state.round);
  titled("turn", state.over ? "—" : seatName(state, state.turn), state.over ? "" : seatName(state, state.turn));
  set("stage", state.over ? "—" : state.stage);
  for (const seat of [1, 2]) {
    const v = seatView(state, seat, me);
    titled(`name${seat}`, v.name, v.name);
    set(`tag${seat}`, v.tag);
    for (const n of nodes(`tag${seat}`)) n.hidden = !v.tag;
    titled(`label${seat}`, v.label, v.full);
    for (const n of root.querySelectorAll(`.players .who-${seat}`)) {
      n.title = v.tag ? `${v.name} ${v.tag}` : v.name;
    }
    set(`score${seat}`, state.scores[seat - 1]);
    set(`squares${seat}`, state.squares[seat - 1]);
  }
  set("ownerless", state.ownerless);
  root.classList.toggle("by-name", state.mode !== "vs_computer");
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
  const what = nt("Random piece: {n} line", "Random piece: {n} lines", piece.size);
  let caption = piece.skipped
    ? t("{piece} — skipped after {tries} tries", { piece: what, tries: piece.tries })
    : t("{piece} at {points}", { piece: what, points: piece.lines.map(([x, y]) => pt(x, y)).join(", ") });
  if (piece.squares && piece.squares.length) {
    caption += t(" — closed {points}, ownerless", { points: piece.squares.map(([x, y]) => pt(x, y)).join(", ") });
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

/* The computer's plans of a turn in `root` (_ai.html): one sentence, and under
   "Computer's reasoning" the assignment's BestPoint, BestX, BestY, BestDirection and
   how the choice was made. `state`: the game (whose plan it is). */
export function fillPlans(root, plans, state) {
  const one = plans[1];
  const two = plans[2];
  root.hidden = !one && !two;
  const set = (field, value) => {
    for (const n of root.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(value);
  };
  const seat = (one || two || {}).seat;
  const who = state && state.mode !== "vs_computer" && seat ? seatName(state, seat) : null;
  set("sentence", planSentence(plans, who));
  const plan1 = root.querySelector(".plan-1");
  plan1.hidden = !one;
  if (one) {
    set("best_point", one.best_point);
    set("best_x", one.best_x ?? "—");
    set("best_y", one.best_y ?? "—");
    set("best_direction", (one.best_direction || []).join(", ") || "—");
    const starts = nt("{n} start", "{n} starts", one.starts);
    const trials = nt("{n} trial", "{n} trials", one.trials);
    set("more1", t("Stage 1, {level}: {starts}, {trials} — {reason}", { level: levelWord(one.level), starts, trials, reason: reasonWords(one.reason) }));
  }
  const plan2 = root.querySelector(".plan-2");
  plan2.hidden = !two;
  if (two) {
    set("more2", two.best_x === null || two.best_x === undefined
      ? t("Stage 2, extra line: {reason}", { reason: reasonWords(two.reason) })
      : t("Stage 2, extra line at {point}: {reason}", { point: pt(two.best_x, two.best_y), reason: reasonWords(two.reason) }));
  }
}
