/* Squares: the replay page (/games/<id>), its entry point. The page's modules:
   replay-state (its data and shared state), replay-load (the server), replay-step
   (one step on screen), replay-moves (the move list), replay-controls (buttons and
   keys), replay-autoplay, replay-chart (the score chart) and replay-review (an
   ended game's review). */

import { drawChart } from "./replay-chart.js";
import { initControls } from "./replay-controls.js";
import { loadEvents, showError } from "./replay-load.js";
import { buildMoves } from "./replay-moves.js";
import { initReview } from "./replay-review.js";
import { R, names } from "./replay-state.js";
import { show } from "./replay-step.js";

initControls();
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
