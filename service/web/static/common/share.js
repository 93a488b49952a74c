/* Squares: "Copy link" on the replay and watch pages (templates/_share.html). The
   address copied is the page's public one: its path comes from the template
   (url_for), its origin from `location`, which is the public origin (behind
   SQUARES_PUBLIC_URL the server refuses other hosts unless SQUARES_TRUSTED_HOSTS
   names them, so a page is served at its public address). The clipboard needs a secure context, which these
   pages are (https, or localhost); where the browser refuses it (permission denied,
   no Clipboard API), the address is shown in a read-only field, selected, for the
   visitor to copy by hand. */

import { $ } from "./dom.js";
import { t } from "./i18n.js";

const COPIED = t("Link copied");
const BY_HAND = t("Copy the selected address (Ctrl+C or ⌘C)");

/* The absolute address the button copies (its data-path on this page's origin). */
export const shareUrl = (button) => new URL(button.dataset.path, window.location.origin).href;

async function copy(url) {
  if (!navigator.clipboard || !window.isSecureContext) return false;
  try {
    await navigator.clipboard.writeText(url);
    return true;
  } catch (e) {
    return false; // refused (permission, no focus): the address is shown instead
  }
}

/* Wire the page's share button (none on the page: nothing to do). */
export function initShare() {
  const button = $("share-btn");
  if (!button) return;
  const field = $("share-url");
  const note = $("share-note");
  field.addEventListener("focus", () => field.select());
  button.addEventListener("click", async () => {
    const url = shareUrl(button);
    field.value = url;
    note.textContent = ""; // a second press says it again
    const done = await copy(url);
    field.hidden = done;
    if (!done) {
      field.focus();
      field.select();
    }
    note.textContent = done ? COPIED : BY_HAND;
    note.dataset.copied = done ? "true" : "false";
  });
}
