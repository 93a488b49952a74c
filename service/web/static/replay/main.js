/* Squares: the replay page (/games/<id>), its entry point. The page's modules:
   state (its data and shared state), bus (how its parts tell each other, so that
   none imports a module that imports it back), load (the server), step (one step on
   screen), moves (the move list), controls (buttons and keys), autoplay, chart (the
   score chart) and review/ (an ended game's review). What the watch and play pages
   share with it (the board, the panels, the captions, "Copy replay link") is in
   common/. */

import { showError } from "../common/message.js";
import { initShare } from "../common/share.js";
import { drawChart } from "./chart.js";
import { initControls } from "./controls.js";
import { loadEvents } from "./load.js";
import { buildMoves } from "./moves.js";
import { initReview } from "./review/main.js";
import { R, names } from "./state.js";
import { show } from "./step.js";

initControls();
initShare();
drawChart();
const movesBuilt = loadEvents().then(() => {
  // An online game's second seat is named by its seat_claimed event.
  for (const ev of R.events) if (ev.type === "seat_claimed") names[ev.data.seat] = ev.data.name;
  buildMoves();
  show(R.wanted);
});
movesBuilt.catch((e) => showError(e.message));
initReview(movesBuilt);
show(R.step);
