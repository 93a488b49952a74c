/* Squares: events and points in words, for the captions of the play, watch and
   replay pages. Plain strings: the pages set them with textContent. */

import { extraLineWords, plural, pt, squaringWords } from "./words.js";

export { pt }; // a point (x, y), as the captions write it
/* The points a line_placed event cost (older streams said `true` for 5). */
export const penaltyOf = (d) => (d.penalty === true ? 5 : Number(d.penalty) || 0);

/* How a game's seed is known, from its game_created data, as a sentence a spectator
   reads: a practice game's chosen seed, or a ranked game's seed sealed (its
   commitment) until seed_revealed; the games from before commitments show theirs.
   Never "null" or "undefined". */
export function seedSentence(d) {
  if (d.ranked === false) return ` Its seed is ${d.seed}: the same seed plays the same game again.`;
  if (d.seed !== null && d.seed !== undefined) return ` Its seed is ${d.seed}.`;
  if (d.seed_commitment) return " The random pieces are sealed: the seed is revealed when the game ends.";
  return "";
}

/* One event of the HTTP contract in words; `names` maps seat -> name. */
export function describeEvent(ev, names) {
  const d = ev.data || {};
  const who = (seat) => names[seat] || `Seat ${seat}`;
  const at = (p) => pt(p[0], p[1]);
  switch (ev.type) {
    case "game_created": {
      const lines = d.initial_lines.length ? `, with ${plural(d.initial_lines.length, "random line")} already drawn` : "";
      const kind = d.ranked === false ? "A new practice game" : "A new game";
      return `${kind} on a ${d.height} × ${d.width} field${lines}.${seedSentence(d)}`;
    }
    case "line_placed": {
      let s = `${who(d.seat)} placed a line at ${pt(d.x, d.y)}`;
      if (d.squares.length) {
        const sq = d.squares.map((q) => at(q) + (q[2] === ":" ? " ownerless" : ""));
        s += ` — square${d.squares.length > 1 ? "s" : ""} at ${sq.join(", ")}`;
      }
      if (penaltyOf(d)) s += ` — irregular, −${penaltyOf(d)} points`;
      if (d.stage === 2) s += " (stage 2 extra line)";
      return s;
    }
    case "stage_advanced":
      if (d.stage === 1) return `${who(d.seat)} ended the turn — round ${d.round}, ${who(d.turn)} to move`;
      if (d.reason === "irregular_square") return `${who(d.seat)}'s stage 1 ended by an irregular square — stage 2`;
      return `${who(d.seat)} moved on to stage ${d.stage}`;
    case "piece_inserted": {
      const what = `Random piece: ${plural(d.size, "line")}`;
      if (d.skipped) return `${what} — skipped after ${d.tries} tries`;
      let s = `${what} at ${d.lines.map(at).join(", ")}`;
      if (d.squares.length) s += ` — ownerless square${d.squares.length > 1 ? "s" : ""} at ${d.squares.map(at).join(", ")}`;
      return s;
    }
    case "move_explained": // in plain words; the assignment's BestPoint ... in "Computer's reasoning"
      return `${who(d.seat)}'s plan: ${d.stage === 1 ? squaringWords(d) : extraLineWords(d)}`;
    case "game_over": {
      const result = d.winner === 0 ? "a draw" : `${who(d.winner)} wins`;
      return `Game over: ${who(1)} ${d.scores[0]} – ${d.scores[1]} ${who(2)}, ${result}`;
    }
    case "seat_claimed":
      return `${d.name} joined`;
    case "hint_used":
      return `${who(d.seat)} asked for a hint: the game is assisted, in no high score table`;
    case "high_scores_entered":
      return `High score table: ${d.entries.map((e) => `${e.name} ${e.score}`).join(", ")}`;
    case "seed_revealed":
      return `The seed is revealed: ${d.seed}, the one sealed at the start.`;
    case "game_abandoned":
      return d.reason === "invite_expired" ? "Abandoned: the invitation expired before anyone joined"
        : "Abandoned: nobody moved for too long";
    case "game_resigned":
      return `${who(d.seat)} resigned`;
    case "game_aborted":
      return `${who(d.seat)} aborted the game: no result`;
    default:
      return ev.type;
  }
}

