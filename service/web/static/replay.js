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
    $("board").dataset.step = String(k);
    B.fillStatus($("status"), st);
    B.fillPieces($("pieces"), st.last_pieces || []);
    B.fillPlans($("ai-box"), events.length >= k ? B.plansOf(events.slice(0, k)) : B.plansOfState(st));
    const ev = events[k - 1] || answer.event;
    $("step-desc").textContent = ev ? `Step ${k}: ${B.describeEvent(ev, names)}` : `Step ${k}`;
    markChart(k);
    $("prev-btn").disabled = k <= 1;
    $("first-btn").disabled = k <= 1;
    $("next-btn").disabled = k >= total;
    $("last-btn").disabled = k >= total;
    // Warm the cache for the next step so stepping and autoplay stay smooth.
    if (k < total) stateAt(k + 1).catch(() => {});
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
    const handlers = {
      ArrowLeft: () => go(wanted - 1),
      ArrowRight: () => go(wanted + 1),
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
    click("play-btn", togglePlay);
    $("slider").addEventListener("input", () => go(Number($("slider").value)));
    $("speed").addEventListener("change", (e) => e.currentTarget.blur());
    document.addEventListener("keydown", onKey);
    drawChart();
    loadEvents().then(() => show(wanted)).catch((e) => showError(e.message));
    show(step);
  }

  init();
})();
