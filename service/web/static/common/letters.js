/* Squares: the letters the board writes in the squares won. The game's data names a
   seat's squares "P" (seat 1) and "C" (seat 2), the player and the computer; against
   the computer the board shows those, and the status panel's "(P)" / "(C)" tags
   explain them. Between two people (online, or two players on one screen) a "C"
   would read as "computer": each seat shows its player's first letter instead, or
   "1" and "2" when the two names start with the same letter (case aside) or one has
   none (an online seat nobody has claimed yet, a name that starts with a sign). An
   ownerless square keeps ":". */

const STARTS_WITH_LETTER = /^[\p{L}\p{N}]/u;

/* The first character a reader sees in `name` (a letter with its accents), capital;
   "" when it is not a letter or digit. */
function initial(name) {
  if (!name) return "";
  const first = typeof Intl !== "undefined" && Intl.Segmenter
    ? new Intl.Segmenter().segment(name)[Symbol.iterator]().next().value.segment
    : [...name][0];
  if (!STARTS_WITH_LETTER.test(first)) return "";
  const upper = first.toUpperCase();
  return [...upper].length === [...first].length ? upper : first; // "ß" stays, not "SS"
}

/* {owner letter of the data: text a won square shows} for the game `state` (a state
   view of the HTTP contract: its mode and seats). */
export function boxLetters(state) {
  const letters = { P: "P", C: "C", ":": ":" };
  if (!state || state.mode === "vs_computer") return letters;
  const name = (seat) => (state.seats.find((s) => s.seat === seat) || {}).name;
  const one = initial(name(1));
  const two = initial(name(2));
  const apart = one && two && one.toLocaleLowerCase() !== two.toLocaleLowerCase();
  letters.P = apart ? one : "1";
  letters.C = apart ? two : "2";
  return letters;
}
