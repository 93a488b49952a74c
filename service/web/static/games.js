/* Squares: the games list. A "Continue" link for each unfinished game whose token
   this browser keeps (the play page stores them per game id). */
"use strict";

(() => {
  let tokens = {};
  try {
    tokens = JSON.parse(localStorage.getItem("squares.tokens") || "{}") || {};
    const latest = JSON.parse(localStorage.getItem("squares.game") || "null");
    if (latest && typeof latest.game_id === "string") tokens[latest.game_id] = latest;
  } catch (e) {
    tokens = {};
  }
  for (const row of document.querySelectorAll("tr[data-game-id]")) {
    const link = row.querySelector("a.continue-link");
    const t = tokens[row.dataset.gameId];
    if (link && t && typeof t.token === "string") {
      link.hidden = false;
      row.classList.add("mine");
    }
  }
})();
