/* Squares, the replay page: the review in words: each seat's summary (accuracy,
   stage-1 points taken of the best, points given away, luck) with its largest
   mistakes as links to their steps, and a "?" in the move list at each turn that
   lost points. Links carry data-step; `onPick(step)` follows the summary's. */

import { nt, t } from "../../common/i18n.js";
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
  const name = names[seat.seat] || t("Seat {seat}", { seat: seat.seat });
  box.appendChild(text("h3", name, `who-${seat.seat}`));
  const dl = document.createElement("dl");
  dl.className = "grid";
  const id = (what) => `review-${seat.seat}-${what}`;
  // What each figure counts (docs/playing.md, "The review"): accuracy is stage 1's,
  // 100 % only when no stage-1 point was lost; stage 2's gifts are "Given away".
  fact(dl, t("Accuracy"), seat.accuracy === null ? "—" : t("{accuracy} %", { accuracy: seat.accuracy }),
    t("Stage 1 only: the share of the points within reach that were taken."), id("accuracy"))
    .classList.add("review-accuracy");
  fact(dl, t("Stage 1"), t("{gained} of {best}", { gained: seat.gained, best: seat.best }),
    t("Points taken in stage 1, of the most each turn offered."), id("stage1"));
  fact(dl, t("Given away"), String(seat.given_away),
    t("Stage 2: points the extra lines left the opponent, beyond the least any line would."), id("given"));
  fact(dl, t("Luck"), signed(seat.luck),
    t("What the random lines put within reach (+) or took away (−): no choice of the player's."), id("luck"));
  box.appendChild(dl);
  if (!seat.mistakes.length) {
    box.appendChild(text("p", t("No mistakes."), "review-none muted"));
    return box;
  }
  box.appendChild(text("p", t("Largest mistakes: one in stage 1 lowers the accuracy, one in stage 2 counts in Given away."),
    "review-help review-mistakes-help"));
  const list = document.createElement("ol");
  list.className = "mistakes";
  list.setAttribute("aria-label", t("{name}'s largest mistakes", { name }));
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
  const byTurn = new Map(review.turns.map((turn) => [turn.turn, turn]));
  for (const seat of review.seats) root.appendChild(seatBox(seat, byTurn, onPick));
  if (!review.exact) {
    const n = review.turns.filter((turn) => turn.exact === false).length;
    root.appendChild(text("p", nt("{n} turn is approximate: their searches stopped at the review's work budget, so their best is the best found.",
      "{n} turns are approximate: their searches stopped at the review's work budget, so their best is the best found.", n),
    "muted review-approximate"));
  }
}

/* A "?" after the head of every turn in the move list that lost points. */
export function markMistakes(turns) {
  const nav = $("moves");
  for (const old of nav.querySelectorAll(".mistake-mark")) old.remove();
  for (const turn of turns) {
    if (turn.lost <= 0) continue;
    const li = nav.querySelector(`li.turn[data-round="${turn.round}"][data-seat="${turn.seat}"]`);
    const head = li && li.querySelector(".turn-head");
    if (!head) continue;
    // The move list follows its own a[data-step] links (moves.js).
    const mark = stepLink("?", turn.start_seq, "mistake-mark", null);
    mark.title = t("Review: {loss}", { loss: lossText(turn) });
    mark.setAttribute("aria-label", t("Mistake: {loss}", { loss: lossText(turn) }));
    head.after(mark);
  }
}
