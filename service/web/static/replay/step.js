/* Squares, the replay page: one step on screen: the board with the step's lines and
   squares outlined, the panels, the caption, the controls' state, the step's place
   in the move list and on the score chart, and the step in the URL; then a
   "shown" on the page's bus (a step that cannot be loaded: "failed"). */

import { t } from "../common/i18n.js";
import { Board } from "../common/board.js";
import { describeEvent } from "../common/captions.js";
import { $ } from "../common/dom.js";
import { showError } from "../common/message.js";
import { fillPieces, fillPlans, fillStatus, plansOf, plansOfState } from "../common/panels.js";
import { emit } from "./bus.js";
import { markChart } from "./chart.js";
import { stateAt } from "./load.js";
import { markMove } from "./moves.js";
import { R, clamp, names, total } from "./state.js";

let board = null;

export async function show(k) {
  k = clamp(k);
  R.wanted = k;
  $("slider").value = String(k);
  $("step-no").textContent = String(k);
  const url = new URL(window.location.href);
  url.searchParams.set("step", String(k));
  history.replaceState(null, "", url.pathname + url.search);
  let answer;
  try {
    answer = await stateAt(k);
  } catch (e) {
    showError(e.message);
    emit("failed");
    return;
  }
  if (R.wanted !== k) return; // a newer step was asked for meanwhile
  R.step = k;
  const st = answer.state;
  if (!board || board.height !== st.height || board.width !== st.width) {
    board = new Board($("board"), st.height, st.width);
  }
  board.paint(st);
  const events = R.events;
  const ev = events[k - 1] || answer.event;
  board.markStep(ev);
  $("board").dataset.step = String(k);
  fillStatus($("status"), st);
  fillPieces($("pieces"), st.last_pieces || []);
  fillPlans($("ai-box"), events.length >= k ? plansOf(events.slice(0, k)) : plansOfState(st), st);
  $("step-desc").textContent = ev ? t("Step {k}: {event}", { k, event: describeEvent(ev, names) }) : t("Step {k}", { k });
  markChart(k);
  $("prev-btn").disabled = k <= 1;
  $("first-btn").disabled = k <= 1;
  $("next-btn").disabled = k >= total;
  $("last-btn").disabled = k >= total;
  $("prev-turn-btn").disabled = k <= 1;
  $("next-turn-btn").disabled = k >= total;
  markMove(k);
  // For the page's other parts that follow the step (the review's "Show best").
  emit("shown", k);
  // Warm the cache for the next step so stepping and autoplay stay smooth.
  if (k < total) stateAt(k + 1).catch(() => {});
}
