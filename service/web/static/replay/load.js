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

/* The state after step k (a request that gets no usable answer is tried once more:
   autoplay should not stop on one dropped connection). */
export async function stateAt(k) {
  if (!cache.has(k)) {
    const path = gamePath(gameId, `/replay/${k}`);
    const once = () => getJson(path);
    cache.set(k, once()
      .catch((e) => (e.status === 0 ? once() : Promise.reject(e)))
      .catch((e) => {
        cache.delete(k);
        throw e;
      }));
  }
  return cache.get(k);
}
