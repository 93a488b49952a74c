/* Squares, the play page: resigning and aborting. "Resign" (and "Abort" in an online
   game before both seats moved, the state's `abortable`) never act at once: the
   first press shows a small question in the page with "Yes, resign" / "Yes, abort"
   and "Keep playing" (no window.confirm: the page keeps its focus and its words), the
   second sends POST .../resign or .../abort with the seat's token. The answer's events
   end the game as any move's do (anim.js), and the end screen says the result. */

import { t } from "../common/i18n.js";
import { api, ApiError } from "../common/api.js";
import { $ } from "../common/dom.js";
import { setMessage } from "../common/message.js";
import { seatName } from "../common/panels.js";
import { S, gameUrl, isComputer, online, youSeat } from "./state.js";

let asking = null; // "resign" | "abort" while the question is shown
// From main.js (panel.js draws the buttons through `syncEndButtons`, so this module
// imports none of the modules that import panel.js): {apply(events, state) (anim.js's
// applyMoveResult), untilCaughtUp(), catchUpSoon(), kick()} (live.js).
let hooks = null;

/* Whether this page's player may resign `st` now: a game that goes on, with a human
   seat of this page's, and an opponent (an online game's friend has joined). */
function mayResign(st) {
  if (!S.game || !S.game.token || st.over || st.mode === "computer_vs_computer") return false;
  return !(online(st) && st.open_seat !== null);
}

/* The question, in the words of this game: who resigns and who then wins. */
function question(st, what) {
  if (what === "abort") return t("Abort this game? It ends with no result, for both of you.");
  if (st.mode === "vs_computer") return t("Resign this game? The computer wins, and the game enters no high score table.");
  if (online(st)) return t("Resign this game? Your friend wins.");
  const seat = isComputer(st, st.turn) ? 1 : st.turn; // on one screen: the seat to move
  return t("{name}: resign this game? {other} wins.", { name: seatName(st, seat), other: seatName(st, 3 - seat) });
}

function closeQuestion(focusBack) {
  const was = asking;
  asking = null;
  $("end-confirm").hidden = true;
  if (focusBack && was) $(`${was}-btn`).focus();
}

function ask(what) {
  const st = S.state;
  if (!st) return;
  asking = what;
  $("end-question").textContent = question(st, what);
  $("end-yes").textContent = what === "abort" ? t("Yes, abort") : t("Yes, resign");
  $("end-confirm").hidden = false;
  $("end-yes").focus();
}

/* What the page says once the game has ended so (the end screen says it too). */
function saidAfter(st, what) {
  if (what === "abort") return t("The game was aborted: no result.");
  const me = youSeat(st);
  const winner = seatName(st, st.winner);
  if (me !== null && st.resigned === me) return t("You resigned: {winner} wins.", { winner });
  return t("{name} resigned: {winner} wins.", { name: seatName(st, st.resigned), winner });
}

async function confirm() {
  const what = asking;
  if (!what) return;
  closeQuestion(false);
  if (S.busy) await hooks.untilCaughtUp();
  if (!S.game || !S.state || S.busy) return;
  S.busy = true;
  try {
    const data = await api("POST", gameUrl(`/${what}`), undefined, S.game.token);
    await hooks.apply(data.events, data.state);
    setMessage(saidAfter(data.state, what), "info", what === "abort" ? "aborted" : "resigned");
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    setMessage(e.message, "error", e.code);
    if (e.code === "version_conflict" || e.code === "game_over") hooks.catchUpSoon();
  } finally {
    S.busy = false;
  }
  hooks.kick();
}

/* Show the buttons that fit state `st` (called with every state the page draws). */
export function syncEndButtons(st) {
  const resign = mayResign(st);
  const abort = Boolean(S.game && S.game.token) && st.abortable === true;
  $("resign-btn").hidden = !resign;
  $("abort-btn").hidden = !abort;
  $("end-game").hidden = !resign && !abort;
  $("over-early").hidden = !(st.resigned || st.aborted);
  if ((asking === "resign" && !resign) || (asking === "abort" && !abort)) closeQuestion(false);
}

export function initResign(given) {
  hooks = given;
  $("resign-btn").addEventListener("click", () => ask("resign"));
  $("abort-btn").addEventListener("click", () => ask("abort"));
  $("end-yes").addEventListener("click", confirm);
  $("end-no").addEventListener("click", () => closeQuestion(true));
  // Escape in the question keeps playing (and is not the board's "skip the animation").
  $("end-confirm").addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    e.stopPropagation();
    closeQuestion(true);
  });
}
