/* Squares: #message, the line under a game page's board that says what went wrong
   (or, on the play page, what is going on). */

import { $ } from "./dom.js";
import { sentence } from "./words.js";

/* Show `message`; `kind` is its class ("error", "info"; "" for none), `code` (when
   given) its data-code, for a test to read. An error starts with a capital. */
export function setMessage(message, kind, code) {
  const box = $("message");
  box.textContent = kind === "error" ? sentence(message) : message;
  box.className = kind ? "message " + kind : "message";
  if (code !== undefined) box.dataset.code = code;
}

export const showError = (message) => setMessage(message, "error");
export const clearError = () => setMessage("", "");
