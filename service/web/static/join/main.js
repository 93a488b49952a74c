/* Squares: the join page of an online game (/join/<game_id>#code=...). The friend
   gives a name; the code from the link's #fragment claims the open seat; the seat's
   token is kept as the play page keeps tokens (common/store.js), with its seat, and
   the game opens at /play/<game_id>. A page of its own: this one module. */

import { api, ApiError, gamePath } from "../common/api.js";
import { $ } from "../common/dom.js";
import { entryOf, loadPrefs, remember, savePrefs } from "../common/store.js";
import { sentence } from "../common/words.js";

const root = $("join-root");
const gameId = root.dataset.gameId;

/* What each refusal of the claim means to the friend; `watch`: offer the game read-only. */
const REFUSALS = {
  invite_invalid: { text: "Wrong code: this link's invite code does not open this game. Check that you opened the whole link your friend sent you, or ask them to send it again." },
  invite_claimed: { text: "This invite has already been used: someone has joined this game, and each link works once.", watch: true },
  invite_expired: { text: "This invite has expired. Ask your friend to start a new online game and send you its link." },
  not_online: { text: "This game is not an online game: there is no seat to join.", watch: true },
  invalid_name: { text: `Please give a name of 1 to ${$("join-name").maxLength} characters.` },
  game_not_found: { text: "There is no such game." },
};

function codeOf(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return (params.get("code") || "").trim();
}

function showError(code, message) {
  const known = REFUSALS[code];
  const box = $("join-error");
  $("join-error-text").textContent = known ? known.text : sentence(message);
  $("join-watch").hidden = !(known && known.watch);
  box.dataset.code = code;
  box.hidden = false;
}

function clearError() {
  $("join-error").hidden = true;
  delete $("join-error").dataset.code;
}

async function join(event) {
  event.preventDefault();
  clearError();
  const name = $("join-name").value.trim();
  if (!name) {
    showError("invalid_name", "");
    $("join-name").focus();
    return;
  }
  $("join-btn").disabled = true;
  try {
    const data = await api("POST", gamePath(gameId, "/claim"), { code: codeOf(window.location.hash), name });
    remember({ game_id: data.game_id, token: data.token, seat: data.seat, invite: null });
    savePrefs({ ...(loadPrefs() || {}), name });
    window.location.replace(`/play/${encodeURIComponent(data.game_id)}`);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    showError(e.code, e.message);
    if (e.code === "invalid_name") $("join-name").focus();
    $("join-btn").disabled = false;
  }
}

function show() {
  const mine = entryOf(gameId);
  const code = codeOf(window.location.hash);
  $("join-mine").hidden = !mine;
  $("join-nocode").hidden = Boolean(mine) || Boolean(code);
  $("join-form").hidden = Boolean(mine) || !code;
}

function init() {
  const prefs = loadPrefs();
  if (prefs && typeof prefs.name === "string") $("join-name").value = prefs.name;
  $("join-form").addEventListener("submit", join);
  window.addEventListener("hashchange", () => {
    clearError();
    show();
  });
  show();
  if (!$("join-form").hidden) $("join-name").focus();
}

init();
