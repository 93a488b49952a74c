/* Squares, the play page: applying a move's events to the page. `applyMoveResult` is
   the one entry point for every change of the game: the player's own actions (the
   answer to their request), the computer's turn, and the events of the live feed
   (an online opponent, another tab, another browser). */

import { describeEvent, penaltyOf, pt } from "../common/captions.js";
import { $ } from "../common/dom.js";
import { addPiece, addPlan, fillPieces, fillPlans, seatLetter, seatName } from "../common/panels.js";
import { nt, t } from "../common/i18n.js";
import { autoOn } from "./auto.js";
import { flash, render, resultWords, showPlaying } from "./panel.js";
import { showScores } from "./scores.js";
import { play } from "../common/sound.js";
import { S, canPlay, isComputer, mySeat, names, online, otherSide, recordSeqs, trackTurn, youOf } from "./state.js";
import { keepInView } from "./inview.js";
import { noteMove } from "./zoom.js";

const STEP_MS = 300; // pace of an animated turn (the computer's, an opponent's, the random pieces)

export function makeAnimation() {
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

function setField(field, v) {
  for (const n of $("status").querySelectorAll(`[data-field="${field}"]`)) n.textContent = String(v);
}

function tallyBoxes() {
  const count = (cls) => $("board").querySelectorAll(`.box.${cls}`).length;
  setField("squares1", count("own-P"));
  setField("squares2", count("own-C"));
  setField("ownerless", count("own-O"));
}

/* A line's sound: the other side's move, else this page's player's penalty, square
   won or plain line (common/sound.js; nothing unless sound is on). */
function soundOf(d, letter) {
  if (otherSide(d.seat)) return "other";
  if (penaltyOf(d)) return "penalty";
  return d.squares.some((q) => q[2] === letter) ? "square" : "line";
}

/* Draw one event onto the board and the panel (the final state still comes from
   the server). `n` maps seat -> name. */
function drawEvent(ev, n) {
  const d = ev.data || {};
  const board = S.board;
  if (ev.type === "line_placed") {
    const letter = seatLetter(S.state, d.seat);
    play(soundOf(d, letter));
    board.setLine(d.x, d.y, letter, "cur");
    for (const [x, y, owner] of d.squares) board.setBox(x, y, owner, "cur");
    const won = d.squares.filter((q) => q[2] === letter).length;
    const delta = won - penaltyOf(d);
    if (delta) {
      const next = S.shown.slice();
      next[d.seat - 1] += delta;
      showScores(next);
    }
    tallyBoxes();
  } else if (ev.type === "piece_inserted") {
    for (const [x, y] of d.lines) board.setLine(x, y, "R", "cur");
    for (const [x, y] of d.squares) board.setBox(x, y, ":", "cur");
    addPiece($("pieces"), d);
    tallyBoxes();
  } else if (ev.type === "stage_advanced") {
    if (d.stage === 1) board.newTurn();
    // A new turn's list starts empty: the pieces shown are always the player's to move.
    if (d.stage === 1 || d.stage === 3) fillPieces($("pieces"), []);
    setField("stage", d.stage);
    setField("round", d.round);
    setField("turn", n[d.turn] || "");
    $("advance-btn").textContent = d.stage === 3 ? t("End turn ⏎") : t("Next stage ⏎");
  } else if (ev.type === "move_explained") {
    S.plans = addPlan(S.plans, ev);
    fillPlans($("ai-box"), S.plans, S.state);
    $("last-title").textContent = t("{name}'s turn", { name: n[d.seat] || "" });
    $("last-box").hidden = false;
  } else if (ev.type === "seat_claimed") {
    n[d.seat] = d.name;
    setField(`name${d.seat}`, d.name);
  }
}

/* What a player's own action did, in words (RULES T2, T3, T4), with its kind
   ("good", "penalty" or "info") for the message's colour. */
function feedback(events, st) {
  const parts = [];
  let kind = "info";
  // A move that ends the game: what it did and the result, no instruction to go on.
  const end = events.find((ev) => ev.type === "game_over");
  const tell = (s) => {
    if (!end) parts.push(s);
  };
  const squares = (list) => list.map((q) => pt(q[0], q[1])).join(t(" and "));
  for (const ev of events) {
    const d = ev.data || {};
    const you = youOf(st, d.seat);
    const letter = seatLetter(st, d.seat);
    if (ev.type === "line_placed") {
      const won = d.squares.filter((q) => q[2] === letter);
      const lost = d.squares.filter((q) => q[2] !== letter);
      if (penaltyOf(d)) {
        kind = "penalty";
        parts.push(t("Irregular square {points}: it is not next to the square your previous line formed, so it belongs to no one and costs {penalty} points (rule T2).",
          { points: squares(lost), penalty: penaltyOf(d) }));
      } else if (won.length) {
        kind = "good";
        const count = won.length;
        parts.push(you === "You"
          ? nt("Square {points}: +{n} for you.", "{n} squares {points}: +{n} for you.", count, { points: squares(won) })
          : nt("Square {points}: +{n} for {name}.", "{n} squares {points}: +{n} for {name}.", count, { points: squares(won), name: you }));
        if (lost.length) parts.push(t("{points} also closed, but is not next to your chain: ownerless, no penalty.", { points: squares(lost) }));
        if (d.stage === 1) tell(t("Close another square next to it, or press Next stage."));
      } else if (d.stage === 2) {
        parts.push(t("Extra line at {point}.", { point: pt(d.x, d.y) }));
        if (d.squares.length) parts.push(t("It closed {points}: squares made in stage 2 belong to no one.", { points: squares(d.squares) }));
        tell(t("Press Next stage for the random pieces."));
      } else {
        parts.push(t("Line at {point}.", { point: pt(d.x, d.y) }));
      }
    } else if (ev.type === "stage_advanced") {
      if (d.reason === "irregular_square") tell(t("Stage 1 is over: now place one extra line anywhere (stage 2)."));
      else if (d.stage === 2) tell(t("Stage 2: place one extra line anywhere. It scores nothing, so try not to leave a square open."));
      else if (d.stage === 3) tell(t("Stage 3: random pieces land on the board; squares they close belong to no one."));
    }
    // piece_inserted: captioned in the pieces list, counted below; game_over: last
  }
  const pieces = events.filter((e) => e.type === "piece_inserted");
  if (pieces.length) {
    const closed = pieces.reduce((count, e) => count + e.data.squares.length, 0);
    const skipped = pieces.filter((e) => e.data.skipped).length;
    let s = nt("{n} piece placed", "{n} pieces placed", pieces.length - skipped);
    if (skipped) s += t(", {n} skipped (no room)", { n: skipped });
    if (closed) s += nt(", {n} ownerless square closed", ", {n} ownerless squares closed", closed);
    // The turn ends by itself unless the player turned that off (play/auto.js).
    const endTurn = t("Press End turn.");
    parts.push(end || autoOn() ? `${s}.` : `${s}. ${endTurn}`);
  }
  // a resignation says its own words (play/resign.js)
  if (end && !events.some((ev) => ev.type === "game_resigned")) parts.push(t("The last line is drawn: game over. {result}.", { result: resultWords(st, end.data) }));
  return { text: parts.join(" "), kind };
}

/* Zoomed: the player's own line and the squares it just won, clear of the edges. */
function keepWonInView(events) {
  const line = [...events].reverse().find((ev) => ev.type === "line_placed" && ev.data.squares.length);
  if (!line) return;
  const d = line.data;
  keepInView([S.board.slot(d.x, d.y), ...d.squares.map(([x, y]) => S.board.box(x, y))]);
}

const TURN_EVENTS = new Set(["line_placed", "piece_inserted", "move_explained", "stage_advanced"]); // a seat's own
const QUIET = new Set(["game_over", "seed_revealed", "high_scores_entered", "game_abandoned",
  "game_resigned", "game_aborted"]); // drawn, not paced

/* After events made elsewhere: the last of them in words, and whose turn it is. */
function remoteSummary(events, n, wasMine, st) {
  // a resignation, not the game_over after it, says what happened
  const last = events.find((ev) => ev.type === "game_resigned")
    || [...events].reverse().find((ev) => !["move_explained", "seed_revealed", "high_scores_entered"].includes(ev.type));
  let text = last ? `${describeEvent(last, n)}.` : "";
  if (!st.over && canPlay(st) && !wasMine) text += " " + t("Your turn.");
  return text.trim();
}

/* A turn's end that gives the turn to the player of this page. */
function handsOver(ev) {
  if (ev.type !== "stage_advanced" || ev.data.stage !== 1 || !S.game.token) return false;
  const seat = ev.data.turn;
  return !isComputer(S.state, seat) && (!online(S.state) || seat === mySeat(S.state));
}

/* Apply the result of a move to the page: `events` (new, in order) and the state
   after them. The player's own lines are explained; random pieces, the computer's
   turn and events made elsewhere (`remote`: they came from the live feed) are
   animated step by step (Escape skips). Events the page already shows (seq not
   above its version) are left out, so none is applied twice. */
export async function applyMoveResult(events, finalState, opts) {
  const remote = Boolean(opts && opts.remote);
  events = events.filter((ev) => ev.seq > S.state.version && ev.seq <= finalState.version);
  if (!events.length) {
    if (finalState.version >= S.state.version) render(finalState);
    return;
  }
  const wasMine = canPlay(S.state);
  const computers = new Set(S.state.seats.filter((s) => s.kind === "computer").map((s) => s.seat));
  const byComputer = (ev) => ev.data && computers.has(ev.data.seat);
  const finalPlans = events.reduce(addPlan, S.plans);
  // The player's own part (before any computer event): explained in words.
  const firstComputer = events.findIndex((ev) => byComputer(ev) && ev.type !== "stage_advanced");
  const own = remote ? [] : firstComputer < 0 ? events : events.slice(0, firstComputer);
  const animate = remote || events.some((ev) => ev.type === "piece_inserted" || byComputer(ev));
  const words = feedback(own.filter((ev) => !byComputer(ev)), S.state);
  const n = names();
  const track = (ev) => {
    recordSeqs([ev.seq]);
    trackTurn(ev);
    noteMove(ev); // the other side's lines off the zoomed board's screen: a marker
  };
  if (!animate) {
    for (const ev of events) {
      drawEvent(ev, n);
      track(ev);
    }
    S.plans = finalPlans;
    render(finalState);
    if (words.text) flash(words.text, words.kind, "feedback");
    keepWonInView(own);
    if (events.some((ev) => ev.type === "game_over")) play("over");
    return;
  }
  S.anim = makeAnimation();
  const a = S.anim;
  $("skip-btn").hidden = false;
  $("board").classList.add("animating");
  // Until the final state is drawn, the panel follows the turn shown, its controls wait.
  // (A stage_advanced first is shown by the loop below, at once.)
  const first = events.find((ev) => TURN_EVENTS.has(ev.type));
  if (first && first.type !== "stage_advanced") showPlaying(S.state, first.data.seat, S.state.stage);
  let narrated = remote; // the computer's turn, or events made elsewhere: told step by step
  // A long burst from elsewhere (a page that was asleep, a reconnect) goes faster.
  const pace = remote ? Math.max(60, Math.min(STEP_MS, 2400 / events.length)) : STEP_MS;
  for (const ev of events) {
    track(ev);
    if (a.skipped) {
      if (ev.type === "seat_claimed") n[ev.data.seat] = ev.data.name;
      continue;
    }
    if (byComputer(ev) && ev.type !== "stage_advanced") narrated = true;
    drawEvent(ev, n);
    if (ev.type === "stage_advanced") showPlaying(S.state, ev.data.turn, ev.data.stage);
    if (QUIET.has(ev.type)) continue;
    if (narrated || ev.type === "piece_inserted") {
      flash(describeEvent(ev, n), "info", remote ? "remote" : "");
      // The turn handed to this page's player: no pause, the final state comes at once.
      if (!handsOver(ev)) await a.wait(pace);
    } else if (words.text) {
      flash(words.text, words.kind, "feedback");
    }
  }
  S.anim = null;
  S.plans = finalPlans;
  $("skip-btn").hidden = true;
  $("board").classList.remove("animating");
  render(finalState);
  if (events.some((ev) => ev.type === "game_over")) play("over");
  if (remote) {
    flash(remoteSummary(events, n, wasMine, finalState), "info", "remote");
  } else if (narrated) {
    flash(finalState.over
      ? t("Game over. {result}. The computer's turn is summed up under Last turn.", { result: resultWords(finalState, finalState) })
      : finalState.mode === "vs_computer"
        ? t("Round {round} — your turn. (The computer's turn is summed up under Last turn.)", { round: finalState.round })
        : t("Round {round} — {name}'s turn. (The computer's turn is summed up under Last turn.)",
          { round: finalState.round, name: seatName(finalState, finalState.turn) }), "info", "turn");
  } else if (words.text) {
    flash(words.text, words.kind, "feedback");
  }
}
