/* Squares: following a game's live feed (Server-Sent Events from
   /api/games/<id>/live), shared by the play page (play/live.js) and the watch page
   (watch/main.js); the one place a page opens an EventSource, and the one list of
   the event types a stream sends.

   - One stream per tab: `follow` closes the stream the tab had before (whichever
     page module opened it), so a page holds at most one EventSource, across new
     games, reconnects and retries.
   - A hidden tab holds no stream: it closes when the tab is hidden and reopens when
     it is shown, with `?after=` the last event the page applied (a fresh EventSource
     cannot send Last-Event-ID), so the events made meanwhile arrive once each. The
     one exception is the page's to ask for (`whileHidden`): a player's own online
     game keeps its stream, so that "Your turn" reaches the hidden tab.
   - A dropped stream is resumed by the browser itself (Last-Event-ID); a refused one
     (429, 503, ...) is opened again after RETRY_MS, from the last event applied.
   - The page learns what the stream is doing through `onStatus`: "live" (open, or a
     message came), "reconnecting" (an error: the browser reconnects, or a retry is
     waiting), "paused" (the tab is hidden), "ended" (the stream ended after game
     over) and "closed" (the page stopped following). */

import { tabHidden } from "./dom.js";
import { t } from "./i18n.js";

export const EVENT_TYPES = ["game_created", "line_placed", "stage_advanced", "piece_inserted",
  "move_explained", "seat_claimed", "hint_used", "game_over", "seed_revealed",
  "high_scores_entered", "game_abandoned", "game_resigned", "game_aborted", "message"];
export const RECONNECTING = t("Reconnecting to the live game…");
export const RETRY_MS = 5000; // after a refused stream (too many open, server busy)

let current = null; // the tab's one follower
// The live streams' origin when they have one of their own (`squares serve` run bare:
// its streams port), else "" (the page's own, behind the proxy).
const LIVE_ORIGIN = document.querySelector('meta[name="squares-live"]')?.content || "";

function parse(data) {
  try {
    return JSON.parse(data);
  } catch (e) {
    return undefined;
  }
}

class Follower {
  /* opts: url (the /live path, without a query), query (more parameters, e.g.
     "&viewers=1"), lastSeq() (the last event applied), onEvent(ev) (an event with a
     numeric seq; the page drops those it has), extra ({type: fn(data)}: messages
     without a seq, e.g. viewers), ended() (true: the stream's end is the game's
     end, not to be resumed), onGap() (the stream dropped: read what was missed),
     onStatus(status), whileHidden() (true: keep the stream while the tab is hidden;
     asked whenever the tab is hidden, so the answer may change). */
  constructor(opts) {
    this.o = opts;
    this.es = null;
    this.timer = null;
    this.status = null;
    this.finished = false; // stopped following (closed or ended)
    this.onVisibility = () => this.visibility();
    document.addEventListener("visibilitychange", this.onVisibility);
  }

  /* The tab is hidden and the page lets its stream go. */
  asleep() {
    return tabHidden() && !(this.o.whileHidden && this.o.whileHidden());
  }

  start() {
    if (this.asleep()) this.set("paused");
    else this.open();
  }

  set(status) {
    if (status === this.status) return;
    this.status = status;
    if (this.o.onStatus) this.o.onStatus(status);
  }

  open() {
    this.drop();
    const es = new EventSource(`${LIVE_ORIGIN}${this.o.url}?after=${this.o.lastSeq()}${this.o.query || ""}`);
    this.es = es;
    const mine = (fn) => (message) => {
      if (es === this.es) fn(message);
    };
    const onEvent = mine((message) => {
      this.set("live");
      const ev = parse(message.data);
      if (ev && typeof ev.seq === "number") this.o.onEvent(ev);
    });
    for (const type of EVENT_TYPES) es.addEventListener(type, onEvent);
    for (const [type, fn] of Object.entries(this.o.extra || {})) {
      es.addEventListener(type, mine((message) => {
        this.set("live");
        const data = parse(message.data);
        if (data !== undefined) fn(data);
      }));
    }
    es.addEventListener("open", mine(() => this.set("live")));
    es.addEventListener("error", mine(() => this.error()));
  }

  error() {
    if (this.o.ended()) {
      // The server ends the stream after game over: no reconnect, no notice.
      this.drop();
      this.finished = true;
      this.set("ended");
    } else if (this.es.readyState === EventSource.CLOSED) {
      // Refused (too many streams, server busy, restarting): try again later.
      this.drop();
      this.set("reconnecting");
      this.timer = setTimeout(() => {
        this.timer = null;
        if (!this.finished && !this.asleep()) this.open();
      }, RETRY_MS);
    } else {
      // Dropped (a network error, a server restart's `retry:`): the browser
      // reconnects by itself with Last-Event-ID.
      this.set("reconnecting");
    }
    if (this.o.onGap) this.o.onGap();
  }

  visibility() {
    if (this.finished) return;
    if (this.asleep()) {
      this.drop();
      this.set("paused");
    } else if (!this.es && !this.timer) {
      this.open();
    }
  }

  /* Close the stream and forget a pending retry (the follower may open again). */
  drop() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.es) {
      this.es.close();
      this.es = null;
    }
  }

  close() {
    this.drop();
    this.finished = true;
    document.removeEventListener("visibilitychange", this.onVisibility);
    this.set("closed");
  }
}

/* Follow a game (see Follower for `opts`), closing the tab's previous stream. */
export function follow(opts) {
  unfollow();
  if (typeof EventSource === "undefined") return null;
  current = new Follower(opts);
  current.start();
  return current;
}

/* Stop following: the tab holds no stream afterwards. */
export function unfollow() {
  const was = current;
  current = null;
  if (was) was.close();
}
