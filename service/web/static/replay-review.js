/* Squares, the replay page: the review of an ended game (#review, only on the pages
   of ended games). Reads GET /api/games/{id}/analysis, asking again every few
   seconds while the answer is 202 (the analyst has not got to the game yet), then
   shows it: the summary (replay-review-summary), the per-turn chart
   (replay-review-chart), the "?" marks in the move list and "Show best"
   (replay-review-overlay), which follow the step on screen. */

import { go } from "./replay-controls.js";
import { drawReviewChart, markReviewTurn } from "./replay-review-chart.js";
import { drawBest, initOverlay, setShowBest } from "./replay-review-overlay.js";
import { fillSummary, markMistakes } from "./replay-review-summary.js";
import { turnAt } from "./replay-review-text.js";
import { $, R, gameId, names } from "./replay-state.js";

const POLL_MS = 3000; // while pending, the first minute; then every SLOW_MS
const SLOW_MS = 15000;
const RETRY_MS = 10000; // after a network error or a 5xx

function say(message, state) {
  const p = $("review-status");
  p.textContent = message;
  p.hidden = !message;
  $("review").dataset.state = state;
}

function showReview(review, movesBuilt) {
  const turns = [...review.turns].sort((a, b) => a.start_seq - b.start_seq);
  const chart = $("review-chart");
  fillSummary(review, (k) => {
    setShowBest(true); // a mistake's link shows what was better there
    go(k);
  });
  drawReviewChart(chart, turns, names, go);
  initOverlay(turns);
  const follow = (k) => {
    drawBest(k);
    const t = turnAt(turns, k);
    markReviewTurn(chart, t ? t.turn : null);
  };
  document.addEventListener("replay:step", (e) => follow(e.detail.step));
  follow(R.step);
  movesBuilt.then(() => markMistakes(turns), () => {});
  $("review-body").hidden = false;
  say("", "ready");
}

/* Start once; `movesBuilt` resolves when the move list is there to be marked. */
export function initReview(movesBuilt) {
  if (!$("review")) return; // a game being played has no review (the API's 409)
  const url = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  let polls = 0;
  const later = (ms) => setTimeout(poll, ms);
  async function poll() {
    let resp, body;
    try {
      resp = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
      body = await resp.json();
    } catch (e) {
      say("Review: the server cannot be reached; trying again…", "error");
      later(RETRY_MS);
      return;
    }
    if (resp.status === 200 && body.status === "ready") {
      showReview(body, movesBuilt);
    } else if (resp.status === 202) {
      say("Review: on its way", "pending");
      later(++polls < 20 ? POLL_MS : SLOW_MS);
    } else if (resp.status === 404 || resp.status === 409) {
      $("review").hidden = true;
    } else {
      say(`Review: not available now (HTTP ${resp.status}); trying again…`, "error");
      later(RETRY_MS);
    }
  }
  poll();
}
