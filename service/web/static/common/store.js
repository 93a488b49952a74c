/* Squares: what this browser keeps (localStorage), shared by the play, join and
   games-list pages.

   squares.tokens  every game this browser can play: {game_id: {token, at, seat?, invite?}}
                   `seat`: the seat an online game's token moves (1 = the creator,
                   2 = the friend who claimed the invite); `invite`: {url, expires_at},
                   the creator's invite link, known only when the game was created,
                   kept while the seat is open.
   squares.game    the latest unfinished game: {game_id, token}
   squares.prefs   the start form as last used
   squares.table   the high score table of the game last played here: {mode, size},
                   size "HxW"; the header's "High scores" link opens it */

const GAME_KEY = "squares.game";
const TOKENS_KEY = "squares.tokens";
const PREFS_KEY = "squares.prefs";
const TABLE_KEY = "squares.table";
const TABLE_MODES = ["vs_computer", "two_players", "online"];

export function readJson(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v === null ? fallback : v;
  } catch (e) {
    return fallback;
  }
}

/* An invite as kept: its link and expiry; a rematch's also the friend's name
   (`rematch`), who was asked on their own page. */
function cleanInvite(v) {
  if (!v || typeof v.url !== "string" || typeof v.expires_at !== "string") return null;
  const kept = { url: v.url, expires_at: v.expires_at };
  if (typeof v.rematch === "string") kept.rematch = v.rematch;
  return kept;
}

export function loadLatest() {
  const saved = readJson(GAME_KEY, null);
  return saved && typeof saved.game_id === "string" && typeof saved.token === "string" ? saved : null;
}

export function tokens() {
  const map = readJson(TOKENS_KEY, {});
  const clean = {};
  if (map && typeof map === "object") {
    for (const [id, v] of Object.entries(map)) {
      if (!v || typeof v.token !== "string") continue;
      const entry = { token: v.token, at: Number(v.at) || 0 };
      if (v.seat === 1 || v.seat === 2) entry.seat = v.seat;
      const invite = cleanInvite(v.invite);
      if (invite) entry.invite = invite;
      clean[id] = entry;
    }
  }
  const latest = loadLatest(); // kept by earlier versions of the play page: never lose it
  if (latest && !clean[latest.game_id]) clean[latest.game_id] = { token: latest.token, at: Date.now() };
  return clean;
}

/* {token, seat?, invite?} of a game, or null. */
export function entryOf(gameId) {
  return tokens()[gameId] || null;
}

function save(map) {
  localStorage.setItem(TOKENS_KEY, JSON.stringify(map));
}

/* Keep `g` ({game_id, token, seat?, invite?}) as playable and as the latest game;
   a seat or invite not given keeps the one stored. */
export function remember(g) {
  const map = tokens();
  const old = map[g.game_id] && map[g.game_id].token === g.token ? map[g.game_id] : {};
  const entry = { token: g.token, at: Date.now() };
  const seat = g.seat !== undefined ? g.seat : old.seat;
  if (seat === 1 || seat === 2) entry.seat = seat;
  const invite = cleanInvite(g.invite !== undefined ? g.invite : old.invite);
  if (invite) entry.invite = invite;
  map[g.game_id] = entry;
  save(map);
  localStorage.setItem(GAME_KEY, JSON.stringify({ game_id: g.game_id, token: g.token }));
}

/* The friend has joined: the invite link is of no more use. */
export function dropInvite(gameId) {
  const map = tokens();
  if (!map[gameId] || !map[gameId].invite) return;
  delete map[gameId].invite;
  save(map);
}

/* A finished game leaves the "unfinished" pointer; its token stays (harmless). */
export function finished(gameId) {
  const latest = loadLatest();
  if (latest && latest.game_id === gameId) localStorage.removeItem(GAME_KEY);
}

export function forgetGame(gameId) {
  finished(gameId);
  const map = tokens();
  delete map[gameId];
  save(map);
}

export function savePrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
}

export function loadPrefs() {
  const p = readJson(PREFS_KEY, null);
  return p && typeof p === "object" ? p : null;
}

/* The game `state` (a state view) is the one played last: its table is the one the
   high scores open on. Storage refused (private mode): the default table. */
export function rememberTable(state) {
  try {
    localStorage.setItem(TABLE_KEY, JSON.stringify({ mode: state.mode, size: `${state.height}x${state.width}` }));
  } catch (e) {
    return; // nothing kept: the link keeps the default table
  }
  document.dispatchEvent(new Event("squares:table")); // the header's link follows
}

/* {mode, size} of the table last played, or null. */
export function lastTable() {
  const t = readJson(TABLE_KEY, null);
  return t && TABLE_MODES.includes(t.mode) && typeof t.size === "string" && /^\d{1,3}x\d{1,3}$/.test(t.size)
    ? { mode: t.mode, size: t.size } : null;
}
