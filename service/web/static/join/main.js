/* Squares: the join page of an online game (/join/<game_id>#code=...). Up front it
   says whether the invite can still be used: a used or expired one from the page's
   data-status (the server's), a wrong code by asking POST .../invite-check; only an
   open invite shows the form. The friend gives a name; the code from the link's
   #fragment claims the open seat; the seat's token is kept as the play page keeps
   tokens (common/store.js), with its seat, and the game opens at /play/<game_id>. A
   page of its own: this one module. */

import { t } from "../common/i18n.js";
import { api, ApiError, gamePath } from "../common/api.js";
import { $ } from "../common/dom.js";
import { entryOf, loadPrefs, remember, savePrefs } from "../common/store.js";
import { sentence } from "../common/words.js";

const root = $("join-root");
const gameId = root.dataset.gameId;

/* What each refusal of the claim means to the friend; `watch`: offer the game read-only. */
const REFUSALS = {
  invite_invalid: { text: t("Wrong code: this link's invite code does not open this game. Check that you opened the whole link your friend sent you, or ask them to send it again."), watch: true },
  invite_claimed: { text: t("This invite has already been used: someone has joined this game, and each link works once."), watch: true },
  invite_expired: { text: t("This invite has expired. Ask your friend to start a new online game and send you its link."), watch: true },
  not_online: { text: t("This game is not an online game: there is no seat to join."), watch: true },
  invalid_name: { text: t("Please give a name of 1 to {max} characters.", { max: $("join-name").maxLength }) },
  game_not_found: { text: t("There is no such game.") },
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

/* What the page shows: this browser's own seat, a link without a code, a refusal
   known up front, or (the invite open, its code checked) the form. */
async function show() {
  const mine = entryOf(gameId);
  const code = codeOf(window.location.hash);
  let status = root.dataset.status; // the server's: open, invite_claimed, invite_expired
  $("join-mine").hidden = !mine;
  $("join-form").hidden = true;
  $("join-nocode").hidden = true;
  if (!mine && code && status === "open") {
    try {
      status = (await api("POST", gamePath(gameId, "/invite-check"), { code })).status;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      status = e.code;
    }
    if (codeOf(window.location.hash) !== code) return; // the link changed meanwhile
  }
  $("join-checking").hidden = true;
  if (mine) return;
  if (status !== "open") showError(status, status);
  else if (!code) $("join-nocode").hidden = false;
  else {
    $("join-form").hidden = false;
    $("join-name").focus();
  }
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
}

init();
