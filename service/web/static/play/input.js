/* Squares, the play page: the player's actions (a line, the advance, a hint, the
   computer's turn when the page must ask for it) and the input that makes them:
   cursor keys, the mouse, taps and the buttons. */

import { t } from "../common/i18n.js";
import { api, ApiError } from "../common/api.js";
import { pt } from "../common/captions.js";
import { $ } from "../common/dom.js";
import { seatName, shownName } from "../common/panels.js";
import { applyMoveResult } from "./anim.js";
import { sayAuto } from "./auto.js";
import { catchUpSoon, kick, untilCaughtUp } from "./live.js";
import { clearMessage, flash, render, showPlaying } from "./panel.js";
import { lineRefusal } from "./refusals.js";
import { S, canPlay, gameUrl, isComputer, online, recordSeqs } from "./state.js";
import { keepInView } from "./inview.js";
import { syncZoomTools, tooSmall, zoom } from "./zoom.js";


// -- actions -------------------------------------------------------------------------
const TRANSIENT = new Set([0, 502, 503, 504]); // no answer, or a server restarting
const RESEND_AFTER_MS = [500, 1000, 2000, 4000];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/* POST a move; while the server cannot be reached or is restarting, send it again.
   Safe because the move carries expected_version: if an earlier send did land, the
   next one is refused as a version_conflict (marked `resent`), never a second move. */
async function sendMove(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api("POST", gameUrl(path), body, S.game.token);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      e.resent = attempt > 0;
      if (!TRANSIENT.has(e.status) || attempt >= RESEND_AFTER_MS.length) throw e;
      flash(t("The server did not answer: sending your move again…"), "info", "resending");
      await sleep(RESEND_AFTER_MS[attempt]);
    }
  }
}

/* A line or an advance; `auto`: the advance of a stage without a choice (play/auto.js),
   whose note stays. */
export async function act(kind, x, y, auto = false) {
  if (S.busy) await untilCaughtUp();
  const st = S.state;
  if (!S.game || !st || S.busy) return;
  if (!S.game.token) {
    flash(t("You are watching this game: this browser cannot play it."), "error", "watching");
    return;
  }
  if (st.abandoned) {
    flash(t("This game was abandoned."), "error", "game_abandoned");
    return;
  }
  if (st.over) {
    flash(t("The game is over."), "error", "game_over");
    return;
  }
  if (online(st) && !canPlay(st)) {
    flash(st.open_seat !== null ? t("Your friend has not joined yet: wait for them to open the invite link.")
      : t("It is {name}'s turn: wait for their move.", { name: seatName(st, st.turn) }), "error", "waiting");
    return;
  }
  const refused = kind === "line" ? lineRefusal(st, x, y) : null;
  if (refused) { // said at once, never sent (play/refusals.js)
    flash(refused.message, "error", refused.code);
    return;
  }
  S.busy = true;
  S.board.clearHint();
  clearMessage();
  if (!auto) sayAuto(""); // the player's own action: a stage that moved on by itself is past
  // Ending a turn against the computer: it thinks, then plays; the panel says so at once.
  const next = 3 - st.turn;
  const handsOver = kind === "advance" && st.stage === 3 && st.legal.can_advance && isComputer(st, next);
  if (handsOver) {
    showPlaying(st, next, 1);
    flash(t("{name} is thinking…", { name: seatName(st, next) }), "info", "thinking");
  }
  try {
    const data = kind === "line"
      ? await sendMove("/lines", { x, y, expected_version: st.version })
      : await sendMove("/advance", { expected_version: st.version });
    await applyMoveResult(data.events, data.state);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (handsOver) render(S.state); // the turn did not end: the panel as it was
    if (e.resent && e.code === "version_conflict") {
      clearMessage(); // an earlier send landed: the feed and the catch-up show it
    } else {
      flash(e.message, "error", e.code);
    }
    if (e.code === "version_conflict" || e.code === "not_your_turn") catchUpSoon();
  } finally {
    S.busy = false;
  }
  kick();
}

/* A computer seat to move when the page opens (the server normally plays such a
   turn on the first read): ask the server to play it, and watch. */
export async function computerToMove(st) {
  if (st.over || st.mode !== "vs_computer" || S.busy || !S.game.token) return;
  const seat = st.seats.find((s) => s.seat === st.turn);
  if (!seat || seat.kind !== "computer") return;
  S.busy = true;
  flash(t("{name} is thinking…", { name: shownName(seat) }), "info", "thinking");
  try {
    const data = await api("POST", gameUrl("/computer-turn"), undefined, S.game.token);
    await applyMoveResult(data.events, data.state);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    flash(e.message, "error", e.code);
    if (e.code === "not_computer_turn" || e.code === "version_conflict") catchUpSoon();
  } finally {
    S.busy = false;
  }
  kick();
}

