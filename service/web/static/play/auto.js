/* Squares, the play page: a stage that offers no choice moves on by itself.

   Stage 1 with no square to close (the state's `legal` lines empty, advance allowed)
   and stage 3 (the random pieces fell: only "End turn" is left) would each cost a press
   that decides nothing. When the page is free (live.js calls `autoAdvance` once no
   request, animation or feed event is pending) and such a stage is this page's player's
   (`canPlay`: the seat to move, on the page that plays it; online, never the other
   player's page), the page says so in one line (#auto-note, polite to screen readers;
   it stays until the player's next action) and, a moment later, sends the advance a
   press sends: the same command, so the server records the same `stage_advanced`
   (reason "player": the player's page advanced for them). Stage 2 always waits for its
   line, and a stage 1 with a square to close keeps the choice to stop. Only while the
   page is shown: a hidden tab's player could read no note, so its stage waits until the
   tab is shown again. The checkbox under the buttons (localStorage
   "squares.autoAdvance") turns it off. */

import { t } from "../common/i18n.js";
import { $ } from "../common/dom.js";
import { seatName } from "../common/panels.js";
import { S, canPlay, isComputer } from "./state.js";

const KEY = "squares.autoAdvance";
const PAUSE_MS = 800; // the note read, the pieces seen, before the stage moves on

let act = null; // input.js's act, given by main.js (input.js imports this module)
let timer = null;
let doneAt = -1; // the version last advanced by itself: never twice from one state

export function autoOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch (e) {
    return true;
  }
}

function setAutoOn(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (e) {
    // no storage (private mode): the choice lasts as long as the page
  }
}

/* The line that says why the stage moves on by itself, or null: the stage offers a
   choice, or it is not this page's player's to leave. */
export function noChoice(st) {
  if (!st || st.over || !canPlay(st) || !st.legal || st.legal.seat !== st.turn || !st.legal.can_advance) return null;
  if (st.stage === 1 && !st.legal.lines.length) {
    const closed = S.turnEvents.some((ev) => ev.type === "line_placed" && ev.data.stage === 1);
    return closed ? t("No more squares to close: on to stage 2.") : t("No square to close: on to stage 2.");
  }
  if (st.stage !== 3) return null;
  const next = 3 - st.turn;
  if (isComputer(st, next)) return t("The pieces fell: the computer's turn.");
  const name = seatName(st, next);
  return name ? t("The pieces fell: {name}'s turn.", { name }) : t("The pieces fell: the other player's turn.");
}

/* The one-line note: said (polite), or cleared (a player's own action). */
export function sayAuto(text) {
  const note = $("auto-note");
  if (note && note.textContent !== text) note.textContent = text;
}

function cancel() {
  clearTimeout(timer);
  timer = null;
}

/* Called whenever the page is free: a stage without a choice moves on. */
export function autoAdvance() {
  const st = S.state;
  if (!act || timer || S.busy || !st || st.version === doneAt || !autoOn()) return;
  if (document.visibilityState === "hidden") return; // moved on when shown again
  const note = noChoice(st);
  if (!note) return;
  sayAuto(note);
  const game = S.game;
  const version = st.version;
  timer = setTimeout(() => {
    timer = null;
    // Still the state the note was about (the player may have pressed the button meanwhile).
    if (S.game !== game || S.busy || !S.state || S.state.version !== version || noChoice(S.state) !== note) {
      if (S.busy) return; // kick() calls again when the page is free
      sayAuto("");
      autoAdvance();
      return;
    }
    doneAt = version;
    act("advance", undefined, undefined, true);
  }, PAUSE_MS);
}

/* A game entered (or left): no note, nothing pending. */
export function resetAuto() {
  cancel();
  doneAt = -1;
  sayAuto("");
}

export function initAuto(actFn) {
  act = actFn;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      cancel();
      sayAuto("");
    } else {
      autoAdvance();
    }
  });
  const box = $("auto-advance");
  if (!box) return;
  box.checked = autoOn();
  box.addEventListener("change", () => {
    setAutoOn(box.checked);
    if (box.checked) {
      autoAdvance();
    } else {
      cancel();
      sayAuto("");
    }
    $("board").focus({ preventScroll: true }); // as after a button: Space and Enter play
  });
}
