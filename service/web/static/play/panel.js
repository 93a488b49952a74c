/* Squares, the play page: the panel beside the board (status, prompt, message, the
   previous turn) and the board's paint from a whole state; the scores and game over
   are scores.js's, an online game's invite invite.js's. */

import { penaltyOf } from "../common/captions.js";
import { $ } from "../common/dom.js";
import { setMessage } from "../common/message.js";
import { fillPieces, fillPlans, fillStatus, overResult, plansOfState, seatLetter, seatName } from "../common/panels.js";
import { nt, t } from "../common/i18n.js";
import { signed } from "../common/words.js";
import { autoOn } from "./auto.js";
import { fillInvite } from "./invite.js";
import { noticeTurn } from "./notice.js";
import { barTurn, fillScorebar } from "./scorebar.js";
import { syncEndButtons } from "./resign.js";
import { showOver, showScores } from "./scores.js";
import { S, canPlay, isComputer, mySeat, online, youSeat } from "./state.js";
import { syncZoomTools } from "./zoom.js";

// -- messages: each stays until the next action --------------------------------------
export function flash(text, kind, code) {
  setMessage(text, kind || "info", code || "");
}

export function clearMessage() {
  flash("", "", "");
  delete $("message").dataset.hint;
}

// -- the controls: the player to move may use them; anyone else sees why not ------------
const KEY_TITLES = { "advance-btn": "Enter", "hint-btn": "H" }; // their titles when enabled

/* Enable or disable "Next stage" / "End turn" and "Hint"; disabled ones get `reason`
   as their title and accessible description (#controls-reason). */
export function setControls(enabled, reason) {
  const why = $("controls-reason");
  why.textContent = enabled ? "" : reason || "";
  for (const [id, key] of Object.entries(KEY_TITLES)) {
    const b = $(id);
    b.disabled = !enabled;
    if (!enabled && reason) {
      b.title = reason;
      b.setAttribute("aria-describedby", "controls-reason");
    } else {
      b.title = key;
      b.removeAttribute("aria-describedby");
    }
  }
}

/* How the panel names a seat: "The computer" against the computer, else its name. */
function label(st, seat) {
  return st.mode === "vs_computer" && isComputer(st, seat) ? t("The computer") : seatName(st, seat);
}

const STAGE_WORDS = { 1: () => t("squaring"), 2: () => t("the extra line"), 3: () => t("the random pieces") };

/* While `seat` plays (or its moves are shown) in `stage`: [the prompt, why the
   controls wait], or null when it is this page's player to act. */
function waitingFor(st, seat, stage) {
  const name = seatName(st, seat);
  if (isComputer(st, seat)) {
    const skip = S.anim ? " " + t("Wait for it to end, or skip the animation.") : "";
    const what = STAGE_WORDS[stage] ? STAGE_WORDS[stage]() : "";
    return [t("{name} is playing its turn… (stage {stage}: {what}).", { name: label(st, seat), stage, what }) + skip,
      st.mode === "vs_computer" ? t("Wait for the computer's turn to end.") : t("Wait for {name}'s turn to end.", { name })];
  }
  if (!S.game.token) {
    return [t("{name} is to move (stage {stage}).", { name, stage }), t("You are watching this game: this browser cannot play it.")];
  }
  if (online(st) && seat !== mySeat(st)) {
    return [t("Waiting for {name}… (stage {stage})", { name, stage }), t("Waiting for {name} to move.", { name })];
  }
  return null;
}

/* The panel while a turn is shown move by move (the computer's, an online opponent's,
   the random pieces) or while the computer thinks: who plays, in which stage, and the
   controls disabled with the reason. The state drawn at the end (`render`) undoes it. */
