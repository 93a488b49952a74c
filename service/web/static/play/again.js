/* Squares, the play page: what the end of a game offers (#over, at the top of the
   first screen): "Play again", a new game with the same settings (the mode, the names,
   the level, the field, a practice game's seed); online, "Rematch", the same friend
   again with the seats swapped (POST /api/games/{id}/rematch: the first to ask makes
   it and gets the friend's invite, the friend's page offers it, and asking too
   accepts it). While an online game's end is shown, the page asks every few seconds
   (while the tab is visible) whether the friend made a rematch. The page's own start
   and entry come from main.js (`initAgain`). */

import { t } from "../common/i18n.js";
import { api, ApiError, gamePath } from "../common/api.js";
import { $, tabHidden } from "../common/dom.js";
import { seatName } from "../common/panels.js";
import { entryOf } from "../common/store.js";
import { sentence } from "../common/words.js";
import { S, mySeat, online } from "./state.js";

const POLL_MS = 4000;

let hooks = null; // {create(body), open(g, state, events)} from main.js
let timer = 0;
let asked = null; // the game whose rematch the page is asking about

export function initAgain(given) {
  hooks = given;
  $("again-btn").addEventListener("click", playAgain);
  $("rematch-btn").addEventListener("click", rematch);
  document.addEventListener("visibilitychange", () => asked && !tabHidden() && poll());
}

/* The settings of game `st` as POST /api/games takes them. A practice game keeps its
   seed (the same random lines again), if it is an integer JavaScript holds exactly. */
export function settingsOf(st) {
  const body = { mode: st.mode, player_name: seatName(st, 1), height: st.height, width: st.width };
  if (st.mode === "vs_computer") body.difficulty = st.difficulty;
  if (st.mode === "two_players") body.second_name = seatName(st, 2);
  const seed = Number(st.seed);
  if (st.ranked === false && st.seed !== null && Number.isSafeInteger(seed) && seed >= 0) body.seed = seed;
  return body;
}

function note(text) {
  $("again-note").textContent = text;
}

/* The end of game `st` is shown: which of the buttons it offers. */
export function showAgain(st) {
  stopAgain();
  note("");
  const player = Boolean(S.game && S.game.token) && !st.abandoned;
  const friends = online(st) && st.open_seat === null;
  $("again-btn").hidden = !player || !["vs_computer", "two_players"].includes(st.mode);
  $("rematch-btn").hidden = !player || !friends;
  $("rematch-btn").textContent = t("Rematch");
  $("rematch-open").hidden = true;
  if (player && friends) {
    asked = st.game_id;
    poll();
  }
}

export function stopAgain() {
  asked = null;
  clearTimeout(timer);
  timer = 0;
}

async function playAgain() {
  const button = $("again-btn");
  button.disabled = true;
  note(t("Starting a new game…"));
  try {
    await hooks.create(settingsOf(S.state));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    note(sentence(e.message));
  } finally {
    button.disabled = false;
  }
}

/* Make the rematch, or accept the friend's: either way this page opens it. */
async function rematch() {
  const button = $("rematch-btn");
  const gameId = S.game.game_id;
  button.disabled = true;
  try {
    const data = await api("POST", gamePath(gameId, "/rematch"), undefined, S.game.token);
    // Made now: the friend is asked on their page of this game; the invite says so.
    const friend = seatName(S.state, 3 - mySeat(S.state));
    const invite = data.invite ? { url: data.invite.url, expires_at: data.invite.expires_at, rematch: friend } : null;
    stopAgain();
    await hooks.open({ game_id: data.game_id, token: data.token, seat: data.seat, invite }, data.state, data.events);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const made = e.code === "rematch_exists" && e.details && entryOf(e.details.game_id);
    if (made) window.location.assign(`/play/${encodeURIComponent(e.details.game_id)}`);
    else note(sentence(e.message));
  } finally {
    button.disabled = false;
  }
}

/* Has one of the players made a rematch? The friend's is offered; one this browser
   made (or that is under way) is linked. */
async function poll() {
  clearTimeout(timer);
  timer = 0;
  const gameId = asked;
  if (!gameId || tabHidden()) return;
  let found = null;
  try {
    found = (await api("GET", gamePath(gameId, "/rematch"))).rematch;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
  if (asked !== gameId) return;
  const st = S.state;
  const mine = mySeat(st);
  if (found && found.seat === 3 - mine && !found.claimed) {
    $("rematch-btn").textContent = t("Accept the rematch");
    note(found.seat === 1 ? t("{name} asks for a rematch, the seats swapped: you would play blue.", { name: found.by })
      : t("{name} asks for a rematch, the seats swapped: you would play red.", { name: found.by }));
  } else if (found) {
    const link = $("rematch-open");
    link.href = `/play/${encodeURIComponent(found.game_id)}`;
    link.hidden = false;
    $("rematch-btn").hidden = true;
    note(found.claimed ? t("The rematch is under way.")
      : t("Your rematch waits for {name}: send the invite link.", { name: seatName(st, 3 - mine) }));
    if (found.claimed || entryOf(found.game_id)) return; // nothing more will change here
  }
  timer = setTimeout(poll, POLL_MS);
}
