/* Squares: events and points in words, for the captions of the play, watch and
   replay pages. Plain strings: the pages set them with textContent. */

import { nt, t } from "./i18n.js";
import { extraLineWords, pt, squaringWords } from "./words.js";

export { pt }; // a point (x, y), as the captions write it
/* The points a line_placed event cost (older streams said `true` for 5). */
export const penaltyOf = (d) => (d.penalty === true ? 5 : Number(d.penalty) || 0);

/* How a game's seed is known, from its game_created data, as a sentence a spectator
   reads: a practice game's chosen seed, or a ranked game's seed sealed (its
   commitment) until seed_revealed; the games from before commitments show theirs.
   Never "null" or "undefined". */
export function seedSentence(d) {
  if (d.ranked === false) return " " + t("Its seed is {seed}: the same seed plays the same game again.", { seed: d.seed });
  if (d.seed !== null && d.seed !== undefined) return " " + t("Its seed is {seed}.", { seed: d.seed });
  if (d.seed_commitment) return " " + t("The random pieces are sealed: the seed is revealed when the game ends.");
  return "";
}

/* One event of the HTTP contract in words; `names` maps seat -> name. */
export function describeEvent(ev, names) {
  const d = ev.data || {};
  const who = (seat) => names[seat] || t("Seat {seat}", { seat });
  const at = (p) => pt(p[0], p[1]);
  switch (ev.type) {
    case "game_created": {
      const size = { height: d.height, width: d.width };
      const game = !d.initial_lines.length
        ? (d.ranked === false ? t("A new practice game on a {height} × {width} field.", size)
          : t("A new game on a {height} × {width} field.", size))
        : (d.ranked === false
          ? nt("A new practice game on a {height} × {width} field, with {n} random line already drawn.",
            "A new practice game on a {height} × {width} field, with {n} random lines already drawn.", d.initial_lines.length, size)
          : nt("A new game on a {height} × {width} field, with {n} random line already drawn.",
            "A new game on a {height} × {width} field, with {n} random lines already drawn.", d.initial_lines.length, size));
      return `${game}${seedSentence(d)}`;
    }
    case "line_placed": {
      let s = t("{name} placed a line at {point}", { name: who(d.seat), point: pt(d.x, d.y) });
      if (d.squares.length) {
        const sq = d.squares.map((q) => (q[2] === ":" ? t("{point} ownerless", { point: at(q) }) : at(q)));
        s += nt(" — square at {points}", " — squares at {points}", d.squares.length, { points: sq.join(", ") });
      }
      if (penaltyOf(d)) s += t(" — irregular, −{penalty} points", { penalty: penaltyOf(d) });
      if (d.stage === 2) s += t(" (stage 2 extra line)");
      return s;
    }
    case "stage_advanced":
      if (d.stage === 1) {
        return t("{name} ended the turn — round {round}, {next} to move", { name: who(d.seat), round: d.round, next: who(d.turn) });
      }
      if (d.reason === "irregular_square") return t("{name}'s stage 1 ended by an irregular square — stage 2", { name: who(d.seat) });
      return t("{name} moved on to stage {stage}", { name: who(d.seat), stage: d.stage });
    case "piece_inserted": {
      const what = nt("Random piece: {n} line", "Random piece: {n} lines", d.size);
      if (d.skipped) return t("{piece} — skipped after {tries} tries", { piece: what, tries: d.tries });
      let s = t("{piece} at {points}", { piece: what, points: d.lines.map(at).join(", ") });
      if (d.squares.length) {
        s += nt(" — ownerless square at {points}", " — ownerless squares at {points}", d.squares.length,
          { points: d.squares.map(at).join(", ") });
      }
      return s;
    }
    case "move_explained": // in plain words; the assignment's BestPoint ... in "Computer's reasoning"
      return t("{name}'s plan: {plan}", { name: who(d.seat), plan: d.stage === 1 ? squaringWords(d) : extraLineWords(d) });
    case "game_over": {
      const result = d.winner === 0 ? t("a draw") : t("{name} wins", { name: who(d.winner) });
      return t("Game over: {name1} {score1} – {score2} {name2}, {result}",
        { name1: who(1), score1: d.scores[0], score2: d.scores[1], name2: who(2), result });
    }
    case "seat_claimed":
      return t("{name} joined", { name: d.name });
    case "hint_used":
      return t("{name} asked for a hint: the game is assisted, in no high score table", { name: who(d.seat) });
    case "high_scores_entered":
      return t("High score table: {entries}", { entries: d.entries.map((e) => `${e.name} ${e.score}`).join(", ") });
    case "seed_revealed":
      return t("The seed is revealed: {seed}, the one sealed at the start.", { seed: d.seed });
    case "game_abandoned":
      return d.reason === "invite_expired" ? t("Abandoned: the invitation expired before anyone joined")
        : t("Abandoned: nobody moved for too long");
    case "game_resigned":
      return t("{name} resigned", { name: who(d.seat) });
    case "game_aborted":
      return t("{name} aborted the game: no result", { name: who(d.seat) });
    default:
      return ev.type;
  }
}
