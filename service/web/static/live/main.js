/* Squares: the live games list (/live). The server renders the list; this script
   keeps it current without a reload by asking /live.json (the same rows, by the same
   query and the same rule for "active" as the page and GET /api/games?status=active)
   every `data-poll-ms` (5 s) while the tab is visible. One small request at a time,
   no stream per game (the per-client stream caps stay for the watch and play pages).

   - Rows are matched by game id: a row's changing cells (seat 2's name and the link
     to its player's page once the invite is claimed, the last move, the scores, the
     length) are updated in place, a
     new game gets a row (cloned from the page's <template>), a game that left the
     list (over, abandoned, past its time) loses its row, and the rows follow the
     server's order (the latest move first). Focus stays where it was.
   - A failed poll changes nothing on the page but a quiet note after two failures
     in a row; the next poll waits longer (up to a minute), and the first that
     answers clears the note.
   - A hidden tab does not poll (the request under way is dropped); shown again, the
     page asks at once.
   - #live-news (role=status) says what changed in the list (games that started or
     left), once per change: moves and scores are not announced.

   Its own folder: the live list's poller and live.css are this page's alone. */

import { nt, t } from "../common/i18n.js";
import { request } from "../common/api.js";
import { $, tabHidden } from "../common/dom.js";

const root = $("live-root");
const SOURCE = (root && root.dataset.source) || "/live.json";
const POLL_MS = Math.max(250, Number(root && root.dataset.pollMs) || 5000);
const MAX_WAIT_MS = 60000; // the longest wait after failed polls
const TIMEOUT_MS = 10000; // a poll that has no answer by then has failed
const NEWS_LISTED = 3; // games named in an announcement; more are counted

let timer = null;
let inFlight = null; // the AbortController of the poll under way
let failures = 0; // polls failed in a row

/* Set a node's text only when it differs (no needless mutations). */
function put(node, value) {
  const text = String(value);
  if (node && node.textContent !== text) {
    node.textContent = text;
    return true;
  }
  return false;
}

function valid(data) {
  return data && Array.isArray(data.games) && typeof data.caption === "string"
    && data.games.every((g) => g && typeof g.game_id === "string" && g.game_id);
}

function rowsById(tbody) {
  const rows = new Map();
  for (const tr of tbody.querySelectorAll(":scope > tr[data-game-id]")) rows.set(tr.dataset.gameId, tr);
  return rows;
}

const cell = (tr, cls) => tr.querySelector("." + cls);

function playersOf(tr) {
  return t("{name1} vs {name2}", { name1: cell(tr, "name-1").textContent, name2: cell(tr, "name-2").textContent });
}

/* A new row: the page's row template, filled once with what never changes. */
function newRow(g) {
  const tr = $("live-row").content.firstElementChild.cloneNode(true);
  tr.dataset.gameId = g.game_id;
  tr.dataset.ranked = g.ranked ? "true" : "false";
  put(cell(tr, "kind-name"), g.kind);
  if (g.ranked) {
    const tag = cell(tr, "tag-practice");
    if (tag) {
      const space = tag.previousSibling;
      if (space && space.nodeType === Node.TEXT_NODE) space.remove();
      tag.remove();
    }
  }
  put(cell(tr, "field-size"), g.field);
  cell(tr, "watch-link").href = g.watch_url;
  fill(tr, g);
  return tr;
}

/* A name's link to its player's page: an href when the seat is a human's (`url`
   from the server, built there), none for a computer or an open seat. */
function link(a, url) {
  if (!a) return;
  if (typeof url === "string" && url) {
    if (a.getAttribute("href") !== url) a.setAttribute("href", url);
  } else {
    a.removeAttribute("href");
  }
}

