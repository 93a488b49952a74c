/* Squares, the play page: its state, shared by the page's modules, and what follows
   from it (whose turn, who may move). */

import { t } from "../common/i18n.js";
import { gamePath } from "../common/api.js";
import { $ } from "../common/dom.js";
import { namesOf, seatName } from "../common/panels.js";

export const S = {
  game: null, // {game_id, token, seat, invite}; token null: watching only
  state: null, // the last state object from the server
  board: null,
  cursor: null, // {x, y, wantX}
  busy: false, // a request or an animation is running
  anim: null,
  plans: {}, // the computer's explanations of its latest turn (RULES A2)
  shown: [0, 0], // the scores on screen (they count up or down to the real ones)
  turnEvents: [], // the events of the turn being played
  lastTurn: null, // {seat, events, final} of the previous turn (final: it ended the game), for its summary
  zoomed: false,
  lastPointer: "mouse",
  seqs: [], // the events this page has shown, in the order it applied them
};

export const gameUrl = (suffix) => gamePath(S.game.game_id, suffix);

export const names = () => namesOf(S.state);
export const seatOf = (st, n) => st.seats.find((s) => s.seat === n) || {};
export const isComputer = (st, n) => seatOf(st, n).kind === "computer";
export const online = (st) => st.mode === "online";

/* The seat this browser's token moves in an online game (null: every human seat). */
export function mySeat(st) {
  if (!online(st) || !S.game || !S.game.token) return null;
  return S.game.seat || 1;
}

/* The seat this page calls "You": its human seat against the computer, its own seat
   online (null: two players on one screen, or a page that only watches). */
export function youSeat(st) {
  if (!S.game || !S.game.token) return null;
  if (st.mode === "vs_computer") {
    const human = st.seats.find((s) => s.kind !== "computer");
    return human ? human.seat : null;
  }
  return mySeat(st);
}

export function canPlay(st) {
  if (!S.game || !S.game.token || st.over || isComputer(st, st.turn)) return false;
  if (!online(st)) return true;
  return st.open_seat === null && st.turn === mySeat(st);
}

/* Whether a seat's moves are the other side's for this page: the computer's, an
   online opponent's, or any seat's for a page that only watches. Two players on one
   screen are both this page's. */
export function otherSide(seat) {
  const st = S.state;
  if (!st || !S.game) return false;
  if (isComputer(st, seat)) return true;
  if (!S.game.token) return true;
  return online(st) && seat !== mySeat(st);
}

/* "You" against the computer or in an online game; the name when two share a screen. */
export function youOf(st, seat) {
  if (st.mode === "vs_computer" && !isComputer(st, seat)) return "You";
  if (online(st) && seat === mySeat(st)) return "You";
  return seatName(st, seat) || t("Seat {seat}", { seat });
}

/* The seat whose turn a list of events belongs to (the first event that names one). */
function seatOfTurn(events) {
  const ev = events.find((e) => e.data && typeof e.data.seat === "number");
  return ev ? ev.data.seat : null;
}

/* Keep `ev` in the turn being played; a turn ends with its stage_advanced to stage 1,
   or with game_over (then the turn that ended the game is the last one). */
export function trackTurn(ev) {
  if (ev.type === "game_created") return;
  S.turnEvents.push(ev);
  if (ev.type === "stage_advanced" && ev.data.stage === 1) {
    S.lastTurn = { seat: ev.data.seat, events: S.turnEvents, final: false };
    S.turnEvents = [];
  } else if (ev.type === "game_over" && S.turnEvents.some((e) => e.type === "line_placed" || e.type === "piece_inserted")) {
    S.lastTurn = { seat: seatOfTurn(S.turnEvents), events: S.turnEvents, final: true };
    S.turnEvents = [];
  }
}

/* The page root keeps what the page has shown, for a test (or a curious person) to
   read: data-seqs, the sequence numbers of the events in the order they were applied;
   data-version, the last. */
export function recordSeqs(list, reset) {
  if (reset) S.seqs = [];
  for (const seq of list) S.seqs.push(seq);
  const root = $("play-root");
  root.dataset.seqs = S.seqs.join(" ");
  root.dataset.version = S.seqs.length ? String(S.seqs[S.seqs.length - 1]) : "0";
}
