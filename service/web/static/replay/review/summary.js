/* Squares, the replay page: the review in words: each seat's summary (accuracy,
   stage-1 points taken of the best, points given away, luck) with its largest
   mistakes as links to their steps, and a "?" in the move list at each turn that
   lost points. Links carry data-step; `onPick(step)` follows the summary's. */

import { $, text } from "../../common/dom.js";
import { signed } from "../../common/words.js";
import { names } from "../state.js";
import { lossText, mistakeText } from "./text.js";

function stepLink(content, step, cls, onPick) {
  const a = text("a", content, cls);
  a.href = `?step=${step}`;
  a.dataset.step = String(step);
  if (onPick) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      onPick(step);
    });
  }
  return a;
}

/* A figure with what it means on a line of its own, under it: the term a <dfn>,
   the value, then the explanation (a second <dd>, the value's description). */
function fact(dl, term, value, help, id) {
  const div = document.createElement("div");
  div.className = "review-fact";
  const dt = document.createElement("dt");
  dt.appendChild(text("dfn", term));
  div.appendChild(dt);
  const dd = text("dd", value, "review-value");
  dd.id = id;
  dd.setAttribute("aria-describedby", `${id}-help`);
  div.appendChild(dd);
  const why = text("dd", help, "review-help");
  why.id = `${id}-help`;
  div.appendChild(why);
  dl.appendChild(div);
  return div;
}

function seatBox(seat, byTurn, onPick) {
  const box = document.createElement("div");
  box.className = `review-seat seat-${seat.seat}`;
  box.id = `review-seat-${seat.seat}`;
  box.appendChild(text("h3", names[seat.seat] || `Seat ${seat.seat}`, `who-${seat.seat}`));
  const dl = document.createElement("dl");
  dl.className = "grid";
  const id = (what) => `review-${seat.seat}-${what}`;
  // What each figure counts (docs/playing.md, "The review"): accuracy is stage 1's,
  // 100 % only when no stage-1 point was lost; stage 2's gifts are "Given away".
  fact(dl, "Accuracy", seat.accuracy === null ? "—" : `${seat.accuracy} %`,
    "Stage 1 only: the share of the points within reach that were taken.", id("accuracy"))
    .classList.add("review-accuracy");
  fact(dl, "Stage 1", `${seat.gained} of ${seat.best}`,
    "Points taken in stage 1, of the most each turn offered.", id("stage1"));
  fact(dl, "Given away", String(seat.given_away),
    "Stage 2: points the extra lines left the opponent, beyond the least any line would.", id("given"));
  fact(dl, "Luck", signed(seat.luck),
    "What the random lines put within reach (+) or took away (−): no choice of the player's.", id("luck"));
  box.appendChild(dl);
  if (!seat.mistakes.length) {
    box.appendChild(text("p", "No mistakes.", "review-none muted"));
    return box;
  }
  box.appendChild(text("p", "Largest mistakes: one in stage 1 lowers the accuracy, one in stage 2 counts in Given away.",
    "review-help review-mistakes-help"));
  const list = document.createElement("ol");
  list.className = "mistakes";
  list.setAttribute("aria-label", `${names[seat.seat] || `Seat ${seat.seat}`}'s largest mistakes`);
  for (const m of seat.mistakes) {
    const li = document.createElement("li");
    li.appendChild(stepLink(mistakeText(m, byTurn.get(m.turn)), m.start_seq, "mistake-link", onPick));
    li.appendChild(text("span", ` −${m.lost}`, "mistake-lost"));
    list.appendChild(li);
  }
  box.appendChild(list);
  return box;
}

export function fillSummary(review, onPick) {
  const root = $("review-seats");
  while (root.firstChild) root.removeChild(root.firstChild);
  const byTurn = new Map(review.turns.map((t) => [t.turn, t]));
  for (const seat of review.seats) root.appendChild(seatBox(seat, byTurn, onPick));
  if (!review.exact) {
    const n = review.turns.filter((t) => t.exact === false).length;
    const which = n === 1 ? "1 turn is" : `${n} turns are`;
    root.appendChild(text("p", `${which} approximate: their searches stopped at the review's work budget, so their best is the best found.`, "muted review-approximate"));
  }
}

/* A "?" after the head of every turn in the move list that lost points. */
export function markMistakes(turns) {
  const nav = $("moves");
  for (const old of nav.querySelectorAll(".mistake-mark")) old.remove();
  for (const t of turns) {
    if (t.lost <= 0) continue;
    const li = nav.querySelector(`li.turn[data-round="${t.round}"][data-seat="${t.seat}"]`);
    const head = li && li.querySelector(".turn-head");
    if (!head) continue;
    // The move list follows its own a[data-step] links (moves.js).
    const mark = stepLink("?", t.start_seq, "mistake-mark", null);
    mark.title = `Review: ${lossText(t)}`;
    mark.setAttribute("aria-label", `Mistake: ${lossText(t)}`);
    head.after(mark);
  }
}
