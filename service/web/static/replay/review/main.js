/* Squares, the replay page: the review of an ended game (#review, only on the pages
   of ended games). Reads GET /api/games/{id}/analysis, asking again every few
   seconds while the answer is 202 (the analyst has not got to the game yet), then
   shows it: the summary (summary.js), the per-turn chart (chart.js), the "?" marks
   in the move list and "Show best" (overlay.js), which follow the step on screen;
   text.js puts the review in words. A folder of its own inside replay/: the review
   is a part of the replay page that only ended games have. */

import { t } from "../../common/i18n.js";
import { gamePath, request } from "../../common/api.js";
import { $ } from "../../common/dom.js";
import { go, on } from "../bus.js";
import { R, gameId, names } from "../state.js";
import { drawReviewChart, markReviewTurn } from "./chart.js";
import { drawBest, initOverlay, setShowBest } from "./overlay.js";
import { fillSummary, markMistakes } from "./summary.js";
import { turnAt } from "./text.js";

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
    const turn = turnAt(turns, k);
    markReviewTurn(chart, turn ? turn.turn : null);
  };
  on("shown", follow);
  follow(R.step);
  movesBuilt.then(() => markMistakes(turns), () => {});
  $("review-body").hidden = false;
  say("", "ready");
}

/* Start once; `movesBuilt` resolves when the move list is there to be marked. */
export function initReview(movesBuilt) {
  if (!$("review")) return; // a game being played has no review (the API's 409)
  const url = gamePath(gameId, "/analysis");
  let polls = 0;
  const later = (ms) => setTimeout(poll, ms);
  async function poll() {
    const answer = await request("GET", url).catch(() => null); // null: no answer
    if (!answer || answer.data === null) {
      say(t("Review: the server cannot be reached; trying again…"), "error");
      later(RETRY_MS);
      return;
    }
    const { status, data } = answer;
    if (status === 200 && data.status === "ready") {
      showReview(data, movesBuilt);
    } else if (status === 202) {
      say(t("Review: on its way"), "pending");
      later(++polls < 20 ? POLL_MS : SLOW_MS);
    } else if (status === 404 || status === 409) {
      $("review").hidden = true;
    } else {
      say(t("Review: not available now (HTTP {status}); trying again…", { status }), "error");
      later(RETRY_MS);
    }
  }
  poll();
}
