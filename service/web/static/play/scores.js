/* Squares, the play page: the scores in the status panel, which count to their new
   value with a +1 / −5 badge, and the game-over box with the high scores. */

import { t } from "../common/i18n.js";
import { api, ApiError } from "../common/api.js";
import { $, text } from "../common/dom.js";
import { setMessage } from "../common/message.js";
import { overResult, seatName } from "../common/panels.js";
import { finished } from "../common/store.js";
import { levelWord, signed } from "../common/words.js";
import { showAgain } from "./again.js";
import { barScores } from "./scorebar.js";
import { S, mySeat, youSeat } from "./state.js";
import { zoom } from "./zoom.js";

// -- the score: it counts to its new value, with a +1 / −5 badge ------------------------
const countTimers = [null, null];

export function showScores(scores) {
  for (const seat of [1, 2]) {
    const to = scores[seat - 1];
    const from = S.shown[seat - 1];
    if (to !== from) animateScore(seat, from, to);
    else if (countTimers[seat - 1] === null) $(`st-score${seat}`).textContent = String(to);
  }
}

function animateScore(seat, from, to) {
  const dd = $(`st-score${seat}`);
  S.shown[seat - 1] = to;
  clearInterval(countTimers[seat - 1]);
  const delta = to - from;
  for (const old of dd.parentElement.querySelectorAll(".delta")) old.remove();
  const badge = text("span", signed(delta), `delta ${delta > 0 ? "up" : "down"}`);
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
    barScores(S.shown.map((n, i) => (i === seat - 1 ? value : Number($(`st-score${i + 1}`).textContent))));
    if (value === to) {
      clearInterval(countTimers[seat - 1]);
      countTimers[seat - 1] = null;
    }
  }, Math.max(25, Math.min(90, 450 / Math.abs(delta))));
  dd.dataset.score = String(to);
}

const TABLE_NAMES = { vs_computer: () => t("High scores"), two_players: () => t("Two-player results"), online: () => t("Online results") };

/* The page of the player named `name`: the page's url_for of the name "_"
   (#play-root's data-player-url) with the name percent-encoded in its place. */
function playerUrl(name) {
  const pattern = $("play-root").dataset.playerUrl || "";
  return pattern.endsWith("_") ? pattern.slice(0, -1) + encodeURIComponent(name) : "";
}

/* "Players' pages: Ann · Bob" under the result: a link to each human seat's page. */
function showPlayerLinks(st) {
  const box = $("over-players");
  while (box.firstChild) box.removeChild(box.firstChild);
  const humans = st.seats.filter((s) => s.kind === "human" && s.name && playerUrl(s.name));
  box.hidden = humans.length === 0;
  if (box.hidden) return;
  box.append(humans.length === 1 ? t("Player's page: ") : t("Players' pages: "));
  humans.forEach((s, i) => {
    if (i) box.append(" · ");
    const a = text("a", s.name, `player-link who-${s.seat}`);
    a.href = playerUrl(s.name);
    box.appendChild(a);
  });
}

/* A daily challenge's game over: its place in today's ranking (docs/rules.md, the daily
   challenge), or that it was practice. */
async function showDailyRank(st) {
  const line = $("over-daily");
  if (!st.daily) return;
  line.hidden = false;
  if (st.practice) {
    line.textContent = t("A practice game of the daily challenge: only your first game of the day is ranked.");
    return;
  }
  try {
    const day = await api("GET", "/api/daily");
    const entry = day.ranking.find((e) => e.game_id === st.game_id);
    line.textContent = entry
      ? t("Today's rank: {place} of {count}", { place: entry.place, count: day.ranked_players })
      : t("Your ranked attempt of the daily challenge: its day is over, see the daily page.");
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    line.hidden = true;
  }
}

/* Game over: the result, links to the players' pages and what to do next at the top
   (again.js); in the panel the high scores of the game's mode and field size (RULES
   E1, M2: the game beside games of its size), the player's own rows marked. */
export async function showOver(st) {
  finished(st.game_id);
  const box = $("over");
  const shown = !box.hidden;
  box.hidden = false;
  const result = overResult(st, youSeat(st));
  $("over-title").textContent = result.title;
  $("over-result").textContent = result.line;
  showPlayerLinks(st);
  showDailyRank(st);
  if (!shown) {
    showAgain(st);
    if (S.zoomed) zoom(false); // the whole final board
    if (box.getBoundingClientRect().top < 0) box.scrollIntoView({ block: "start" });
  }
  $("over-scores").hidden = false;
  const mode = TABLE_NAMES[st.mode] ? st.mode : "vs_computer";
  // The main table ranks each level apart (docs/rules.md): the game beside its level's.
  const level = st.mode === "vs_computer" && st.difficulty ? st.difficulty : "";
  const caption = { table: TABLE_NAMES[mode](), height: st.height, width: st.width, level: levelWord(level) };
  $("over-caption").textContent = level ? t("{table} on {height} × {width}, {level} level", caption)
    : t("{table} on {height} × {width}", caption);
  const tbody = $("over-table").querySelector("tbody");
  let rows = [];
  try {
    // Room for the player's own rows below the top 10.
    const query = `limit=100&mode=${mode}&height=${st.height}&width=${st.width}`
      + (level ? `&difficulty=${encodeURIComponent(level)}` : "");
    rows = (await api("GET", `/api/highscores?${query}`)).high_scores;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    setMessage(e.message, "error", e.code);
  }
  while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
  const me = mySeat(st);
  rows.forEach((row, i) => {
    const mine = row.game_id === st.game_id;
    if (i >= 10 && !mine) return;
    const tr = document.createElement("tr");
    if (mine) tr.className = "mine";
    const you = mine && S.game.token && (me === null || row.name === seatName(st, me));
    tr.appendChild(text("td", String(row.rank ?? i + 1)));
    // the name links to its player's page (the API's player_url: entries of a game)
    const name = document.createElement("td");
    if (typeof row.player_url === "string" && row.player_url) {
      const a = text("a", row.name, "player-link");
      a.href = row.player_url;
      name.appendChild(a);
    } else {
      name.textContent = row.name;
    }
    if (you) name.append("  " + t("◀ you"));
    tr.appendChild(name);
    tr.appendChild(text("td", String(row.score)));
    tr.appendChild(text("td", levelWord(row.difficulty)));
    tbody.appendChild(tr);
  });
  tbody.dataset.loaded = "true";
}