async function hint() {
  if (S.busy) await untilCaughtUp();
  if (!S.game || !S.state || S.busy || !canPlay(S.state)) return;
  if (!S.state.hints) {
    flash(t("Hints are off in this game."), "error", "hints_off");
    return;
  }
  try {
    // With the seat's token, as moves are sent: a hint is the player's own.
    const h = await api("GET", gameUrl("/hint"), undefined, S.game.token);
    noteAssisted(h);
    if (h.action === "line") {
      S.board.setHint(h.x, h.y);
      S.cursor = { x: h.x, y: h.y, wantX: h.x };
      showCursor(); // zoomed: the hinted line clear of the edges
      flash(t("Hint: place the line at {point} (column {x}, row {y}).", { point: pt(h.x, h.y), x: h.x, y: h.y }), "info", "hint");
    } else {
      $("advance-btn").classList.add("hint");
      flash(S.state.stage === 3 ? t("Hint: press End turn (Enter).") : t("Hint: press Next stage (Enter)."), "info", "hint");
    }
    $("message").dataset.hint = h.action === "line" ? `${h.x},${h.y}` : "advance";
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    flash(e.message, "error", e.code);
  }
}

/* The first hint of a game appended hint_used (RULES E1): the game is assisted, one
   version on. The state is the one the page shows but for those two (the event changes
   nothing else), so the page takes them as they are; its moves may name either version.
   A hint answer further ahead means the page is behind: it reads the game again. */
function noteAssisted(h) {
  const st = S.state;
  if (h.version === st.version + 1 && h.assisted && !st.assisted) {
    recordSeqs([h.version]);
    render({ ...st, version: h.version, assisted: true, table: null });
  } else if (h.version > st.version) {
    catchUpSoon();
  }
}

// -- the cursor and the keys ---------------------------------------------------------
function showCursor() {
  S.board.showCursor(S.cursor.x, S.cursor.y);
  keepInView([S.board.cursor]);
}

/* Arrow keys: left/right step to the next slot in the row; up/down go one
   character row up/down, to the slot nearest the column last chosen. */
function moveCursor(dx, dy) {
  const st = S.state;
  if (!st || !S.cursor) return;
  let { x, y, wantX } = S.cursor;
  if (dx) {
    const nx = x + 2 * dx;
    if (nx < 0 || nx >= st.width) return;
    x = nx;
    wantX = x;
  } else {
    const ny = y + dy;
    if (ny < 0 || ny >= st.height) return;
    let nx = (wantX + ny) % 2 === 1 ? wantX : wantX - 1;
    if (nx < 0) nx = 1;
    if (nx >= st.width) nx = st.width - 2;
    x = nx;
    y = ny;
  }
  S.cursor = { x, y, wantX };
  showCursor();
}

function onKey(e) {
  if ($("game").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  // A focused button or link keeps its own Enter / Space.
  if ((tag === "BUTTON" || tag === "A") && (e.key === "Enter" || e.key === " ")) return;
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (moves[e.key]) {
    e.preventDefault();
    moveCursor(...moves[e.key]);
  } else if (e.key === " " || e.key === "Spacebar") {
    e.preventDefault();
    if (S.cursor) act("line", S.cursor.x, S.cursor.y);
  } else if (e.key === "Enter") {
    e.preventDefault();
    act("advance");
  } else if (e.key === "Escape") {
    if (S.anim) S.anim.skip();
  } else if (e.key === "h" || e.key === "H") {
    hint();
  }
}

// -- taps and clicks -------------------------------------------------------------------
function onBoardClick(e) {
  if (!S.state) return;
  if (S.lastPointer === "touch" && tooSmall()) {
    const box = $("board").getBoundingClientRect();
    zoom(true, (e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height);
    return;
  }
  const slot = e.target.closest && e.target.closest(".slot");
  if (!slot) return;
  const x = Number(slot.dataset.x);
  const y = Number(slot.dataset.y);
  S.cursor = { x, y, wantX: x };
  S.board.showCursor(x, y);
  act("line", x, y);
}

// Buttons give the focus back to the board so space/Enter keep meaning "play".
function button(id, handler) {
  $(id).addEventListener("click", (e) => {
    e.currentTarget.blur();
    handler();
    $("board").focus({ preventScroll: true });
  });
}

export function initInput() {
  $("board").addEventListener("pointerdown", (e) => {
    S.lastPointer = e.pointerType || "mouse";
  });
  $("board").addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  button("advance-btn", () => act("advance"));
  button("hint-btn", hint);
  button("skip-btn", () => S.anim && S.anim.skip());
  button("zoom-btn", () => zoom(!S.zoomed));
  window.addEventListener("resize", () => S.state && syncZoomTools());
}
