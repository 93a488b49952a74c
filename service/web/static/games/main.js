/* Squares: the games list (/games). A "Continue" link for each unfinished game whose
   token this browser keeps (common/store.js, as the play page stores them). A page
   of its own, small enough to need no more than this module. */

import { tokens } from "../common/store.js";

const mine = tokens();
for (const row of document.querySelectorAll("tr[data-game-id]")) {
  const link = row.querySelector("a.continue-link");
  if (link && mine[row.dataset.gameId]) {
    link.hidden = false;
    row.classList.add("mine");
  }
}