/* The cells a move, a claimed seat or the clock change; true if any did. */
function fill(tr, g) {
  let changed = false;
  changed = put(cell(tr, "name-1"), g.player_name) || changed;
  changed = put(cell(tr, "name-2"), g.second_seat) || changed;
  link(cell(tr, "name-1"), g.first_url);
  link(cell(tr, "name-2"), g.second_url);
  changed = put(cell(tr, "last-move"), g.last_move) || changed;
  changed = put(cell(tr, "score-1"), g.score1) || changed;
  changed = put(cell(tr, "score-2"), g.score2) || changed;
  changed = put(cell(tr, "length"), g.length) || changed;
  if (g.assisted && !cell(tr, "tag-assisted")) { // a hint was used meanwhile (RULES E1)
    const kind = cell(tr, "kind").firstElementChild;
    kind.append(" ", $("assisted-tag").content.firstElementChild.cloneNode(true));
    changed = true;
  }
  tr.dataset.version = String(g.version);
  return changed;
}

/* Mark a row as just changed (a short highlight in live.css). */
function flash(tr) {
  tr.classList.remove("changed");
  void tr.offsetWidth; // restart the animation
  tr.classList.add("changed");
}

function names(list) {
  const shown = list.slice(0, NEWS_LISTED).join("; ");
  return list.length > NEWS_LISTED ? t("{shown} and {n} more", { shown, n: list.length - NEWS_LISTED }) : shown;
}

function announce(added, removed) {
  const parts = [];
  if (added.length) parts.push(nt("New game: {games}.", "{n} new games: {games}.", added.length, { games: names(added) }));
  if (removed.length) {
    parts.push(nt("No longer being played: {games}.", "{n} games no longer being played: {games}.", removed.length,
      { games: names(removed) }));
  }
  if (parts.length) $("live-news").textContent = parts.join(" ");
}

function apply(data) {
  const tbody = $("live-table").tBodies[0];
  const focused = document.activeElement;
  const old = rowsById(tbody);
  const added = [];
  const wanted = [];
  for (const g of data.games) {
    let tr = old.get(g.game_id);
    if (tr) {
      old.delete(g.game_id);
      if (fill(tr, g)) flash(tr);
    } else {
      tr = newRow(g);
      added.push(playersOf(tr));
      flash(tr);
    }
    wanted.push(tr);
  }
  const removed = [...old.values()].map(playersOf);
  for (const tr of old.values()) tr.remove();
  // the server's order, moving only the rows out of place
  wanted.forEach((tr, i) => {
    if (tbody.children[i] !== tr) tbody.insertBefore(tr, tbody.children[i] || null);
  });
  if (focused && focused !== document.activeElement && focused.isConnected) {
    focused.focus({ preventScroll: true });
  }
  put($("live-caption"), data.caption);
  $("live-list").hidden = wanted.length === 0;
  $("live-empty").hidden = wanted.length > 0;
  announce(added, removed);
}

function showTrouble(on) {
  const note = $("live-note");
  if (on) put(note, t("The list could not be refreshed just now; trying again…"));
  note.hidden = !on;
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(poll, ms);
}

async function poll() {
  timer = null;
  if (tabHidden() || inFlight) return;
  const controller = new AbortController();
  inFlight = controller;
  const giveUp = setTimeout(() => controller.abort(), TIMEOUT_MS);
  let ok = false;
  try {
    // no-cache: the browser revalidates (If-None-Match); an unchanged list is a 304
    const answer = await request("GET", SOURCE, { cache: "no-cache", signal: controller.signal });
    const data = answer.ok ? answer.data : null;
    if (inFlight !== controller) return; // dropped meanwhile (the tab was hidden)
    if (valid(data)) {
      apply(data);
      ok = true;
    }
  } catch (e) {
    if (inFlight !== controller) return;
  } finally {
    clearTimeout(giveUp);
    if (inFlight === controller) inFlight = null;
  }
  failures = ok ? 0 : failures + 1;
  showTrouble(failures >= 2);
  if (!tabHidden()) schedule(Math.min(MAX_WAIT_MS, POLL_MS * 2 ** Math.min(failures, 6)));
}

function visibility() {
  if (tabHidden()) {
    clearTimeout(timer);
    timer = null;
    if (inFlight) {
      const controller = inFlight;
      inFlight = null;
      controller.abort();
    }
  } else if (!inFlight) {
    schedule(0);
  }
}

if (root && $("live-table") && $("live-row")) {
  document.addEventListener("visibilitychange", visibility);
  if (!tabHidden()) schedule(POLL_MS);
}
