/* Squares: the account page (/account). Each passkey step asks /api/account for its
   options, lets the browser create or use a passkey (navigator.credentials), and
   sends the answer back; the server sets or clears the session cookie, and the page
   is loaded again to show the new state. The recovery codes of a new claim are shown
   once, before that reload, until the player says they saved them. */

import { api, ApiError } from "../common/api.js";
import { $, text } from "../common/dom.js";
import { t } from "../common/i18n.js";

const status = $("account-status");

function say(message, isError) {
  status.textContent = message;
  status.classList.toggle("error", Boolean(isError));
}

/* What went wrong, in words: the server's message, or the browser's refusal. */
function failure(err) {
  if (err instanceof ApiError) return err.message;
  if (err && err.name === "NotAllowedError") return t("No passkey was used (cancelled, or the time ran out).");
  if (err && err.name === "InvalidStateError") return t("This device already holds a passkey of yours.");
  if (err && err.name === "SecurityError") return t("This browser refuses passkeys for this address: open the page at localhost or the site's own address.");
  return t("Passkeys do not work in this browser.");
}

/* base64url <-> ArrayBuffer, for browsers without WebAuthn's JSON helpers. */
function fromB64(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
}
function toB64(buf) {
  let s = "";
  for (const byte of new Uint8Array(buf)) s += String.fromCharCode(byte);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function creationOptions(json) {
  if (window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON) {
    return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: fromB64(json.challenge),
    user: { ...json.user, id: fromB64(json.user.id) },
    excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function requestOptions(json) {
  if (window.PublicKeyCredential && PublicKeyCredential.parseRequestOptionsFromJSON) {
    return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  }
  return {
    ...json,
    challenge: fromB64(json.challenge),
    allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: fromB64(c.id) })),
  };
}

function credentialJson(cred) {
  if (typeof cred.toJSON === "function") return cred.toJSON();
  const r = cred.response;
  const response = { clientDataJSON: toB64(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64(r.authenticatorData);
    response.signature = toB64(r.signature);
    if (r.userHandle) response.userHandle = toB64(r.userHandle);
  }
  return { id: cred.id, rawId: toB64(cred.rawId), type: cred.type, response,
    clientExtensionResults: cred.getClientExtensionResults(),
    authenticatorAttachment: cred.authenticatorAttachment || undefined };
}

/* A passkey made for `started` (a step's options), sent to `path`: its answer. */
async function create(started, path, extra) {
  const cred = await navigator.credentials.create({ publicKey: creationOptions(started.public_key) });
  return api("POST", path, { ceremony: started.ceremony, credential: credentialJson(cred), ...extra });
}

/* Run one step with the page's buttons held, saying what failed. */
async function step(button, busy, work) {
  const buttons = document.querySelectorAll("#account button");
  buttons.forEach((b) => { b.dataset.wasDisabled = b.disabled ? "1" : ""; b.disabled = true; });
  say(busy, false);
  try {
    await work();
  } catch (err) {
    say(failure(err), true);
  } finally {
    buttons.forEach((b) => { b.disabled = b.dataset.wasDisabled === "1"; });
  }
}

const reload = () => window.location.reload();

/* ---- a guest ---- */

function showCodes(codes) {
  $("guest").hidden = true;
  const list = $("code-list");
  list.replaceChildren(...codes.map((code) => text("li", code)));
  $("codes").hidden = false;
  say(t("Your name is yours: you are signed in."), false);
  $("codes-saved").addEventListener("change", (e) => { $("codes-done").disabled = !e.target.checked; });
  $("codes-done").addEventListener("click", reload);
  $("codes-saved").focus();
}

function guest() {
  $("sign-in").addEventListener("click", (e) => step(e.target, t("Waiting for your passkey…"), async () => {
    const started = await api("POST", "/api/account/sign-in/options", {});
    const cred = await navigator.credentials.get({ publicKey: requestOptions(started.public_key) });
    await api("POST", "/api/account/sign-in", { ceremony: started.ceremony, credential: credentialJson(cred) });
    reload();
  }));

  $("claim-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const name = $("claim-name").value;
    step(e.submitter, t("Creating your passkey…"), async () => {
      const started = await api("POST", "/api/account/claim/options", { name });
      const claimed = await create(started, "/api/account/claim");
      showCodes(claimed.recovery_codes);
    });
  });

  $("recover-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { name: $("recover-name").value, code: $("recover-code").value };
    step(e.submitter, t("Creating your new passkey…"), async () => {
      const started = await api("POST", "/api/account/recovery", body);
      await create(started, "/api/account/passkeys");
      reload();
    });
  });
}

/* ---- a signed-in player ---- */

function signedIn() {
  $("add-passkey").addEventListener("click", (e) => step(e.target, t("Creating your passkey…"), async () => {
    const started = await api("POST", "/api/account/passkeys/options", {});
    await create(started, "/api/account/passkeys");
    reload();
  }));

  for (const button of document.querySelectorAll(".passkey-remove")) {
    button.addEventListener("click", () => step(button, t("Removing the passkey…"), async () => {
      await api("DELETE", "/api/account/passkeys/" + encodeURIComponent(button.dataset.id));
      reload();
    }));
  }

  $("sign-out").addEventListener("click", (e) => step(e.target, t("Signing out…"), async () => {
    await api("POST", "/api/account/sign-out");
    reload();
  }));
  $("sign-out-everywhere").addEventListener("click", (e) => step(e.target, t("Signing out…"), async () => {
    await api("POST", "/api/account/sign-out-everywhere");
    reload();
  }));

  $("forget-confirm").addEventListener("change", (e) => { $("forget-me").disabled = !e.target.checked; });
  $("forget-me").addEventListener("click", (e) => step(e.target, t("Forgetting you…"), async () => {
    await api("POST", "/api/account/forget");
    reload();
  }));
}

if ($("account").dataset.signedIn === "true") signedIn(); else guest();
$("account").dataset.ready = "true"; /* its buttons answer from now on */
