/* Squares, the replay page: the move list, round -> turn -> stage -> steps, each step
   a link (?step=k), with each turn's points; the current step marked and kept in
   view (but a replay opened on its final position shows the list from its start);
   the steps where turns begin, for the turn-by-turn controls. */

import { t } from "../common/i18n.js";
import { describeEvent, penaltyOf, pt } from "../common/captions.js";
import { $, text } from "../common/dom.js";
import { signed } from "../common/words.js";
import { go } from "./bus.js";
import { R, names, total } from "./state.js";

const END = new Set(["game_over", "seed_revealed", "high_scores_entered", "game_abandoned",
  "game_resigned", "game_aborted"]);
let turnBounds = [1]; // the steps where a turn ends (and the next begins), with 1 and total
const moveLinks = new Map(); // step -> its link in the list
// The page opened on the final position (what a replay link opens): the list stays
// at its start, where the game begins, until another step is shown; its end (game
// over, the seed, the high scores) is what the board and the caption show already.
let atStart = false;

function shortLabel(ev) {
  const d = ev.data || {};
  switch (ev.type) {
    case "line_placed": {
      const letter = d.seat === 1 ? "P" : "C";
      const won = d.squares.filter((q) => q[2] === letter).length;
      const pen = penaltyOf(d);
      let s = pt(d.x, d.y);
      if (won) s += ` +${won}`;
      if (pen) s += ` −${pen}`;
      else if (d.squares.length > won) s += " :";
      return s;
    }
    case "stage_advanced":
      return d.reason === "irregular_square" ? t("→ stage 2 (irregular)") : d.stage === 1 ? t("end of turn")
        : t("→ stage {stage}", { stage: d.stage });
    case "piece_inserted":
      return d.skipped ? t("piece {size}: skipped", { size: d.size }) : t("piece {size}", { size: d.size });
    case "move_explained":
      return t("plan {stage}", { stage: d.stage });
    case "game_over":
      return t("game over");
    case "high_scores_entered":
      return t("high scores");
    case "game_abandoned":
      return t("abandoned");
    case "game_resigned":
      return t("resigned");
    case "game_aborted":
      return t("aborted");
    case "game_created":
      return d.ranked === false ? t("start: {height} × {width}, practice, seed {seed}", d)
        : t("start: {height} × {width}", d);
    case "seed_revealed":
      return t("seed revealed");
    case "seat_claimed":
      return t("{name} joined", { name: d.name });
    case "hint_used":
      return t("hint (assisted)");
    default:
      return ev.type;
  }
}

export function buildMoves() {
  const nav = $("moves");
  while (nav.firstChild) nav.removeChild(nav.firstChild);
  moveLinks.clear();
  turnBounds = [1];
  const link = (ev) => {
    const a = text("a", shortLabel(ev), `move move-${ev.type}`);
    a.href = `?step=${ev.seq}`;
    a.dataset.step = String(ev.seq);
    a.title = describeEvent(ev, names);
    moveLinks.set(ev.seq, a);
    return a;
  };
  const rounds = document.createElement("ol");
  rounds.className = "rounds";
  let roundLi = null, turnLi = null, stageLi = null, stageList = null;
  let round = 0, seat = 0, stage = 0, turnPoints = 0, turnHead = null;
  const closeTurn = () => {
    const name = names[seat] || t("Seat {seat}", { seat });
    if (turnHead) turnHead.textContent = `${name} ${signed(turnPoints)}`;
  };
  const openTurn = (r, s) => {
    if (r !== round || !roundLi) {
      round = r;
      roundLi = document.createElement("li");
      roundLi.className = "round";
      roundLi.appendChild(text("h3", t("Round {round}", { round: r })));
      const turns = document.createElement("ol");
      turns.className = "turns";
      roundLi.appendChild(turns);
      rounds.appendChild(roundLi);
    }
    seat = s;
    turnPoints = 0;
    turnLi = document.createElement("li");
    turnLi.className = `turn seat-${s}`;
    turnLi.dataset.round = String(r); // how the review finds a turn (review/summary.js)
    turnLi.dataset.seat = String(s);
    turnHead = text("span", "", `turn-head who-${s}`);
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
    stageLi.appendChild(text("span", t("Stage {stage}", { stage: n }), "stage-name"));
    stageList.appendChild(stageLi);
  };
  const first = R.events[0];
  if (first) {
    const start = document.createElement("p");
    start.className = "moves-start";
    start.appendChild(link(first));
    nav.appendChild(start);
  }
  nav.appendChild(rounds);
  // Who moves first: seat 1, or an online game's seat drawn from its seed.
  let curRound = 1, curTurn = (first && first.data && first.data.first_seat) || 1, curStage = 1;
  for (const ev of R.events.slice(1)) {
    const d = ev.data || {};
    if (ev.type === "seat_claimed" && nav.querySelector("p.moves-start")) {
      // An online game's friend joins before the first move: part of the start.
      const start = nav.querySelector("p.moves-start");
      start.appendChild(document.createTextNode(" "));
      start.appendChild(link(ev));
      continue;
    }
    if (END.has(ev.type)) {
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
      turnPoints += d.squares.filter((q) => q[2] === letter).length - penaltyOf(d);
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
  atStart = R.step === total;
  nav.scrollTop = 0;
  markMove(R.step);
}

export function markMove(k) {
  const nav = $("moves");
  for (const a of nav.querySelectorAll("a[aria-current]")) a.removeAttribute("aria-current");
  const a = moveLinks.get(k);
  if (!a) return;
  a.setAttribute("aria-current", "step");
  if (atStart && k === total) return;
  atStart = false;
  // Keep the current step in view inside the list, without scrolling the page.
  const top = a.offsetTop; // .moves is positioned: offsets are inside it
  if (top < nav.scrollTop || top > nav.scrollTop + nav.clientHeight - a.offsetHeight) {
    nav.scrollTop = Math.max(0, top - nav.clientHeight / 2);
  }
}

export function turnStep(dir) {
  if (dir > 0) return turnBounds.find((b) => b > R.wanted) ?? total;
  return [...turnBounds].reverse().find((b) => b < R.wanted) ?? 1;
}
