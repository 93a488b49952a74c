/* Squares: the JSON API as the pages call it (the play and join pages). Errors come
   back as `ApiError` with the server's `{"error": {code, message, details}}`. */

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  let resp;
  try {
    resp = await fetch(path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "network", "The server cannot be reached.", {});
  }
  let data = null;
  try {
    data = await resp.json();
  } catch (e) {
    data = null;
  }
  if (!resp.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(resp.status, err.code || "http_" + resp.status,
      err.message || `The request failed (HTTP ${resp.status}).`, err.details);
  }
  return data;
}

export const gamePath = (gameId, suffix) => `/api/games/${encodeURIComponent(gameId)}${suffix || ""}`;
