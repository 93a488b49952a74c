/* Squares: the play page. Talks to the JSON API only; the rules live on the server. */
"use strict";

(() => {
  const B = SquaresBoard;
  const STORE_KEY = "squares.game";
  const STEP_MS = 300; // pace of the computer's animated turn
  const MESSAGE_MS = 3500;
  const $ = (id) => document.getElementById(id);

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
  let game = null; // {game_id, token}
  let state = null; // the last state object from the server
  let board = null;
  let cursor = null; // {x, y, wantX}
  let busy = false; // a request or an animation is running
  let anim = null;
  let messageTimer = null;
  let plans = {}; // the computer's explanations of its latest turn (RULES A2)

  const gameUrl = (suffix) => `/api/games/${encodeURIComponent(game.game_id)}${suffix || ""}`;

  function loadSaved() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE_KEY) || "null");
      return saved && typeof saved.game_id === "string" && typeof saved.token === "string" ? saved : null;
    } catch (e) {
      return null;
    }
  }
  const save = (g) => localStorage.setItem(STORE_KEY, JSON.stringify(g));
  const forget = () => localStorage.removeItem(STORE_KEY);

  // -- messages -------------------------------------------------------------------
  function flash(text, kind, code, ms) {
    const box = $("message");
    clearTimeout(messageTimer);
    box.textContent = text;
    box.className = "message " + (kind || "info");
    box.dataset.code = code || "";
    const duration = ms === undefined ? MESSAGE_MS : ms;
    if (duration > 0) {
      messageTimer = setTimeout(() => {
        box.textContent = "";
        box.className = "message";
        box.dataset.code = "";
      }, duration);
    }
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
      save(g);
      enterGame(g, data.state);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errorBox.textContent = e.message;
      errorBox.hidden = false;
    } finally {
      $("start-btn").disabled = false;
    }
  }

  async function offerResume() {
    const saved = loadSaved();
    $("resume").hidden = true;
    if (!saved) return;
    let data;
    try {
      data = await api("GET", `/api/games/${encodeURIComponent(saved.game_id)}`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) forget();
      return;
    }
    const st = data.state;
    if (st.over) {
      forget();
      return;
    }
    const names = st.seats.map((s) => s.name).join(" vs ");
    $("resume-desc").textContent = `${names} — round ${st.round}, stage ${st.stage}, ${st.height} × ${st.width}`;
    $("resume").hidden = false;
    $("resume-btn").onclick = async () => {
      let known = {};
      try {
        known = B.plansOf((await api("GET", `/api/games/${encodeURIComponent(saved.game_id)}/events`)).events);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e; // the state's own explanation will do
      }
      enterGame(saved, st, known);
    };
  }

  function showStart() {
    if (anim) anim.skip();
    $("game").hidden = true;
    $("start").hidden = false;
    document.title = "Squares — play";
    offerResume();
    $("player-name").focus();
  }

  function enterGame(g, st, knownPlans) {
    game = g;
    plans = knownPlans || {};
    $("start").hidden = true;
    $("game").hidden = false;
    $("over").hidden = true;
    $("replay-link").href = `/games/${encodeURIComponent(g.game_id)}`;
    $("over-replay").href = `/games/${encodeURIComponent(g.game_id)}`;
    $("over-highscores").href = `/highscores?game=${encodeURIComponent(g.game_id)}`;
    board = new B.Board($("board"), st.height, st.width);
    cursor = null;
    render(st);
    $("board").focus();
    computerToMove(st);
  }

  // -- drawing a state ----------------------------------------------------------------
  function render(st) {
    state = st;
    board.paint(st);
    B.fillStatus($("status"), st);
    B.fillPieces($("pieces"), st.last_pieces || []);
    B.fillPlans($("ai-box"), Object.keys(plans).length ? plans : B.plansOfState(st));
    $("board").dataset.version = st.version;
    $("board").dataset.stage = st.stage;
    $("board").dataset.over = st.over ? "true" : "false";
    $("advance-btn").classList.remove("hint");
    $("advance-btn").disabled = st.over;
    $("hint-btn").disabled = st.over;
    $("game").classList.toggle("is-over", st.over);
    if (!cursor) {
      const y = 2 * Math.floor(st.height / 4);
      const x = 2 * Math.floor(st.width / 4) + 1;
      cursor = { x, y, wantX: x };
    }
    if (st.over) board.hideCursor();
    else board.showCursor(cursor.x, cursor.y);
    const turnName = B.seatName(st, st.turn);
    document.title = st.over ? "Squares — game over" : `Squares — round ${st.round}, ${turnName}, stage ${st.stage}`;
    if (st.over) showOver(st);
  }

  async function showOver(st) {
    forget();
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

  // -- the computer's turn, step by step ---------------------------------------------
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

  /* Draw one event onto the board (drawing only: the final state comes from the server). */
  function drawEvent(ev, names) {
    const d = ev.data || {};
    const status = $("status");
    const set = (field, v) => {
      for (const n of status.querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(v);
    };
    if (ev.type === "line_placed") {
      board.setLine(d.x, d.y, B.seatLetter(state, d.seat), "cur");
      for (const [x, y, owner] of d.squares) board.setBox(x, y, owner, "cur");
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
      set("turn", names[d.turn] || "");
    } else if (ev.type === "move_explained") {
      plans = B.addPlan(plans, ev);
      B.fillPlans($("ai-box"), plans);
    }
    if (ev.type !== "high_scores_entered") {
      flash(B.describeEvent(ev, names), "info", "", 0);
    }
  }

  async function playEvents(events, finalState) {
    const computers = new Set(state.seats.filter((s) => s.kind === "computer").map((s) => s.seat));
    const animate = events.some((ev) => ev.data && computers.has(ev.data.seat));
    const finalPlans = events.reduce(B.addPlan, plans);
    if (!animate) {
      plans = finalPlans;
      render(finalState);
      return;
    }
    const names = {};
    for (const s of state.seats) names[s.seat] = s.name;
    anim = makeAnimation();
    const a = anim;
    $("skip-btn").hidden = false;
    $("board").classList.add("animating");
    let started = false;
    for (const ev of events) {
      if (a.skipped) break;
      if (ev.data && computers.has(ev.data.seat)) started = true;
      drawEvent(ev, names);
      if (started && ev.type !== "game_over" && ev.type !== "high_scores_entered") await a.wait(STEP_MS);
    }
    anim = null;
    plans = finalPlans;
    $("skip-btn").hidden = true;
    $("board").classList.remove("animating");
    flash("", "info", "", 1);
    render(finalState);
  }

  // -- actions -------------------------------------------------------------------------
  async function act(kind, x, y) {
    if (!game || !state) return;
    if (busy) return;
    if (state.over) {
      flash("The game is over.", "error", "game_over");
      return;
    }
    busy = true;
    board.clearHint();
    try {
      const data = kind === "line"
        ? await api("POST", gameUrl("/lines"), { x, y, expected_version: state.version }, game.token)
        : await api("POST", gameUrl("/advance"), { expected_version: state.version }, game.token);
      await playEvents(data.events, data.state);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
      if (e.code === "version_conflict") await reload();
    } finally {
      busy = false;
    }
  }

  /* A computer seat to move when the page opens (its turn was cut short, say by
     a restart of the server): ask the server to play it, and watch. */
  async function computerToMove(st) {
    if (st.over || st.mode !== "vs_computer" || busy) return;
    const seat = st.seats.find((s) => s.seat === st.turn);
    if (!seat || seat.kind !== "computer") return;
    busy = true;
    flash(`${seat.name} is thinking…`, "info", "thinking", 0);
    try {
      const data = await api("POST", gameUrl("/computer-turn"), undefined, game.token);
      await playEvents(data.events, data.state);
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
    if (!game || !state || busy || state.over) return;
    try {
      const h = await api("GET", gameUrl("/hint"));
      if (h.action === "line") {
        board.setHint(h.x, h.y);
        cursor = { x: h.x, y: h.y, wantX: h.x };
        board.showCursor(h.x, h.y);
        flash(`Hint: place the line at (${h.x}, ${h.y})`, "info", "hint");
      } else {
        $("advance-btn").classList.add("hint");
        flash("Hint: go on to the next stage (Enter)", "info", "hint");
      }
      $("message").dataset.hint = h.action === "line" ? `${h.x},${h.y}` : "advance";
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      flash(e.message, "error", e.code);
    }
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
    board.showCursor(x, y);
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

  function onBoardClick(e) {
    const slot = e.target.closest && e.target.closest(".slot");
    if (!slot || !state) return;
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

  function init() {
    $("start-form").addEventListener("submit", startGame);
    for (const r of document.querySelectorAll('input[name="mode"]')) r.addEventListener("change", syncModeFields);
    syncModeFields();
    $("forget-btn").addEventListener("click", () => {
      forget();
      $("resume").hidden = true;
    });
    $("board").addEventListener("click", onBoardClick);
    document.addEventListener("keydown", onKey);
    button("advance-btn", () => act("advance"));
    button("hint-btn", hint);
    button("skip-btn", () => anim && anim.skip());
    $("new-btn").addEventListener("click", showStart);
    offerResume();
  }

  init();
})();