export function showPlaying(st, seat, stage) {
  const status = $("status");
  status.classList.toggle("turn-1", seat === 1);
  status.classList.toggle("turn-2", seat === 2);
  for (const n of status.querySelectorAll('[data-field="turn"]')) {
    n.textContent = seatName(st, seat);
    n.title = seatName(st, seat);
  }
  for (const n of status.querySelectorAll('[data-field="stage"]')) n.textContent = String(stage);
  let [prompt, reason] = waitingFor(st, seat, stage) || [];
  if (!prompt) {
    // This page's own player: its random pieces land, or moves made elsewhere are shown.
    const who = st.mode === "two_players" ? t("{name}: ", { name: seatName(st, seat) }) : "";
    [prompt, reason] = stage === 3
      ? [who + t("Stage 3 — the random pieces are landing…"), t("Wait for the random pieces to land.")]
      : [who + t("The latest moves are being shown…"), t("Wait for the moves to be shown.")];
  }
  $("prompt").textContent = prompt;
  barTurn(st, seat, stage); // the zoomed board's bar follows the turn shown too
  setControls(false, reason);
  $("advance-btn").classList.remove("hint");
  $("advance-btn").textContent = stage === 3 ? t("End turn ⏎") : t("Next stage ⏎");
  $("game").classList.toggle("waiting", Boolean(S.game.token));
}

/* Why the controls are disabled in a state this page's player cannot act in. */
function reasonFor(st) {
  if (st.abandoned) return t("This game was abandoned.");
  if (st.over) return t("The game is over.");
  if (online(st) && st.open_seat !== null) {
    return S.game.token ? t("Waiting for your friend to join.") : t("Waiting for a second player to join.");
  }
  const waiting = waitingFor(st, st.turn, st.stage);
  return waiting ? waiting[1] : "";
}

/* The end of a game in words: "You win! You 12 · Computer 9" (`result`: a state or
   the game_over event's data, with its scores and winner). */
export function resultWords(st, result) {
  const r = overResult({ ...st, scores: result.scores, winner: result.winner, abandoned: null }, youSeat(st));
  return `${r.title}${r.title.endsWith("!") ? "" : "."} ${r.line}`;
}

// -- what the player is asked to do ----------------------------------------------------
function promptFor(st) {
  const name = (seat) => seatName(st, seat);
  if (st.abandoned) return t("This game was abandoned: nobody can move in it any more. Start a new game.");
  if (st.aborted) return t("The game was aborted: nobody can move in it any more. Start a new game.");
  if (st.over) return t("Game over. Watch the replay, or start a new game.");
  if (online(st) && st.open_seat !== null) {
    if (S.game.token && S.game.invite && S.game.invite.rematch) {
      return t("{name} can accept the rematch on their page, or open the link: the game starts when they join.",
        { name: S.game.invite.rematch });
    }
    return S.game.token ? t("Send your friend the invite link: the game starts when they join.")
      : t("Waiting for a second player to join.");
  }
  const waiting = waitingFor(st, st.turn, st.stage);
  if (waiting) return waiting[0];
  const who = st.mode === "two_players" ? t("{name}: ", { name: name(st.turn) }) : online(st) ? t("Your turn.") + " " : "";
  if (st.stage === 1) {
    return who + t("Stage 1 — squaring: each line must close a square (+1). Keep each new square next to the one before, or it costs 5. Nothing to close?")
      + " " + (autoOn() ? t("The game moves on to stage 2 by itself.") : t("Press Next stage."));
  }
  if (st.stage === 2) {
    return who + (st.legal.can_advance
      ? t("Stage 2 done. Press Next stage: the random pieces follow.")
      : t("Stage 2 — place one extra line anywhere. It scores nothing: try not to leave a square open."));
  }
  return who + t("Stage 3 — the random pieces are on the board.") + " "
    + (autoOn() ? t("The turn ends by itself.") : t("Press End turn."));
}

// -- what kind of game: a practice game (a chosen seed), an online game's hints ----------
function fillNotes(st) {
  const practice = $("practice-note");
  practice.hidden = st.ranked !== false;
  practice.textContent = t("Practice game · seed {seed}", { seed: st.seed });
  practice.title = t("A chosen seed: the same random lines and pieces every time, never in the high scores.");
  const hints = $("hints-note");
  hints.hidden = !online(st);
  hints.textContent = st.hints ? t("Hints on") : t("Hints off");
  hints.title = st.hints ? t("The player to move may ask for a hint.") : t("Neither player can ask for a hint in this game.");
  $("hint-btn").hidden = !st.hints;
  $("keys-hint").hidden = !st.hints;
  $("over-practice").hidden = st.ranked !== false;
  // RULES E1: a hint unranks a game; say so before the first, mark the game after it
  $("assisted-note").hidden = !st.assisted;
  $("over-assisted").hidden = !st.assisted;
  $("hint-warning").hidden = !(st.hints && st.table && !st.over && canPlay(st));
}

