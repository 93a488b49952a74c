/* Squares, the play page zoomed on a phone: a compact score bar ("You 12 · Computer
   9 · Round 2, stage 1") that stays at the top of the screen while the zoomed board
   is scrolled (zoom.css), since the status panel is then below it, off screen. Only
   a look (aria-hidden): the status panel says the same to a screen reader. */

import { $ } from "../common/dom.js";
import { seatView } from "../common/panels.js";
import { S, youSeat } from "./state.js";

const field = (name) => $("scorebar").querySelector(`[data-bar="${name}"]`);

/* The bar from a whole state (the scores as shown: they count to their new value). */
export function fillScorebar(st) {
  for (const seat of [1, 2]) {
    const v = seatView(st, seat, youSeat(st));
    field(`label${seat}`).textContent = v.label;
    field(`label${seat}`).title = v.full;
  }
  barScores(S.shown);
  field("stage").textContent = st.over ? "Game over" : `Round ${st.round}, stage ${st.stage}`;
}

/* The scores on the bar, as the status panel shows them now. */
export function barScores(scores) {
  for (const seat of [1, 2]) field(`score${seat}`).textContent = String(scores[seat - 1]);
}

/* Shown while zoomed. */
export function syncScorebar() {
  $("scorebar").hidden = !S.zoomed;
}
