/* Squares: the play page (`/` and `/play/<game_id>`). Talks to the JSON API only;
   the rules live on the server. This module starts and resumes games; the others in
   play/: state.js (the page's state), panel.js (drawing a state), scores.js (the
   scores and the game-over box), anim.js (applying a move's events), input.js
   (actions, keys, clicks), live.js (the live feed), zoom.js (small screens), resign.js
   (resigning and aborting, asked first in the page), auto.js (stages without a choice
   move on by themselves), invite.js (an online game's invite). From
   common/: the board, the panels, the API, the feed, localStorage (store.js). */

import { t } from "../common/i18n.js";
import { api, ApiError, gamePath } from "../common/api.js";
import { Board } from "../common/board.js";
import { $, text } from "../common/dom.js";
import { plansOf, shownName } from "../common/panels.js";
import { entryOf, finished, forgetGame, loadLatest, loadPrefs, remember, rememberTable, savePrefs, tokens } from "../common/store.js";
import { sentence } from "../common/words.js";
import { initAgain, stopAgain } from "./again.js";
import { applyMoveResult } from "./anim.js";
import { initAuto, resetAuto } from "./auto.js";
import { act, computerToMove, initInput } from "./input.js";
import { catchUpSoon, follow, kick, stop, untilCaughtUp } from "./live.js";
import { copyInvite } from "./invite.js";
import { clearMessage, flash, render } from "./panel.js";
import { initResign } from "./resign.js";
import { S, recordSeqs, trackTurn } from "./state.js";
import { zoom } from "./zoom.js";

const MODES = ["vs_computer", "two_players", "online"];

// -- the start form --------------------------------------------------------------------
function restorePrefs() {
  const p = loadPrefs();
  if (!p) return;
  if (typeof p.name === "string") $("player-name").value = p.name;
  if (typeof p.second_name === "string") $("second-name").value = p.second_name;
  const pick = (select, value) => {
    if ([...select.options].some((o) => o.value === value)) select.value = value;
  };
  pick($("difficulty"), p.difficulty);
  pick($("field-size"), p.size);
  const mode = document.querySelector(`input[name="mode"][value="${MODES.includes(p.mode) ? p.mode : "vs_computer"}"]`);
  if (mode) mode.checked = true;
}

function modeValue() {
  const checked = document.querySelector('input[name="mode"]:checked');
  return checked ? checked.value : "vs_computer";
}

function syncModeFields() {
  const mode = modeValue();
  $("second-name-label").hidden = mode !== "two_players";
  $("second-name").required = mode === "two_players";
  $("difficulty-label").hidden = mode !== "vs_computer";
  $("online-note").hidden = mode !== "online";
  $("hints-label").hidden = mode !== "online";
  const rated = $("rated-label"); // shown to a signed-in player only
  if (rated) rated.hidden = mode !== "online";
  $("start-btn").textContent = mode === "online" ? t("Start and invite") : t("Start game");
}

async function startGame(event) {
  event.preventDefault();
  const errorBox = $("start-error");
  errorBox.hidden = true;
  const body = {
    player_name: $("player-name").value,
    mode: modeValue(),
    difficulty: $("difficulty").value,
  };
  if (body.mode === "two_players") body.second_name = $("second-name").value;
  // Hints: always on against the computer and on one screen; an online game's creator chooses.
  if (body.mode === "online") body.hints = $("allow-hints").checked;
  // Rated: both players signed in, each under their own name (the server says so if not).
  if (body.mode === "online" && $("rated")?.checked) body.rated = true;
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number.parseInt(seed, 10);
  const [height, width] = $("field-size").value.split("x").map(Number);
  body.height = height;
  body.width = width;
  $("start-btn").disabled = true;
  try {
    await createGame(body);
    savePrefs({
      name: body.player_name, mode: body.mode, difficulty: body.difficulty,
      second_name: body.second_name || "", size: $("field-size").value,
    });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    errorBox.textContent = sentence(e.message);
    errorBox.hidden = false;
  } finally {
    $("start-btn").disabled = false;
  }
}

/* POST /api/games with `body`, then play the new game at its own address (the start
   form, and "Play again" with the same settings). */
async function createGame(body) {
  const data = await api("POST", "/api/games", body);
  const g = { game_id: data.game_id, token: data.token };
  if (body.mode === "online") {
    g.seat = 1;
    g.invite = data.invite ? { url: data.invite.url, expires_at: data.invite.expires_at } : null;
  }
  openNew(g, data.state, data.events);
}

/* A game this page just made or joined (`g`: its id, token, seat, invite): kept, then
   entered at its own address. */
function openNew(g, st, events) {
  remember(g);
  history.pushState({ game_id: g.game_id }, "", `/play/${encodeURIComponent(g.game_id)}`);
  enterGame(g, st, {}, events || []);
}

// -- resume ----------------------------------------------------------------------------
function describeGame(st) {
  const names = st.seats.map((s) => shownName(s) || t("(open seat)")).join(t(" vs "));
  const game = { names, round: st.round, stage: st.stage, height: st.height, width: st.width };
  return st.ranked === false ? t("{names} — round {round}, stage {stage}, {height} × {width}, practice", game)
    : t("{names} — round {round}, stage {stage}, {height} × {width}", game);
}

