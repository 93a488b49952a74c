/* Squares, the play page: "Your turn" for a player whose tab is hidden, in an online
   game. The friend's move arrives over the live feed (play/live.js keeps it open for
   a player's own online game while the tab is hidden) and is drawn by `render`,
   which calls `noticeTurn`. When the turn becomes this page's seat's while the tab is
   hidden, the tab's title says "● Your turn — Squares" (what shows in the tab strip
   and the window list) until the tab is shown again. And if the player asked for it
   with "Notify me when it's my turn" — the browser's permission is asked on that
   click, never on page load — a browser notification says so too: only while the
   tab is hidden, one per turn, and a click on it brings the tab forward. Where the
   browser has no notifications or they are blocked, the button says so and does
   nothing. */

import { t } from "../common/i18n.js";
import { $, tabHidden } from "../common/dom.js";
import { seatName } from "../common/panels.js";
import { S, canPlay, mySeat, online } from "./state.js";

export const TURN_TITLE = t("● Your turn — Squares");
const ASK = t("Notify me when it's my turn");
const NONE = t("Notifications are not available in this browser");
const BLOCKED = t("Notifications are blocked for this site");

let ready = false;
let wanted = false; // the player turned notifications on (and the browser allows them)
let title = document.title; // the page's own title, given back when the tab is shown
let current = null; // the turn of this page's seat shown now (turnKey), or null
let seen = null; // the latest such turn the player knows of: seen, or told of
let told = null; // the turn the hidden tab's title (and notification) announce
let shown = null; // the notification on screen, if any

const supported = () => typeof window.Notification === "function";

/* A player's own online game, not over: the games this module speaks for. */
const ownOnline = (st) => Boolean(S.game && S.game.token) && online(st) && !st.over;

/* The turn as a key (game, round, seat), when it is this page's seat's to play. */
const turnKey = (st) => (ownOnline(st) && canPlay(st) ? `${S.game.game_id}:${st.round}:${st.turn}` : null);

/* The button as it stands: a toggle (aria-pressed), or why it cannot be one. */
function showButton() {
  const button = $("notify-btn");
  const blocked = !supported() || window.Notification.permission === "denied";
  if (blocked) wanted = false;
  button.disabled = blocked;
  button.textContent = !supported() ? NONE : blocked ? BLOCKED : ASK;
  button.setAttribute("aria-pressed", wanted ? "true" : "false");
}

const say = (words) => {
  $("notify-note").textContent = words;
};

/* The click: ask the browser (the first time), or turn notifications off again. */
async function toggle() {
  if (!supported()) return showButton();
  if (wanted) {
    wanted = false;
    say(t("No notifications."));
    return showButton();
  }
  let permission = window.Notification.permission;
  if (permission === "default") {
    try {
      // Older browsers answer through a callback and return nothing: read it again.
      permission = (await window.Notification.requestPermission()) || window.Notification.permission;
    } catch (e) {
      permission = "denied";
    }
  }
  wanted = permission === "granted";
  showButton();
  if (wanted) say(t("You get a notification when it is your turn while this tab is hidden."));
  else if (permission === "denied") say(t("The browser blocks notifications for this site."));
  else say(t("Notifications were not allowed."));
}

function close() {
  if (shown) shown.close();
  shown = null;
}

function notify(st) {
  if (!wanted || !supported() || window.Notification.permission !== "granted") return;
  close();
  const friend = seatName(st, 3 - mySeat(st));
  try {
    shown = new window.Notification(TURN_TITLE, {
      body: friend ? t("{name} has moved: your turn (round {round}).", { name: friend, round: st.round })
        : t("Your friend has moved: your turn (round {round}).", { round: st.round }),
      tag: `squares-turn-${S.game.game_id}`, // one per game, a newer one replaces it
    });
  } catch (e) {
    shown = null; // e.g. a phone's browser, where only a service worker shows them
    return;
  }
  shown.addEventListener("click", () => {
    window.focus();
    close();
  });
}

/* The tab shown again: its own title back, the notification gone (the board says it). */
function onVisibility() {
  if (tabHidden()) return;
  if (document.title === TURN_TITLE) document.title = title;
  seen = current;
  told = null;
  close();
}

function init() {
  if (ready) return;
  ready = true;
  $("notify-btn").addEventListener("click", toggle);
  document.addEventListener("visibilitychange", onVisibility);
}

/* After `render` drew the state `st` (and set the page's title): the button shown
   for a player's own online game, and the turn announced if it became this seat's
   while the tab is hidden. */
export function noticeTurn(st) {
  init();
  title = document.title;
  $("turn-notice").hidden = !ownOnline(st);
  showButton();
  current = turnKey(st);
  if (current !== told) close();
  if (!tabHidden()) {
    seen = current;
    return;
  }
  if (current && current !== seen) {
    seen = current;
    told = current;
    notify(st);
  }
  if (current && current === told) document.title = TURN_TITLE;
}
