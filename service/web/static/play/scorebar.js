/* Squares, the play page zoomed on a phone: a compact score bar ("You 12 · Computer
   9 · Round 2") over a line that names who moves now and the stage really in play
   ("Your turn — stage 1: close a square", "The computer is moving… (stage 2)",
   "Bora's turn — stage 1"). It stays at the top of the screen while the zoomed board
   is scrolled (zoom.css), since the status panel is then below it, off screen; while
   a turn is shown move by move it follows that turn (`barTurn`, from showPlaying), not
   the state the page last drew. Only a look (aria-hidden): the status panel says the
   same to a screen reader. */

import { t } from "../common/i18n.js";
import { $ } from "../common/dom.js";
import { seatName, seatView } from "../common/panels.js";
import { S, isComputer, mySeat, online, youSeat } from "./state.js";

const field = (name) => $("scorebar").querySelector(`[data-bar="${name}"]`);

/* The bar from a whole state (the scores as shown: they count to their new value). */
export function fillScorebar(st) {
  for (const seat of [1, 2]) {
    const v = seatView(st, seat, youSeat(st));
    field(`label${seat}`).textContent = v.label;
    field(`label${seat}`).title = v.full;
  }
  barScores(S.shown);
  field("stage").textContent = st.over ? "" : t("Round {round}", { round: st.round });
  barTurn(st, st.turn, st.stage);
}

/* What each stage asks of the player to move, in a few words. */
const STAGE_TASK = { 1: () => t("close a square"), 2: () => t("one extra line"), 3: () => t("the random pieces") };

/* Who moves now, and in which stage: `seat` playing `stage` of game `st`. */
export function turnWords(st, seat, stage) {
  if (st.over) return t("Game over");
  if (online(st) && st.open_seat !== null) {
    return S.game && S.game.token ? t("Waiting for your friend to join") : t("Waiting for a second player");
  }
  const task = t("stage {stage}: {task}", { stage, task: STAGE_TASK[stage] ? STAGE_TASK[stage]() : "" });
  if (isComputer(st, seat)) {
    if (st.mode === "vs_computer") return t("The computer is moving… (stage {stage})", { stage });
    return t("{name} is moving… (stage {stage})", { name: seatName(st, seat), stage });
  }
  const mine = Boolean(S.game && S.game.token) && (!online(st) || seat === mySeat(st));
  if (mine && st.mode !== "two_players") return t("Your turn — {task}", { task });
  if (mine) return t("{name}'s turn — {task}", { name: seatName(st, seat), task });
  return t("{name}'s turn — stage {stage}", { name: seatName(st, seat), stage });
}

/* The bar's line of who moves: `seat` in `stage` (the turn being shown). */
export function barTurn(st, seat, stage) {
  const line = field("turn");
  line.textContent = turnWords(st, seat, stage);
  line.classList.toggle("turn-1", !st.over && seat === 1);
  line.classList.toggle("turn-2", !st.over && seat === 2);
}

/* The scores on the bar, as the status panel shows them now. */
export function barScores(scores) {
  for (const seat of [1, 2]) field(`score${seat}`).textContent = String(scores[seat - 1]);
}

/* Shown while zoomed. */
export function syncScorebar() {
  $("scorebar").hidden = !S.zoomed;
}
