/* Squares, the play page: an online game's invite, shown to its creator while the
   friend's seat is open: the link, its expiry and "Copy link"; a rematch this page
   made says first that the friend was asked on their own page (again.js). */

import { t } from "../common/i18n.js";
import { $ } from "../common/dom.js";
import { dropInvite } from "../common/store.js";
import { S, mySeat, online } from "./state.js";

export function fillInvite(st) {
  const waiting = online(st) && st.open_seat !== null && !st.over;
  if (online(st) && st.open_seat === null && S.game.invite) {
    S.game.invite = null;
    dropInvite(S.game.game_id);
  }
  const box = $("invite");
  box.hidden = !(waiting && S.game.token && mySeat(st) !== st.open_seat);
  if (box.hidden) return;
  const invite = S.game.invite;
  $("invite-link").hidden = !invite;
  $("invite-lost").hidden = Boolean(invite);
  fillRematchInvite(invite);
  if (!invite) return;
  if ($("invite-url").value !== invite.url) $("invite-url").value = invite.url;
  const expires = new Date(invite.expires_at);
  const when = Number.isNaN(expires.getTime()) ? invite.expires_at
    : expires.toLocaleString(document.documentElement.lang || [], { dateStyle: "medium", timeStyle: "short" }); // the page's language
  const expired = expires.getTime() <= Date.now();
  const line = $("invite-expiry");
  line.textContent = expired
    ? t("This link expired on {when}: start a new game to invite a friend.", { when })
    : t("The link works once, until {when}.", { when });
  line.classList.toggle("error", expired);
}

/* A rematch this page made: its friend was asked on their page of the last game
   (again.js polls there and offers "Accept the rematch"), so the link is a second
   way, not a step to take. */
function fillRematchInvite(invite) {
  const friend = invite && invite.rematch;
  const words = $("invite-rematch");
  words.hidden = !friend;
  $("invite-title").textContent = friend ? t("Rematch asked") : t("Invite a friend");
  $("invite-label").textContent = friend ? t("You can also send this link:") : t("Send your friend this link:");
  if (friend) {
    words.textContent = t("{name} has been asked on their page: the end of your last game now offers them “Accept the rematch”.", { name: friend });
  }
}

export async function copyInvite() {
  const field = $("invite-url");
  const note = $("invite-copied");
  field.focus();
  field.select();
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(field.value);
      done = true;
    }
  } catch (e) {
    done = false;
  }
  if (!done) {
    try {
      done = document.execCommand("copy");
    } catch (e) {
      done = false;
    }
  }
  note.textContent = done ? t("Link copied: send it to your friend.") : t("Copy the selected link (Ctrl+C), then send it to your friend.");
}
