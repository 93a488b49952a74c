/* Squares: the replay page. The state at every step comes from the server
   (GET /api/games/{id}/replay/{k}), so the rules live in one place. */
"use strict";

(() => {
  const B = SquaresBoard;
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("replay-data").textContent);
  const gameId = data.game_id;
  const total = data.steps;
  const names = data.names; // {"1": name, "2": name}
  const series = data.series; // [[score1, score2], ...] for steps 1..total

  let events = []; // events[k - 1] is the event of step k
  let step = data.step;
  let wanted = step;
  let board = null;
  let playing = false;
  let playTimer = null;
  const cache = new Map();

  async function getJson(path) {
    const resp = await fetch(path, { headers: { Accept: "application/json" } });
    const body = await resp.json().catch(() => null);
    if (!resp.ok) {
      const err = (body && body.error) || {};
      throw new Error(err.message || `The request failed (HTTP ${resp.status}).`);
    }
    return body;
  }

  function showError(message) {
    const box = $("message");
    box.textContent = message;
    box.className = "message error";
  }

  async function loadEvents() {
    const base = `/api/games/${encodeURIComponent(gameId)}/events`;
    let after = 0;
    for (let guard = 0; guard < 1000; guard++) {
      // The whole stream in one answer; more pages only if the server ever cuts it short.
      const page = await getJson(after ? `${base}?after=${after}` : base);
      if (!page.events.length) break;
      events = events.concat(page.events);
      after = page.events[page.events.length - 1].seq;
      if (after >= page.version) break;
    }
  }

  async function stateAt(k) {
    if (!cache.has(k)) {
      cache.set(k, getJson(`/api/games/${encodeURIComponent(gameId)}/replay/${k}`).catch((e) => {
        cache.delete(k);
        throw e;
      }));
    }
    return cache.get(k);
  }

  function clamp(k) {
    return Math.max(1, Math.min(total, Math.round(k) || 1));
  }

  async function show(k) {
    k = clamp(k);
    wanted = k;
    $("slider").value = String(k);
    $("step-no").textContent = String(k);
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(k));
    history.replaceState(null, "", url.pathname + url.search);
    let answer;
    try {
      answer = await stateAt(k);
    } catch (e) {
      showError(e.message);
      stop();
      return;
    }
    if (wanted !== k) return; // a newer step was asked for meanwhile
    step = k;
    const st = answer.state;
    if (!board || board.height !== st.height || board.width !== st.width) {
      board = new B.Board($("board"), st.height, st.width);
    }
    board.paint(st);
    const ev = events[k - 1] || answer.event;
    board.markStep(ev);
    $("board").dataset.step = String(k);
    B.fillStatus($("status"), st);
    B.fillPieces($("pieces"), st.last_pieces || []);
    B.fillPlans($("ai-box"), events.length >= k ? B.plansOf(events.slice(0, k)) : B.plansOfState(st));
    $("step-desc").textContent = ev ? `Step ${k}: ${B.describeEvent(ev, names)}` : `Step ${k}`;
    markChart(k);
    $("prev-btn").disabled = k <= 1;
    $("first-btn").disabled = k <= 1;
    $("next-btn").disabled = k >= total;
    $("last-btn").disabled = k >= total;
    $("prev-turn-btn").disabled = k <= 1;
    $("next-turn-btn").disabled = k >= total;
    markMove(k);
    // Warm the cache for the next step so stepping and autoplay stay smooth.
    if (k < total) stateAt(k + 1).catch(() => {});
  }

  // -- the move list: round -> turn -> stage -> steps, each one a link ---------------
  let turnBounds = [1]; // the steps where a turn ends (and the next begins), with 1 and total
  const moveLinks = new Map(); // step -> its link in the list

  function shortLabel(ev) {
    const d = ev.data || {};
    switch (ev.type) {
      case "line_placed": {
        const letter = d.seat === 1 ? "P" : "C";
        const won = d.squares.filter((q) => q[2] === letter).length;
        const pen = B.penaltyOf(d);
        let s = B.pt(d.x, d.y);
        if (won) s += ` +${won}`;
        if (pen) s += ` −${pen}`;
        else if (d.squares.length > won) s += " :";
        return s;
      }
      case "stage_advanced":
        return d.reason === "irregular_square" ? "→ stage 2 (irregular)" : d.stage === 1 ? "end of turn" : `→ stage ${d.stage}`;
      case "piece_inserted":
        return d.skipped ? `piece ${d.size}: skipped` : `piece ${d.size}`;
      case "move_explained":
        return `plan ${d.stage}`;
      case "game_over":
        return "game over";
      case "high_scores_entered":
        return "high scores";
      case "game_created":
        return `start: ${d.height} × ${d.width}, seed ${d.seed}`;
      case "seat_claimed":
        return `${d.name} joined`;
      default:
        return ev.type;
    }
  }

  function buildMoves() {
    const nav = $("moves");
    while (nav.firstChild) nav.removeChild(nav.firstChild);
    moveLinks.clear();
    turnBounds = [1];
    const link = (ev) => {
      const a = B.text("a", shortLabel(ev), `move move-${ev.type}`);
      a.href = `?step=${ev.seq}`;
      a.dataset.step = String(ev.seq);
      a.title = B.describeEvent(ev, names);
      moveLinks.set(ev.seq, a);
      return a;
    };
    const rounds = document.createElement("ol");
    rounds.className = "rounds";
    let roundLi = null, turnLi = null, stageLi = null, stageList = null;
    let round = 0, seat = 0, stage = 0, turnPoints = 0, turnHead = null;
    const closeTurn = () => {
      if (turnHead) turnHead.textContent = `${names[seat] || "Seat " + seat} ${turnPoints > 0 ? "+" + turnPoints : turnPoints < 0 ? "−" + -turnPoints : "±0"}`;
    };
    const openTurn = (r, s) => {
      if (r !== round || !roundLi) {
        round = r;
        roundLi = document.createElement("li");
        roundLi.className = "round";
        roundLi.appendChild(B.text("h3", `Round ${r}`));
        const turns = document.createElement("ol");
        turns.className = "turns";
        roundLi.appendChild(turns);
        rounds.appendChild(roundLi);
      }
      seat = s;
      turnPoints = 0;
      turnLi = document.createElement("li");
      turnLi.className = `turn seat-${s}`;
      turnHead = B.text("span", "", `turn-head who-${s}`);
      turnLi.appendChild(turnHead);
      stageList = document.createElement("ol");
      stageList.className = "stages";
      turnLi.appendChild(stageList);
      roundLi.querySelector("ol.turns").appendChild(turnLi);
      stage = 0;
    };
    const openStage = (n) => {
      stage = n;
      stageLi = document.createElement("li");
      stageLi.appendChild(B.text("span", `Stage ${n}`, "stage-name"));
      stageList.appendChild(stageLi);
    };
    const first = events[0];
    if (first) {
      const start = document.createElement("p");
      start.className = "moves-start";
      start.appendChild(link(first));
      nav.appendChild(start);
    }
    nav.appendChild(rounds);
    let curRound = 1, curTurn = 1, curStage = 1;
    for (const ev of events.slice(1)) {
      const d = ev.data || {};
      if (ev.type === "seat_claimed" && nav.querySelector("p.moves-start")) {
        // An online game's friend joins before the first move: part of the start.
        const start = nav.querySelector("p.moves-start");
        start.appendChild(document.createTextNode(" "));
        start.appendChild(link(ev));
        continue;
      }
      if (ev.type === "game_over" || ev.type === "high_scores_entered") {
        closeTurn();
        let end = nav.querySelector("p.moves-end");
        if (!end) {
          end = document.createElement("p");
          end.className = "moves-end";
          nav.appendChild(end);
        }
        end.appendChild(link(ev));
        end.appendChild(document.createTextNode(" "));
        continue;
      }
      if (!turnLi || curTurn !== seat || curRound !== round) {
        closeTurn();
        openTurn(curRound, curTurn);
      }
      if (stage !== curStage) openStage(curStage);
      stageLi.appendChild(document.createTextNode(" "));
      stageLi.appendChild(link(ev));
      if (ev.type === "line_placed") {
        const letter = d.seat === 1 ? "P" : "C";
        turnPoints += d.squares.filter((q) => q[2] === letter).length - B.penaltyOf(d);
      }
      if (ev.type === "stage_advanced") {
        curStage = d.stage;
        if (d.stage === 1) {
          turnBounds.push(ev.seq);
          curRound = d.round;
          curTurn = d.turn;
        }
      }
    }
    closeTurn();
    turnBounds.push(total);
    nav.addEventListener("click", (e) => {
      const a = e.target.closest && e.target.closest("a[data-step]");
      if (!a) return;
      e.preventDefault();
      go(Number(a.dataset.step));
    });
    markMove(step);
  }

  function markMove(k) {
    const nav = $("moves");
    for (const a of nav.querySelectorAll("a[aria-current]")) a.removeAttribute("aria-current");
    const a = moveLinks.get(k);
    if (!a) return;
    a.setAttribute("aria-current", "step");
    // Keep the current step in view inside the list, without scrolling the page.
    const top = a.offsetTop; // .moves is positioned: offsets are inside it
    if (top < nav.scrollTop || top > nav.scrollTop + nav.clientHeight - a.offsetHeight) {
      nav.scrollTop = Math.max(0, top - nav.clientHeight / 2);
    }
  }

  function turnStep(dir) {
    if (dir > 0) return turnBounds.find((b) => b > wanted) ?? total;
    return [...turnBounds].reverse().find((b) => b < wanted) ?? 1;
  }

  // -- autoplay ---------------------------------------------------------------------
  function setPlaying(on) {
    playing = on;
    $("play-btn").textContent = on ? "Pause" : "▶ Play";
    $("play-btn").setAttribute("aria-pressed", on ? "true" : "false");
  }

  function stop() {
    clearTimeout(playTimer);
    setPlaying(false);
  }

  function tick() {
    if (!playing) return;
    if (step >= total) {
      stop();
      return;
    }
    show(step + 1).then(() => {
      if (playing) playTimer = setTimeout(tick, Number($("speed").value));
    });
  }

  function togglePlay() {
    if (playing) {
      stop();
      return;
    }
    if (step >= total) show(1);
    setPlaying(true);
    playTimer = setTimeout(tick, Number($("speed").value));
  }

  // -- the score chart ----------------------------------------------------------------
  const SVGNS = "http://www.w3.org/2000/svg";
  const CW = 300, CH = 130, L = 30, R = 8, T = 10, BOT = 18;
  let chartX = null;

  function svgEl(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    parent.appendChild(node);
    return node;
  }

  function drawChart() {
    const svg = $("chart");
    const values = series.flat().concat([0]);
    const lo = Math.min(...values);
    const hi = Math.max(...values, lo + 1);
    chartX = (k) => L + ((CW - L - R) * (k - 1)) / Math.max(1, total - 1);
    const y = (v) => T + ((CH - T - BOT) * (hi - v)) / (hi - lo);
    svgEl("line", { class: "axis", x1: L, y1: y(0), x2: CW - R, y2: y(0) }, svg);
    svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: CH - BOT }, svg);
    const label = (text, attrs) => {
      const t = svgEl("text", attrs, svg);
      t.textContent = text;
    };
    label(String(hi), { x: L - 4, y: y(hi) + 4, "text-anchor": "end" });
    label(String(lo), { x: L - 4, y: y(lo) + 4, "text-anchor": "end" });
    label("step 1", { x: L, y: CH - 4 });
    label(`step ${total}`, { x: CW - R, y: CH - 4, "text-anchor": "end" });
    for (const seat of [1, 2]) {
      const pts = series.map((s, i) => `${chartX(i + 1).toFixed(1)},${y(s[seat - 1]).toFixed(1)}`).join(" ");
      svgEl("polyline", { class: `score score-${seat}`, points: pts }, svg);
    }
    svgEl("line", { id: "chart-marker", class: "marker", x1: L, y1: T - 4, x2: L, y2: CH - BOT }, svg);
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const vx = ((e.clientX - box.left) / box.width) * CW;
      stop();
      show(1 + ((vx - L) / (CW - L - R)) * (total - 1));
    });
  }

  function markChart(k) {
    const m = $("chart-marker");
    if (!m) return;
    m.setAttribute("x1", chartX(k));
    m.setAttribute("x2", chartX(k));
    m.setAttribute("data-step", String(k));
    const s = series[k - 1];
    $("chart").setAttribute("aria-label", s ? `Scores over time; at step ${k}: ${s[0]} – ${s[1]}` : "Scores over time");
  }

  // -- input --------------------------------------------------------------------------
  function go(k) {
    stop();
    show(k);
  }

  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target && e.target.tagName;
    if (tag === "SELECT") return;
    if (tag === "INPUT" && e.key !== " ") return; // the slider has its own arrows, Home, End
    // A focused button or link keeps its own Enter / Space.
    if ((tag === "BUTTON" || tag === "A") && (e.key === "Enter" || e.key === " ")) return;
    if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      e.preventDefault();
      go(turnStep(e.key === "ArrowRight" ? 1 : -1));
      return;
    }
    const handlers = {
      ArrowLeft: () => go(wanted - 1),
      ArrowRight: () => go(wanted + 1),
      PageUp: () => go(turnStep(-1)),
      PageDown: () => go(turnStep(1)),
      Home: () => go(1),
      End: () => go(total),
      " ": togglePlay,
    };
    const h = handlers[e.key];
    if (!h) return;
    e.preventDefault();
    h();
  }

  function init() {
    const click = (id, fn) => $(id).addEventListener("click", (e) => {
      e.currentTarget.blur();
      fn();
    });
    click("first-btn", () => go(1));
    click("prev-btn", () => go(wanted - 1));
    click("next-btn", () => go(wanted + 1));
    click("last-btn", () => go(total));
    click("prev-turn-btn", () => go(turnStep(-1)));
    click("next-turn-btn", () => go(turnStep(1)));
    click("play-btn", togglePlay);
    $("slider").addEventListener("input", () => go(Number($("slider").value)));
    $("speed").addEventListener("change", (e) => e.currentTarget.blur());
    document.addEventListener("keydown", onKey);
    drawChart();
    loadEvents().then(() => {
      // An online game's second seat is named by its seat_claimed event.
      for (const ev of events) if (ev.type === "seat_claimed") names[ev.data.seat] = ev.data.name;
      buildMoves();
      show(wanted);
    }).catch((e) => showError(e.message));
    show(step);
  }

  init();
})();