/* The unfinished games this browser can play, newest first: the latest one with
   a Resume button, the others as links to their /play/<id> page. */
async function offerResume() {
  $("resume").hidden = true;
  const map = tokens();
  const latest = loadLatest();
  const ids = Object.keys(map).sort((a, b) => map[b].at - map[a].at);
  if (latest) ids.splice(0, 0, ...ids.splice(ids.indexOf(latest.game_id), 1));
  const open = [];
  for (const id of ids.slice(0, 8)) {
    let data;
    try {
      data = await api("GET", gamePath(id));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) forgetGame(id);
      continue;
    }
    if (data.state.over) {
      finished(id);
      continue;
    }
    open.push({ id, state: data.state });
  }
  if (!open.length || !$("game").hidden) return;
  const first = open[0];
  $("resume-desc").textContent = describeGame(first.state);
  $("resume").hidden = false;
  $("resume-btn").onclick = () => openGame(first.id, first.state);
  $("forget-btn").onclick = () => {
    forgetGame(first.id);
    offerResume();
  };
  const list = $("resume-list");
  while (list.firstChild) list.removeChild(list.firstChild);
  for (const o of open.slice(1)) {
    const li = document.createElement("li");
    const a = text("a", describeGame(o.state));
    a.href = `/play/${encodeURIComponent(o.id)}`;
    li.appendChild(a);
    list.appendChild(li);
  }
  $("resume-more").hidden = open.length < 2;
}

/* Open a stored game: playable with this browser's token, else watched. */
async function openGame(gameId, knownState) {
  const entry = entryOf(gameId);
  const g = { game_id: gameId, token: entry ? entry.token : null };
  if (entry) {
    g.seat = entry.seat;
    g.invite = entry.invite || null;
    remember(g);
  }
  if (window.location.pathname !== `/play/${encodeURIComponent(gameId)}`) {
    history.pushState({ game_id: gameId }, "", `/play/${encodeURIComponent(gameId)}`);
  }
  let st = knownState;
  let events = [];
  try {
    if (!st) st = (await api("GET", gamePath(gameId))).state;
    events = (await api("GET", gamePath(gameId, "/events"))).events;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (!st) {
      showStart(false);
      const box = $("start-error");
      box.textContent = e.status === 404 ? t("There is no such game.") : sentence(e.message);
      box.hidden = false;
      return;
    }
  }
  events = events.filter((ev) => ev.seq <= st.version);
  enterGame(g, st, plansOf(events), events);
}

function showStart(push) {
  stop();
  stopAgain();
  resetAuto();
  if (S.anim) S.anim.skip();
  zoom(false);
  S.game = null;
  S.state = null;
  $("game").hidden = true;
  $("start").hidden = false;
  document.title = t("Squares — play");
  if (push && window.location.pathname !== "/") history.pushState({}, "", "/");
  offerResume();
  $("player-name").focus();
}

function enterGame(g, st, knownPlans, events) {
  stop();
  stopAgain();
  resetAuto();
  S.game = g;
  S.plans = knownPlans || {};
  // The turn so far and the previous one (or the one that ended the game), from its events.
  S.turnEvents = [];
  S.lastTurn = null;
  for (const ev of events || []) trackTurn(ev);
  recordSeqs((events || []).map((ev) => ev.seq), true);
  $("start").hidden = true;
  $("game").hidden = false;
  $("over").hidden = true;
  $("over-scores").hidden = true;
  $("replay-link").href = `/games/${encodeURIComponent(g.game_id)}`;
  $("over-replay").href = `/games/${encodeURIComponent(g.game_id)}?step=1`;
  $("over-highscores").href = `/highscores?game=${encodeURIComponent(g.game_id)}`;
  if (g.token) rememberTable(st); // the header's "High scores" opens this game's table
  zoom(false);
  S.board = new Board($("board"), st.height, st.width);
  S.cursor = null;
  S.shown = st.scores.slice();
  clearMessage();
  render(st);
  if (!g.token) {
    flash(t("You are watching this game: this browser does not hold its token, so it cannot play it."), "info", "watching");
  }
  $("board").focus({ preventScroll: true });
  follow();
  computerToMove(st);
  kick(); // a stage without a choice moves on (play/auto.js), the computer's turn done first
}

function route() {
  const root = $("play-root");
  const match = window.location.pathname.match(/^\/play\/([^/]+)$/);
  const id = match ? decodeURIComponent(match[1]) : root.dataset.gameId;
  if (id && window.location.pathname !== "/") openGame(id);
  else showStart(false);
}

function init() {
  restorePrefs();
  $("start-form").addEventListener("submit", startGame);
  for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", syncModeFields);
  syncModeFields();
  initInput();
  initAuto(act);
  $("copy-btn").addEventListener("click", copyInvite);
  $("invite-url").addEventListener("focus", (e) => e.currentTarget.select());
  window.addEventListener("popstate", route);
  $("new-btn").addEventListener("click", () => showStart(true));
  $("over-new-btn").addEventListener("click", () => showStart(true));
  initAgain({ create: createGame, open: async (g, st, events) => openNew(g, st, events) });
  initResign({ apply: applyMoveResult, untilCaughtUp, catchUpSoon, kick });
  route();
}

init();
