/* Squares: the play page (`/` and `/play/<game_id>`). Talks to the JSON API only;
   the rules live on the server. */
"use strict";

(() => {
  const B = SquaresBoard;
  const pt = B.pt;
  const GAME_KEY = "squares.game"; // the latest unfinished game: {game_id, token}
  const TOKENS_KEY = "squares.tokens"; // every game this browser can play: {id: {token, at}}
  const PREFS_KEY = "squares.prefs"; // the start form as last used
  const STEP_MS = 300; // pace of an animated turn (the computer's, and the random pieces)
  const MIN_TAP_SCALE = 0.85; // px per board unit for 24 px tap targets (slots 28.3 units apart)
  const $ = (id) => document.getElementById(id);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  class ApiError extends Error {
    constructor(status, code, message, details) {
      super(message);
      this.status = status;
      this.code = code;
      this.details = details || {};
    }
  }

  async function api(method, path, body, token) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = "Bearer " + token;
    let resp;
    try {
      resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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

  // -- the page's state ---------------------------------------------------------
  let game = null; // {game_id, token}; token null: watching only
  let state = null; // the last state object from the server
  let board = null;
  let cursor = null; // {x, y, wantX}
  let busy = false; // a request or an animation is running
  let anim = null;
  let plans = {}; // the computer's explanations of its latest turn (RULES A2)
  let shown = [0, 0]; // the scores on screen (they count up or down to the real ones)
  let turnEvents = []; // the events of the turn being played
  let lastTurn = null; // {seat, events} of the previous turn, for its one-line summary
  let zoomed = false;
  let lastPointer = "mouse";

  const gameUrl = (suffix) => `/api/games/${encodeURIComponent(game.game_id)}${suffix || ""}`;

  // -- what this browser keeps: tokens per game, the latest game, the form ---------------
  function readJson(key, fallback) {
    try {
      const v = JSON.parse(localStorage.getItem(key) || "null");
      return v === null ? fallback : v;
    } catch (e) {
      return fallback;
    }
  }

  function tokens() {
    const map = readJson(TOKENS_KEY, {});
    const clean = {};
    if (map && typeof map === "object") {
      for (const [id, v] of Object.entries(map)) {
        if (v && typeof v.token === "string") clean[id] = { token: v.token, at: Number(v.at) || 0 };
      }
    }
    const latest = loadLatest(); // kept by earlier versions of this page: never lose it
    if (latest && !clean[latest.game_id]) clean[latest.game_id] = { token: latest.token, at: Date.now() };
    return clean;
  }

  function tokenOf(gameId) {
    const t = tokens()[gameId];
    return t ? t.token : null;
  }

  function loadLatest() {
    const saved = readJson(GAME_KEY, null);
    return saved && typeof saved.game_id === "string" && typeof saved.token === "string" ? saved : null;
  }

  function remember(g) {
    const map = tokens();
    map[g.game_id] = { token: g.token, at: Date.now() };
    localStorage.setItem(TOKENS_KEY, JSON.stringify(map));
    localStorage.setItem(GAME_KEY, JSON.stringify({ game_id: g.game_id, token: g.token }));
  }

  /* A finished game leaves the "unfinished" pointer; its token stays (harmless). */
  function finished(gameId) {
    const latest = loadLatest();
    if (latest && latest.game_id === gameId) localStorage.removeItem(GAME_KEY);
  }

  function forgetGame(gameId) {
    finished(gameId);
    const map = tokens();
    delete map[gameId];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(map));
  }

  function savePrefs(body, size) {
    localStorage.setItem(PREFS_KEY, JSON.stringify({
      name: body.player_name, mode: body.mode, difficulty: body.difficulty,
      second_name: body.second_name || "", size,
    }));
  }

  function restorePrefs() {
    const p = readJson(PREFS_KEY, null);
    if (!p || typeof p !== "object") return;
    if (typeof p.name === "string") $("player-name").value = p.name;
    if (typeof p.second_name === "string") $("second-name").value = p.second_name;
    const pick = (select, value) => {
      if ([...select.options].some((o) => o.value === value)) select.value = value;
    };
    pick($("difficulty"), p.difficulty);
    pick($("field-size"), p.size);
    const mode = document.querySelector(`input[name="mode"][value="${p.mode === "two_players" ? "two_players" : "vs_computer"}"]`);
    if (mode) mode.checked = true;
  }

  // -- messages: each stays until the next action -------------------------------------
  function flash(text, kind, code) {
    const box = $("message");
    box.textContent = text;
    box.className = "message " + (kind || "info");
    box.dataset.code = code || "";
  }

  function clearMessage() {
    flash("", "", "");
    delete $("message").dataset.hint;
  }

  // -- start / resume ----------------------------------------------------------------
  function modeValue() {
    const checked = document.querySelector('input[name="mode"]:checked');
    return checked ? checked.value : "vs_computer";
  }

  function syncModeFields() {
    const two = modeValue() === "two_players";
    $("second-name-label").hidden = !two;
    $("second-name").required = two;
    $("difficulty-label").hidden = two;
  }

  async function startGame(event) {
    event.preventDefault();
    const errorBox = $("start-error");
    errorBox.hidden = true;
    const body = {
      player_name: $("player-name").value,
      mode: modeValue(),
      difficulty: $("difficulty").value,
    };
    if (body.mode === "two_players") body.second_name = $("second-name").value;
    const seed = $("seed").value.trim();
    if (seed !== "") body.seed = Number.parseInt(seed, 10);
    const [height, width] = $("field-size").value.split("x").map(Number);
    body.height = height;
    body.width = width;
    $("start-btn").disabled = true;
    try {
      const data = await api("POST", "/api/games", body);
      const g = { game_id: data.game_id, token: data.token };
      remember(g);
      savePrefs(body, $("field-size").value);
      history.pushState({ game_id: g.game_id }, "", `/play/${encodeURIComponent(g.game_id)}`);
      enterGame(g, data.state, {}, data.events || []);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errorBox.textContent = e.message;
      errorBox.hidden = false;
    } finally {
      $("start-btn").disabled = false;
    }
  }

  function describeGame(st) {
    const names = st.seats.map((s) => s.name).join(" vs ");
    return `${names} — round ${st.round}, stage ${st.stage}, ${st.height} × ${st.width}`;
  }

  /* The unfinished games this browser can play, newest first: the latest one with
     a Resume button, the others as links to their /play/<id> page. */
  async function offerResume() {
    $("resume").hidden = true;
    const map = tokens();
    const latest = loadLatest();
    const ids = Object.keys(map).sort((a, b) => map[b].at - map[a].at);
    if (latest) ids.splice(0, 0, ...ids.splice(ids.indexOf(latest.game_id), 1));
    const open = [];
    for (const id of ids.slice(0, 8)) {
      let data;
      try {
        data = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) forgetGame(id);
        continue;
      }
      if (data.state.over) {
        finished(id);
        continue;
      }
      open.push({ id, state: data.state });
    }
    if (!open.length || !$("game").hidden) return;
    const first = open[0];
    $("resume-desc").textContent = describeGame(first.state);
    $("resume").hidden = false;
    $("resume-btn").onclick = () => openGame(first.id, first.state);
    $("forget-btn").onclick = () => {
      forgetGame(first.id);
      offerResume();
    };
    const list = $("resume-list");
    while (list.firstChild) list.removeChild(list.firstChild);
    for (const o of open.slice(1)) {
      const li = document.createElement("li");
      const a = B.text("a", describeGame(o.state));
      a.href = `/play/${encodeURIComponent(o.id)}`;
      li.appendChild(a);
      list.appendChild(li);
    }
    $("resume-more").hidden = open.length < 2;
  }

  /* Open a stored game: playable with this browser's token, else watched. */
  async function openGame(gameId, knownState) {
    const token = tokenOf(gameId);
    const g = { game_id: gameId, token };
    if (token) remember(g);
    if (window.location.pathname !== `/play/${encodeURIComponent(gameId)}`) {
      history.pushState({ game_id: gameId }, "", `/play/${encodeURIComponent(gameId)}`);
    }
    let st = knownState;
    let events = [];
    try {
      if (!st) st = (await api("GET", `/api/games/${encodeURIComponent(gameId)}`)).state;
      events = (await api("GET", `/api/games/${encodeURIComponent(gameId)}/events`)).events;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (!st) {
        showStart(false);
        const box = $("start-error");
        box.textContent = e.status === 404 ? "There is no such game." : e.message;
        box.hidden = false;
        return;
      }
    }
    enterGame(g, st, B.plansOf(events), events);
  }

  function showStart(push) {
    if (anim) anim.skip();
    zoom(false);
    game = null;
    state = null;
    $("game").hidden = true;
    $("start").hidden = false;
    document.title = "Squares — play";
    if (push && window.location.pathname !== "/") history.pushState({}, "", "/");
    offerResume();
    $("player-name").focus();
  }

  /* The turn so far and the previous one, from a game's events (a resumed game). */
  function splitTurns(events) {
    let current = [];
    let previous = null;
    for (const ev of events) {
      if (ev.type === "game_created") continue;
      current.push(ev);
      if (ev.type === "stage_advanced" && ev.data.stage === 1) {
        previous = { seat: ev.data.seat, events: current };
        current = [];
      }
    }
    return { current, previous };
  }

  function enterGame(g, st, knownPlans, events) {
    game = g;
    plans = knownPlans || {};
    const turns = splitTurns(events || []);
    turnEvents = turns.current;
    lastTurn = turns.previous;
    $("start").hidden = true;
    $("game").hidden = false;
    $("over").hidden = true;
    $("replay-link").href = `/games/${encodeURIComponent(g.game_id)}`;
    $("over-replay").href = `/games/${encodeURIComponent(g.game_id)}?step=1`;
    $("over-highscores").href = `/highscores?game=${encodeURIComponent(g.game_id)}`;
    zoom(false);
    board = new B.Board($("board"), st.height, st.width);
    cursor = null;
    shown = st.scores.slice();
    clearMessage();
    render(st);
    if (!g.token) {
      flash("You are watching this game: this browser does not hold its token, so it cannot play it.", "info", "watching");
    }
    $("board").focus({ preventScroll: true });
    computerToMove(st);
  }

  // -- drawing a state ----------------------------------------------------------------
  const names = () => Object.fromEntries(state.seats.map((s) => [s.seat, s.name]));
  const seatOf = (st, n) => st.seats.find((s) => s.seat === n) || {};
  const isComputer = (st, n) => seatOf(st, n).kind === "computer";
  const canPlay = (st) => Boolean(game && game.token) && !st.over && !isComputer(st, st.turn);

  /* "you" against the computer; the player's name when two share the screen. */
  function youOf(st, seat) {
    return st.mode === "vs_computer" && !isComputer(st, seat) ? "You" : B.seatName(st, seat);
  }

  function promptFor(st) {
    if (st.over) return "Game over. Watch the replay, or start a new game.";
    if (!game.token) return `${B.seatName(st, st.turn)} is to move (stage ${st.stage}).`;
    if (isComputer(st, st.turn)) return `${B.seatName(st, st.turn)} is playing…`;
    const who = st.mode === "two_players" ? `${B.seatName(st, st.turn)}: ` : "";
    if (st.stage === 1) {
      return `${who}Stage 1 — squaring: each line must close a square (+1). Keep each new square next to the one before, or it costs 5. Nothing to close? Press Next stage.`;
    }
    if (st.stage === 2) {
      return st.legal.can_advance
        ? `${who}Stage 2 done. Press Next stage: three random pieces follow.`
        : `${who}Stage 2 — place one extra line anywhere. It scores nothing: try not to leave a square open.`;
    }
    return `${who}Stage 3 — the random pieces are on the board. Press End turn.`;
  }

  function render(st) {
    state = st;
    board.paint(st);
    B.fillStatus($("status"), st);
    showScores(st.scores);
    const ownPieces = st.stage === 3 && !st.over;
    B.fillPieces($("pieces"), ownPieces ? st.last_pieces || [] : []);
    fillLastTurn(st);
    $("board").dataset.version = st.version;
    $("board").dataset.stage = st.stage;
    $("board").dataset.over = st.over ? "true" : "false";
    $("advance-btn").classList.remove("hint");
    $("advance-btn").textContent = st.stage === 3 ? "End turn ⏎" : "Next stage ⏎";
    $("advance-btn").disabled = !canPlay(st);
    $("hint-btn").disabled = !canPlay(st);
    $("prompt").textContent = promptFor(st);
    $("game").classList.toggle("is-over", st.over);
    $("game").classList.toggle("watching", !game.token);
    if (!cursor) {
      const y = 2 * Math.floor(st.height / 4);
      const x = 2 * Math.floor(st.width / 4) + 1;
      cursor = { x, y, wantX: x };
    }
    if (st.over) board.hideCursor();
    else board.showCursor(cursor.x, cursor.y);
    const turnName = B.seatName(st, st.turn);
    document.title = st.over ? "Squares — game over" : `Squares — round ${st.round}, ${turnName}, stage ${st.stage}`;
    syncZoomTools();
    if (st.over) showOver(st);
  }

  /* The previous turn in one line, and the computer's plan if it was the computer's. */
  function fillLastTurn(st) {
    const box = $("last-box");
    let summary = "";
    if (lastTurn) summary = summarizeTurn(st, lastTurn);
    else if (st.last_turn) summary = `${B.seatName(st, st.last_turn.seat)}: ${plural(st.last_turn.lines.length, "line")}, ${plural(st.last_turn.squares.length, "square")} formed.`;
    $("last-title").textContent = "Last turn";
    $("last-summary").textContent = summary;
    const lastSeat = lastTurn ? lastTurn.seat : st.last_turn ? st.last_turn.seat : null;
    const computerPlans = lastSeat !== null && isComputer(st, lastSeat) && !(st.over && st.mode !== "vs_computer")
      ? (Object.keys(plans).length ? plans : B.plansOfState(st)) : {};
    B.fillPlans($("ai-box"), computerPlans);
    box.hidden = !summary && $("ai-box").hidden;
  }

  function summarizeTurn(st, turn) {
    let lines = 0, won = 0, penalty = 0, ownerless = 0, pieces = 0;
    const letter = B.seatLetter(st, turn.seat);
    for (const ev of turn.events) {
      const d = ev.data || {};
      if (ev.type === "line_placed") {
        lines += 1;
        penalty += B.penaltyOf(d);
        for (const q of d.squares) {
          if (q[2] === letter) won += 1;
          else ownerless += 1;
        }
      } else if (ev.type === "piece_inserted" && !d.skipped) {
        pieces += 1;
        ownerless += d.squares.length;
      }
    }
    const delta = won - penalty;
    const parts = [`${plural(lines, "line")}`];
    if (won) parts.push(`${plural(won, "square")} won`);
    if (penalty) parts.push(`an irregular square (−${penalty})`);
    if (ownerless) parts.push(`${ownerless} ownerless`);
    if (pieces) parts.push(`${plural(pieces, "random piece")}`);
    const sign = delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : "±0";
    return `${B.seatName(st, turn.seat)}: ${sign} — ${parts.join(", ")}.`;
  }

  // -- the score: it counts to its new value, with a +1 / −5 badge ---------------------
  const countTimers = [null, null];

  function showScores(scores) {
    for (const seat of [1, 2]) {
      const to = scores[seat - 1];
      const from = shown[seat - 1];
      if (to !== from) animateScore(seat, from, to);
      else if (countTimers[seat - 1] === null) $(`st-score${seat}`).textContent = String(to);
    }
  }

  function animateScore(seat, from, to) {
    const dd = $(`st-score${seat}`);
    shown[seat - 1] = to;
    clearInterval(countTimers[seat - 1]);
    const delta = to - from;
    for (const old of dd.parentElement.querySelectorAll(".delta")) old.remove();
    const badge = B.text("span", delta > 0 ? `+${delta}` : `−${-delta}`, `delta ${delta > 0 ? "up" : "down"}`);
    badge.setAttribute("aria-hidden", "true");
    badge.addEventListener("animationend", () => badge.remove());
    dd.after(badge);
    dd.classList.remove("bump-up", "bump-down");
    void dd.offsetWidth; // restart the CSS animation
    dd.classList.add(delta > 0 ? "bump-up" : "bump-down");
    let value = from;
    const step = delta > 0 ? 1 : -1;
    dd.textContent = String(value);
    countTimers[seat - 1] = setInterval(() => {
      value += step;
      dd.textContent = String(value);
      if (value === to) {
        clearInterval(countTimers[seat - 1]);
        countTimers[seat - 1] = null;
      }
    }, Math.max(25, Math.min(90, 450 / Math.abs(delta))));
    dd.dataset.score = String(to);
  }

  async function showOver(st) {
    finished(st.game_id);
    const box = $("over");
    box.hidden = false;
    const name = (seat) => B.seatName(st, seat);
    const result = st.winner === 0 ? "A draw." : `${name(st.winner)} wins.`;
    $("over-result").textContent = `${name(1)} ${st.scores[0]} : ${st.scores[1]} ${name(2)} — ${result}`;
    const tbody = $("over-table").querySelector("tbody");
    let rows = [];
    try {
      // Room for the player's own rows below the top 10.
      rows = (await api("GET", "/api/highscores?limit=100")).high_scores;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
    }
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    rows.forEach((row, i) => {
      const mine = row.game_id === st.game_id;
      if (i >= 10 && !mine) return;
      const tr = document.createElement("tr");
      if (mine) tr.className = "mine";
      tr.appendChild(B.text("td", String(row.rank ?? i + 1)));
      tr.appendChild(B.text("td", row.name + (mine ? "  ◀ you" : "")));
      tr.appendChild(B.text("td", String(row.score)));
      tr.appendChild(B.text("td", row.difficulty || ""));
      tbody.appendChild(tr);
    });
    tbody.dataset.loaded = "true";
  }

  // -- animation ---------------------------------------------------------------------
  function makeAnimation() {
    let timer = null;
    let resolver = null;
    const a = {
      skipped: false,
      wait(ms) {
        return new Promise((resolve) => {
          if (a.skipped) return resolve();
          resolver = resolve;
          timer = setTimeout(() => {
            resolver = null;
            resolve();
          }, ms);
        });
      },
      skip() {
        a.skipped = true;
        clearTimeout(timer);
        if (resolver) {
          const r = resolver;
          resolver = null;
          r();
        }
      },
    };
    return a;
  }

  function tallyBoxes() {
    const svg = $("board");
    const count = (cls) => svg.querySelectorAll(`.box.${cls}`).length;
    const status = $("status");
    const set = (field, v) => {
      for (const n of status.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(v);
    };
    set("squares1", count("own-P"));
    set("squares2", count("own-C"));
    set("ownerless", count("own-O"));
  }

  /* Draw one event onto the board and the panel (the final state still comes from
     the server); returns the words for it. */
  function drawEvent(ev) {
    const d = ev.data || {};
    const status = $("status");
    const set = (field, v) => {
      for (const n of status.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(v);
    };
    if (ev.type === "line_placed") {
      const letter = B.seatLetter(state, d.seat);
      board.setLine(d.x, d.y, letter, "cur");
      for (const [x, y, owner] of d.squares) board.setBox(x, y, owner, "cur");
      const won = d.squares.filter((q) => q[2] === letter).length;
      const delta = won - B.penaltyOf(d);
      if (delta) {
        const next = shown.slice();
        next[d.seat - 1] += delta;
        showScores(next);
      }
      tallyBoxes();
    } else if (ev.type === "piece_inserted") {
      for (const [x, y] of d.lines) board.setLine(x, y, "R", "cur");
      for (const [x, y] of d.squares) board.setBox(x, y, ":", "cur");
      B.addPiece($("pieces"), d);
      tallyBoxes();
    } else if (ev.type === "stage_advanced") {
      if (d.stage === 1) board.newTurn();
      if (d.stage === 3) B.fillPieces($("pieces"), []);
      set("stage", d.stage);
      set("round", d.round);
      set("turn", names()[d.turn] || "");
      $("advance-btn").textContent = d.stage === 3 ? "End turn ⏎" : "Next stage ⏎";
    } else if (ev.type === "move_explained") {
      plans = B.addPlan(plans, ev);
      B.fillPlans($("ai-box"), plans);
      $("last-title").textContent = `${B.seatName(state, d.seat)}'s turn`;
      $("last-box").hidden = false;
    }
  }

  /* What a player's own action did, in words (RULES T2, T3, T4), with its kind
     ("good", "penalty" or "info") for the message's colour. */
  function feedback(events, st) {
    const parts = [];
    let kind = "info";
    const squares = (list) => list.map((q) => pt(q[0], q[1])).join(" and ");
    for (const ev of events) {
      const d = ev.data || {};
      const you = youOf(st, d.seat);
      const letter = B.seatLetter(st, d.seat);
      if (ev.type === "line_placed") {
        const won = d.squares.filter((q) => q[2] === letter);
        const lost = d.squares.filter((q) => q[2] !== letter);
        if (B.penaltyOf(d)) {
          kind = "penalty";
          parts.push(`Irregular square ${squares(lost)}: it is not next to the square your previous line formed, so it belongs to no one and costs ${B.penaltyOf(d)} points (rule T2).`);
        } else if (won.length) {
          kind = "good";
          const n = won.length;
          parts.push(`${n === 1 ? "Square" : `${n} squares`} ${squares(won)}: +${n} for ${you === "You" ? "you" : you}.`);
          if (lost.length) parts.push(`${squares(lost)} also closed, but is not next to your chain: ownerless, no penalty.`);
          if (d.stage === 1) parts.push("Close another square next to it, or press Next stage.");
        } else if (d.stage === 2) {
          parts.push(`Extra line at ${pt(d.x, d.y)}.`);
          if (d.squares.length) parts.push(`It closed ${squares(d.squares)}: squares made in stage 2 belong to no one.`);
          parts.push("Press Next stage for the random pieces.");
        } else {
          parts.push(`Line at ${pt(d.x, d.y)}.`);
        }
      } else if (ev.type === "stage_advanced") {
        if (d.reason === "irregular_square") parts.push("Stage 1 is over: now place one extra line anywhere (stage 2).");
        else if (d.stage === 2) parts.push("Stage 2: place one extra line anywhere. It scores nothing, so try not to leave a square open.");
        else if (d.stage === 3) parts.push("Stage 3: three random pieces land on the board; squares they close belong to no one.");
      } else if (ev.type === "piece_inserted") {
        // captioned in the pieces list; counted here
      } else if (ev.type === "game_over") {
        parts.push("The last line is drawn: game over.");
      }
    }
    const pieces = events.filter((e) => e.type === "piece_inserted");
    if (pieces.length) {
      const closed = pieces.reduce((n, e) => n + e.data.squares.length, 0);
      const skipped = pieces.filter((e) => e.data.skipped).length;
      let s = `${plural(pieces.length - skipped, "piece")} placed`;
      if (skipped) s += `, ${skipped} skipped (no room)`;
      if (closed) s += `, ${plural(closed, "ownerless square")} closed`;
      parts.push(`${s}. Press End turn.`);
    }
    return { text: parts.join(" "), kind };
  }

  /* Apply the result of a move to the page: `events` (new, in order) and the state
     after them. The one entry point for every change of the game: the player's own
     actions, the computer's turn, and later the opponent's moves from a live feed.
     The player's own lines are explained; random pieces and the computer's turn are
     animated step by step (Escape skips). */
  async function applyMoveResult(events, finalState) {
    if (!events.length) {
      render(finalState);
      return;
    }
    const computers = new Set(state.seats.filter((s) => s.kind === "computer").map((s) => s.seat));
    const finalPlans = events.reduce(B.addPlan, plans);
    // The player's own part (before any computer event): explained in words.
    const firstComputer = events.findIndex((ev) => ev.data && computers.has(ev.data.seat) && ev.type !== "stage_advanced");
    const own = firstComputer < 0 ? events : events.slice(0, firstComputer);
    const animate = events.some((ev) => ev.type === "piece_inserted" || (ev.data && computers.has(ev.data.seat)));
    const words = feedback(own.filter((ev) => !(ev.data && computers.has(ev.data.seat))), state);
    const n = names();
    const track = (ev) => {
      if (ev.type === "game_created") return;
      turnEvents.push(ev);
      if (ev.type === "stage_advanced" && ev.data.stage === 1) {
        lastTurn = { seat: ev.data.seat, events: turnEvents };
        turnEvents = [];
      }
    };
    if (!animate) {
      for (const ev of events) {
        drawEvent(ev);
        track(ev);
      }
      plans = finalPlans;
      render(finalState);
      if (words.text) flash(words.text, words.kind, "feedback");
      return;
    }
    anim = makeAnimation();
    const a = anim;
    $("skip-btn").hidden = false;
    $("board").classList.add("animating");
    let computerTurn = false;
    for (const ev of events) {
      track(ev);
      if (a.skipped) continue;
      const d = ev.data || {};
      if (d.seat && computers.has(d.seat) && ev.type !== "stage_advanced") computerTurn = true;
      drawEvent(ev);
      if (ev.type === "game_over" || ev.type === "high_scores_entered") continue;
      if (computerTurn) {
        flash(B.describeEvent(ev, n), "info", "");
        await a.wait(STEP_MS);
      } else if (ev.type === "piece_inserted") {
        flash(`${B.describeEvent(ev, n)}`, "info", "");
        await a.wait(STEP_MS);
      } else if (words.text) {
        flash(words.text, words.kind, "feedback");
      }
    }
    anim = null;
    plans = finalPlans;
    $("skip-btn").hidden = true;
    $("board").classList.remove("animating");
    render(finalState);
    if (computerTurn) {
      const who = finalState.mode === "vs_computer" ? "your" : `${B.seatName(finalState, finalState.turn)}'s`;
      flash(finalState.over ? "Game over." : `Round ${finalState.round} — ${who} turn. (The computer's turn is summed up under Last turn.)`, "info", "turn");
    } else if (words.text) {
      flash(words.text, words.kind, "feedback");
    }
  }

  // -- actions -------------------------------------------------------------------------
  async function act(kind, x, y) {
    if (!game || !state) return;
    if (busy) return;
    if (!game.token) {
      flash("You are watching this game: this browser cannot play it.", "error", "watching");
      return;
    }
    if (state.over) {
      flash("The game is over.", "error", "game_over");
      return;
    }
    busy = true;
    board.clearHint();
    clearMessage();
    try {
      const data = kind === "line"
        ? await api("POST", gameUrl("/lines"), { x, y, expected_version: state.version }, game.token)
        : await api("POST", gameUrl("/advance"), { expected_version: state.version }, game.token);
      await applyMoveResult(data.events, data.state);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
      if (e.code === "version_conflict") await reload();
    } finally {
      busy = false;
    }
  }

  /* A computer seat to move when the page opens (the server normally plays such a
     turn on the first read): ask the server to play it, and watch. */
  async function computerToMove(st) {
    if (st.over || st.mode !== "vs_computer" || busy || !game.token) return;
    const seat = st.seats.find((s) => s.seat === st.turn);
    if (!seat || seat.kind !== "computer") return;
    busy = true;
    flash(`${seat.name} is thinking…`, "info", "thinking");
    try {
      const data = await api("POST", gameUrl("/computer-turn"), undefined, game.token);
      await applyMoveResult(data.events, data.state);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
      if (e.code === "not_computer_turn" || e.code === "version_conflict") {
        busy = false;
        await reload();
      }
    } finally {
      busy = false;
    }
  }

  async function reload() {
    try {
      const data = await api("GET", gameUrl());
      render(data.state);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
    }
  }

  async function hint() {
    if (!game || !state || busy || !canPlay(state)) return;
    try {
      const h = await api("GET", gameUrl("/hint"));
      if (h.action === "line") {
        board.setHint(h.x, h.y);
        cursor = { x: h.x, y: h.y, wantX: h.x };
        showCursor();
        flash(`Hint: place the line at ${pt(h.x, h.y)} (column ${h.x}, row ${h.y}).`, "info", "hint");
      } else {
        $("advance-btn").classList.add("hint");
        flash(`Hint: press ${state.stage === 3 ? "End turn" : "Next stage"} (Enter).`, "info", "hint");
      }
      $("message").dataset.hint = h.action === "line" ? `${h.x},${h.y}` : "advance";
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
    }
  }

  // -- the cursor and the keys ---------------------------------------------------------
  function showCursor() {
    board.showCursor(cursor.x, cursor.y);
    if (zoomed) board.cursor.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /* Arrow keys: left/right step to the next slot in the row; up/down go one
     character row up/down, to the slot nearest the column last chosen. */
  function moveCursor(dx, dy) {
    if (!state || !cursor) return;
    let { x, y, wantX } = cursor;
    if (dx) {
      const nx = x + 2 * dx;
      if (nx < 0 || nx >= state.width) return;
      x = nx;
      wantX = x;
    } else {
      const ny = y + dy;
      if (ny < 0 || ny >= state.height) return;
      let nx = (wantX + ny) % 2 === 1 ? wantX : wantX - 1;
      if (nx < 0) nx = 1;
      if (nx >= state.width) nx = state.width - 2;
      x = nx;
      y = ny;
    }
    cursor = { x, y, wantX };
    showCursor();
  }

  function onKey(e) {
    if ($("game").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    // A focused button or link keeps its own Enter / Space.
    if ((tag === "BUTTON" || tag === "A") && (e.key === "Enter" || e.key === " ")) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      moveCursor(...moves[e.key]);
    } else if (e.key === " " || e.key === "Spacebar") {
      e.preventDefault();
      if (cursor) act("line", cursor.x, cursor.y);
    } else if (e.key === "Enter") {
      e.preventDefault();
      act("advance");
    } else if (e.key === "Escape") {
      if (anim) anim.skip();
    } else if (e.key === "h" || e.key === "H") {
      hint();
    }
  }

  // -- taps, clicks and the zoom of small screens -------------------------------------
  /* Slots closer than 24 px on screen: a tap zooms in before it places a line. */
  function tooSmall() {
    return Boolean(board) && !zoomed && board.scale() < MIN_TAP_SCALE;
  }

  function syncZoomTools() {
    const small = zoomed || tooSmall();
    $("zoom-btn").hidden = !small;
    $("zoom-tip").hidden = !small || zoomed;
    $("zoom-btn").textContent = zoomed ? "Fit the board" : "Zoom in";
    $("zoom-btn").setAttribute("aria-pressed", zoomed ? "true" : "false");
  }

  /* Zoom in so that neighbouring slots are 28 px apart (the board scrolls in its
     box), centred on (fx, fy), fractions of the board; or back to fit the screen. */
  function zoom(on, fx, fy) {
    const svg = $("board");
    const scroller = $("board-scroll");
    if (!board || !on) {
      zoomed = false;
      scroller.classList.remove("zoomed");
      svg.style.removeProperty("width");
      svg.style.removeProperty("max-height");
      if (board) svg.style.maxWidth = `${Math.round(board.units * 2.5)}px`;
      if (board) syncZoomTools();
      return;
    }
    zoomed = true;
    scroller.classList.add("zoomed");
    svg.style.maxWidth = "none";
    svg.style.maxHeight = "none";
    svg.style.width = `${Math.round(board.units * 1.0)}px`;
    const box = svg.getBoundingClientRect();
    scroller.scrollLeft = Math.max(0, (fx === undefined ? 0.5 : fx) * box.width - scroller.clientWidth / 2);
    const top = box.top + window.scrollY + (fy === undefined ? 0.5 : fy) * box.height - window.innerHeight / 2;
    window.scrollTo({ top: Math.max(0, top) });
    syncZoomTools();
  }

  function onBoardClick(e) {
    if (!state) return;
    if (lastPointer === "touch" && tooSmall()) {
      const box = $("board").getBoundingClientRect();
      zoom(true, (e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height);
      return;
    }
    const slot = e.target.closest && e.target.closest(".slot");
    if (!slot) return;
    const x = Number(slot.dataset.x);
    const y = Number(slot.dataset.y);
    cursor = { x, y, wantX: x };
    board.showCursor(x, y);
    act("line", x, y);
  }

  // Buttons give the focus back to the board so space/Enter keep meaning "play".
  function button(id, handler) {
    $(id).addEventListener("click", (e) => {
      e.currentTarget.blur();
      handler();
      $("board").focus({ preventScroll: true });
    });
  }

  function route() {
    const root = $("play-root");
    const match = window.location.pathname.match(/^\/play\/([^/]+)$/);
    const id = match ? decodeURIComponent(match[1]) : root.dataset.gameId;
    if (id && window.location.pathname !== "/") openGame(id);
    else showStart(false);
  }

  function init() {
    restorePrefs();
    $("start-form").addEventListener("submit", startGame);
    for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", syncModeFields);
    syncModeFields();
    $("board").addEventListener("pointerdown", (e) => {
      lastPointer = e.pointerType || "mouse";
    });
    $("board").addEventListener("click", onBoardClick);
    document.addEventListener("keydown", onKey);
    button("advance-btn", () => act("advance"));
    button("hint-btn", hint);
    button("skip-btn", () => anim && anim.skip());
    button("zoom-btn", () => zoom(!zoomed));
    window.addEventListener("resize", () => state && syncZoomTools());
    window.addEventListener("popstate", route);
    $("new-btn").addEventListener("click", () => showStart(true));
    route();
  }

  init();
})();
