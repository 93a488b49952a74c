/* Squares, the replay page: what it reads from the server. The state at every step
   comes from GET /api/games/{id}/replay/{k}, so the rules live in one place. */

import { gamePath, getJson } from "../common/api.js";
import { R, gameId } from "./state.js";

const cache = new Map();

export async function loadEvents() {
  const base = gamePath(gameId, "/events");
  let after = 0;
  for (let guard = 0; guard < 1000; guard++) {
    // The whole stream in one answer; more pages only if the server ever cuts it short.
    const page = await getJson(after ? `${base}?after=${after}` : base);
    if (!page.events.length) break;
    R.events = R.events.concat(page.events);
    after = page.events[page.events.length - 1].seq;
    if (after >= page.version) break;
  }
}

export async function stateAt(k) {
  if (!cache.has(k)) {
    cache.set(k, getJson(gamePath(gameId, `/replay/${k}`)).catch((e) => {
      cache.delete(k);
      throw e;
    }));
  }
  return cache.get(k);
}