// -- the whole page from a state -------------------------------------------------------
export function render(st) {
  S.state = st;
  S.board.paint(st);
  fillStatus($("status"), st, youSeat(st));
  showScores(st.scores);
  fillScorebar(st);
  const ownPieces = st.stage === 3 && !st.over;
  fillPieces($("pieces"), ownPieces ? st.last_pieces || [] : []);
  fillLastTurn(st);
  fillInvite(st);
  const board = $("board");
  board.dataset.version = st.version;
  board.dataset.stage = st.stage;
  board.dataset.over = st.over ? "true" : "false";
  const mine = canPlay(st);
  $("advance-btn").classList.remove("hint");
  $("advance-btn").textContent = st.stage === 3 ? t("End turn ⏎") : t("Next stage ⏎");
  setControls(mine, mine ? "" : reasonFor(st));
  if (!st.hints) $("hint-btn").disabled = true;
  fillNotes(st);
  syncEndButtons(st);
  $("prompt").textContent = promptFor(st);
  const game = $("game");
  game.classList.toggle("is-over", st.over);
  $("replay-link").textContent = st.over ? t("Replay this game") : t("Replay so far");
  game.classList.toggle("watching", !S.game.token);
  game.classList.toggle("waiting", Boolean(S.game.token) && !st.over && !mine);
  if (!S.cursor) {
    const y = 2 * Math.floor(st.height / 4);
    const x = 2 * Math.floor(st.width / 4) + 1;
    S.cursor = { x, y, wantX: x };
  }
  if (st.over) S.board.hideCursor();
  else S.board.showCursor(S.cursor.x, S.cursor.y);
  const turnName = seatName(st, st.turn);
  document.title = st.over ? t("Squares — game over")
    : t("Squares — round {round}, {name}, stage {stage}", { round: st.round, name: turnName, stage: st.stage });
  noticeTurn(st); // a hidden tab's "Your turn" (its title, a notification)
  syncZoomTools();
  if (st.over) showOver(st);
}

/* The previous turn in one line, and the computer's plan if it was the computer's. */
function fillLastTurn(st) {
  const box = $("last-box");
  let summary = "";
  if (S.lastTurn) summary = summarizeTurn(st, S.lastTurn) + (S.lastTurn.final ? " " + t("The game ended on this turn.") : "");
  else if (st.last_turn) {
    const lines = nt("{n} line", "{n} lines", st.last_turn.lines.length);
    const squares = nt("{n} square", "{n} squares", st.last_turn.squares.length);
    summary = t("{name}: {lines}, {squares} formed.", { name: seatName(st, st.last_turn.seat), lines, squares });
  }
  $("last-title").textContent = t("Last turn");
  $("last-summary").textContent = summary;
  const lastSeat = S.lastTurn ? S.lastTurn.seat : st.last_turn ? st.last_turn.seat : null;
  const computerPlans = lastSeat !== null && isComputer(st, lastSeat) && !(st.over && st.mode !== "vs_computer")
    ? (Object.keys(S.plans).length ? S.plans : plansOfState(st)) : {};
  fillPlans($("ai-box"), computerPlans, st);
  box.hidden = !summary && $("ai-box").hidden;
}

function summarizeTurn(st, turn) {
  let lines = 0, won = 0, penalty = 0, ownerless = 0, pieces = 0;
  const letter = seatLetter(st, turn.seat);
  for (const ev of turn.events) {
    const d = ev.data || {};
    if (ev.type === "line_placed") {
      lines += 1;
      penalty += penaltyOf(d);
      for (const q of d.squares) {
        if (q[2] === letter) won += 1;
        else ownerless += 1;
      }
    } else if (ev.type === "piece_inserted" && !d.skipped) {
      pieces += 1;
      ownerless += d.squares.length;
    }
  }
  const delta = won - penalty;
  const parts = [nt("{n} line", "{n} lines", lines)];
  if (won) parts.push(nt("{n} square won", "{n} squares won", won));
  if (penalty) parts.push(t("an irregular square (−{penalty})", { penalty }));
  if (ownerless) parts.push(t("{n} ownerless", { n: ownerless }));
  if (pieces) parts.push(nt("{n} random piece", "{n} random pieces", pieces));
  return t("{name}: {delta} — {parts}.", { name: seatName(st, turn.seat), delta: signed(delta), parts: parts.join(", ") });
}
