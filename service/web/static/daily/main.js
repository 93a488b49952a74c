/* Squares: the daily challenge's page (/daily). The form starts today's game
   (POST /api/games with "daily": true; the session cookie decides whether it is the
   player's ranked attempt), keeps its token as the play page does, and opens it. */

import { api, ApiError } from "../common/api.js";
import { $ } from "../common/dom.js";
import { remember } from "../common/store.js";

const form = $("daily-form");
const error = $("daily-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  const button = $("daily-play");
  button.disabled = true;
  try {
    const created = await api("POST", "/api/games",
      { daily: true, player_name: $("daily-name").value });
    remember({ game_id: created.game_id, token: created.token, seat: 1 });
    window.location.assign(`/play/${encodeURIComponent(created.game_id)}`);
  } catch (err) {
    error.textContent = err instanceof ApiError ? err.message : String(err);
    error.hidden = false;
    button.disabled = false;
  }
});
