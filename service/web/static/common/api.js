/* Squares: the JSON API as the pages call it; the one place they call `fetch`. Errors
   come back as `ApiError` with the server's `{"error": {code, message, details}}`; a
   request that gets no answer is an ApiError with status 0 ("network"). */

import { t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

/* One request, whatever its answer: {status, ok, data} (data: null when the body is
   not JSON). `options`: body, token (sent as a Bearer token), cache (default
   "no-store"), signal (an AbortSignal). */
export async function request(method, path, options = {}) {
  const { body, token, cache = "no-store", signal } = options;
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, cache, signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", t("The server cannot be reached."), {});
  }
  let data = null;
  try {
    data = await resp.json();
  } catch (e) {
    data = null;
  }
  return { status: resp.status, ok: resp.ok, data };
}

/* The answer's JSON; an error answer throws ApiError. */
export async function api(method, path, body, token, options = {}) {
  const { status, ok, data } = await request(method, path, { ...options, body, token });
  if (!ok) {
    const err = (data && data.error) || {};
    throw new ApiError(status, err.code || "http_" + status,
      err.message || t("The request failed (HTTP {status}).", { status }), err.details);
  }
  if (data === null && status !== 204) {
    // A success whose body was cut short on the way: no answer the page can use.
    throw new ApiError(0, "network", t("The server's answer could not be read."), {});
  }
  return data;
}

/* GET a JSON document (`options` as for `request`: cache, signal). */
export const getJson = (path, options) => api("GET", path, undefined, undefined, options);

export const gamePath = (gameId, suffix) => `/api/games/${encodeURIComponent(gameId)}${suffix || ""}`;
