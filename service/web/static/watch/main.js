/* Squares: the spectator page (/watch/<id>). Read-only: the state comes from
   GET /api/games/{id}; the game's events arrive as Server-Sent Events from
   /api/games/{id}/live (opened, resumed and paused with the tab by
   common/follow.js; #live-state says when it reconnects). Each event is captioned once and the board
   is redrawn from a fresh state, at most one request in flight, so the rules live
   on the server only. The moves made before the page opened are read once from
   GET /api/games/{id}/events (the latest FEED_MAX) into their own list (#feed-past)
   under the live one (#feed); root's data-past says how many once they are shown.
   One module: the board, the panels, the captions, the feed and "Copy watch link"
   are common/'s. */

import { nt, t } from "../common/i18n.js";
import { gamePath, getJson } from "../common/api.js";
import { Board } from "../common/board.js";
import { describeEvent } from "../common/captions.js";
import { $, text } from "../common/dom.js";
import { RECONNECTING, follow as followFeed, unfollow } from "../common/follow.js";
import { clearError, showError } from "../common/message.js";
import { fillStatus, namesOf, overResult, seatName } from "../common/panels.js";
import { initShare } from "../common/share.js";
import { play } from "../common/sound.js";

const root = $("watch-root");
const gameId = root.dataset.gameId;
const base = gamePath(gameId);
const FEED_MAX = 200; // captions kept on the page (both lists)
const LIVE = t("Live: following the game as it is played.");

let board = null;
let state = null;
let names = {};
let lastSeq = 0; // the newest event captioned
let sawOver = false; // the game_over event was captioned
let fetching = false;
let again = false; // an event arrived while a request was in flight
const seqs = []; // the events captioned, in order (root's data-seqs)

function setLive(text, cls) {
  const box = $("live-state");
  box.textContent = text;
  box.className = "live-state" + (cls ? " " + cls : "");
}

function draw(st) {
  if (state && st.version < state.version) return; // an older answer: keep the newer one
  if (!board || board.height !== st.height || board.width !== st.width) {
    board = new Board($("board"), st.height, st.width);
  }
  state = st;
  names = namesOf(st);
  board.paint(st);
  // An online game's second seat gets its name when the friend joins.
  const who2 = root.querySelector(".replay-title .who-2");
  if (who2 && seatName(st, 2)) {
    who2.textContent = seatName(st, 2);
    who2.title = seatName(st, 2);
  }
  fillStatus($("status"), st);
  for (const node of [$("board"), root]) {
    node.dataset.version = String(st.version);
    node.dataset.stage = String(st.stage);
    node.dataset.over = st.over ? "true" : "false";
  }
  root.classList.toggle("is-over", st.over);
  if (st.over) {
    const result = overResult(st);
    $("over-title").textContent = result.title;
    $("over-result").textContent = result.line;
    $("replay-link").textContent = t("Replay this game");
    $("over").hidden = false;
    document.title = t("Squares — watching: game over");
    setLive(t("Game over."), "ended");
    // A state read can be ahead of the feed: close it only once every event has
    // been captioned (the server ends the stream after game over anyway).
    if (lastSeq >= st.version) stop();
  } else {
    document.title = t("Squares — watching: round {round}, {name}, stage {stage}",
      { round: st.round, name: seatName(st, st.turn), stage: st.stage });
  }
}

/* Re-read the state; while a request is in flight, one more follows it. */
async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      const answer = await getJson(base);
      draw(answer.state);
    } while (again);
    clearError();
  } catch (e) {
    showError(e.message);
  } finally {
    fetching = false;
  }
}

/* An event's line in a move list, numbered with its step (the replay's ?step=). */
function item(ev) {
  const li = text("li", describeEvent(ev, names), `ev ev-${ev.type}`);
  li.dataset.seq = String(ev.seq);
  li.value = ev.seq;
  return li;
}

/* At most FEED_MAX captions in all: the oldest go first, the earlier moves' first. */
function trim() {
  const feed = $("feed");
  const past = $("feed-past");
  while (feed.children.length + past.children.length > FEED_MAX) {
    (past.lastChild ? past : feed).lastChild.remove();
  }
}

function caption(ev) {
  const feed = $("feed");
  feed.insertBefore(item(ev), feed.firstChild);
  trim();
}

/* The moves made before the page opened (the events up to `upTo`, the latest
   FEED_MAX), once, newest first; the live list keeps what arrives meanwhile. */
async function loadPast(upTo) {
  const after = Math.max(0, upTo - FEED_MAX);
  let page;
  try {
    page = await getJson(`${base}/events?after=${after}&limit=${upTo - after}`);
  } catch (e) {
    showError(t("The earlier moves could not be loaded: {error}", { error: e.message }));
    return;
  }
  const list = document.createDocumentFragment();
  for (const ev of page.events.filter((e) => e.seq <= upTo).reverse()) list.appendChild(item(ev));
  $("feed-past").replaceChildren(list);
  trim();
  root.dataset.past = String($("feed-past").children.length);
}

function onEvent(ev) {
  if (ev.seq <= lastSeq) return;
  lastSeq = ev.seq;
  if (["game_over", "game_abandoned", "game_aborted"].includes(ev.type)) sawOver = true;
  if (ev.type === "seat_claimed") names[ev.data.seat] = ev.data.name;
  caption(ev);
  if (ev.type === "line_placed") play("other"); // a move, as it arrives (sound on)
  else if (ev.type === "game_over") play("over");
  seqs.push(ev.seq);
  root.dataset.seqs = seqs.join(" ");
  if (board && state && ev.seq > state.version) board.markStep(ev);
  refresh();
}

/* How many watch this game (`event: viewers` of a spectator's stream): the line
   stays empty (and takes no room) until the server first says. */
function onViewers(data) {
  const count = data && data.count;
  if (typeof count !== "number" || count < 0) return;
  const box = $("viewers");
  box.textContent = nt("{n} watching", "{n} watching", count);
  box.dataset.count = String(count);
}

function stop() {
  unfollow();
}

/* What the stream does, said in #live-state (once the game is over, it says so). */
function onStatus(status) {
  if (state && state.over) return;
  if (status === "live") setLive(LIVE, "live");
  else if (status === "reconnecting") setLive(RECONNECTING, "lost");
  else if (status === "paused") setLive(t("Paused while this tab is hidden."), "");
}

function follow() {
  const following = followFeed({
    url: `${base}/live`,
    query: "&viewers=1",
    lastSeq: () => lastSeq,
    onEvent,
    extra: { viewers: onViewers },
    ended: () => sawOver, // the stream ends after the game_over (game_abandoned) event
    onGap: refresh, // a dropped or refused stream: the state shows what was missed
    onStatus,
  });
  if (!following) {
    setLive(t("This browser cannot follow games live; reload the page to see the newest state."), "ended");
  }
}

async function start() {
  try {
    const answer = await getJson(base);
    draw(answer.state);
  } catch (e) {
    showError(e.message);
    setLive(t("Could not load the game."), "ended");
    return;
  }
  lastSeq = state.version;
  root.dataset.opened = String(state.version);
  root.dataset.seqs = "";
  if (!state.over) follow();
  loadPast(state.version);
}

initShare();
start();
