/* Squares, the play page: the game's live feed (Server-Sent Events from
   /api/games/<id>/live, opened, resumed and paused with the tab by common/follow.js).
   Whatever brings an event — the page's own request or the feed — it is applied
   once, in seq order: the feed's events at or below the version the page shows are
   dropped; newer ones are kept by seq until the page is free (no request or
   animation running), then one GET /api/games/<id> per burst gives the state they
   lead to, and they go through `applyMoveResult` like the computer's turn. A gap (a
   reconnect, an event type this page does not listen to) is filled from /events.
   While the feed reconnects, #live-note says so. A player's own online game keeps its
   feed while the tab is hidden (the friend's move brings "Your turn", play/notice.js),
   and applies it there at once, unanimated: nobody watches, and a hidden tab's timers
   are slowed down to once a second or less. */

import { api, ApiError } from "../common/api.js";
import { $, tabHidden } from "../common/dom.js";
import { RECONNECTING, RETRY_MS, follow as followFeed, unfollow } from "../common/follow.js";
import { applyMoveResult } from "./anim.js";
import { autoAdvance } from "./auto.js";
import { flash } from "./panel.js";
import { S, gameUrl, online } from "./state.js";

const pending = new Map(); // seq -> event from the feed, not applied yet
let due = false; // a catch-up was asked for (a conflict, a reconnect)
let running = false;
let caughtUp = Promise.resolve(); // settles when the running catch-up ends

const ahead = () => S.state && [...pending.keys()].some((seq) => seq > S.state.version);

function dropSeen() {
  if (!S.state) return;
  for (const seq of [...pending.keys()]) if (seq <= S.state.version) pending.delete(seq);
}

/* The polite line under the board: shown only while the feed reconnects. */
function note(status) {
  const box = $("live-note");
  if (!box) return;
  box.textContent = status === "reconnecting" ? RECONNECTING : "";
  box.dataset.status = status;
}

/* Follow the game on the page (none after game over). */
export function follow() {
  stop();
  pending.clear();
  due = false;
  if (!S.game || !S.state || S.state.over) return;
  const game = S.game;
  followFeed({
    url: gameUrl("/live"),
    lastSeq: () => S.state.version,
    onEvent: (ev) => {
      if (S.game !== game || ev.seq <= S.state.version) return;
      pending.set(ev.seq, ev);
      kick();
    },
    ended: () => S.state.over
      || [...pending.values()].some((ev) => ["game_over", "game_abandoned", "game_aborted"].includes(ev.type)),
    // A dropped or refused stream, or its end after game over: read the game again.
    onGap: () => {
      if (S.game === game) catchUpSoon();
    },
    onStatus: note,
    whileHidden: () => Boolean(game.token) && online(S.state) && !S.state.over,
  });
}

export function stop() {
  unfollow();
}

/* Read the game again when the page is free (after a version conflict, a reconnect). */
export function catchUpSoon() {
  due = true;
  kick();
}

/* Resolves once no catch-up runs: a player's action (a move, a hint) that comes in
   while the page reads the game again (the feed was ahead, e.g. its own hint_used)
   waits for it instead of being dropped. */
export async function untilCaughtUp() {
  for (let i = 0; i < 5 && running; i++) await caughtUp;
}

/* Called whenever the page may have become free: apply what is waiting; nothing
   waiting, a stage without a choice moves on (play/auto.js). */
export function kick() {
  if (!S.state || !S.game) return;
  if (S.state.over) {
    stop();
    pending.clear();
    return;
  }
  dropSeen();
  if (running || S.busy) return;
  if (due || ahead()) catchUp();
  else autoAdvance();
}

async function catchUp() {
  const game = S.game;
  let settle;
  caughtUp = new Promise((resolve) => { settle = resolve; });
  running = true;
  S.busy = true;
  try {
    for (let round = 0; round < 20 && (due || ahead()); round++) {
      due = false;
      const st = (await api("GET", gameUrl())).state;
      if (S.game !== game) return;
      const from = S.state.version;
      if (st.version <= from) {
        if (!ahead()) break;
        continue; // the feed is ahead of this read: read again
      }
      let events = [];
      for (let seq = from + 1; seq <= st.version && pending.has(seq); seq++) events.push(pending.get(seq));
      if (events.length < st.version - from) {
        events = (await api("GET", gameUrl(`/events?after=${from}`))).events;
        if (S.game !== game) return;
      }
      events = events.filter((ev) => ev.seq > from && ev.seq <= st.version);
      const applying = applyMoveResult(events, st, { remote: true });
      if (tabHidden() && S.anim) S.anim.skip(); // shown at once: the tab is hidden
      await applying;
      dropSeen();
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    flash(e.message, "error", e.code);
    // The server cannot be reached or is restarting: try again a little later.
    if (e.status === 0 || e.status >= 500) {
      setTimeout(() => {
        if (S.game === game) catchUpSoon();
      }, RETRY_MS);
    }
  } finally {
    running = false;
    S.busy = false;
    settle();
  }
  if (S.game === game) kick();
}
