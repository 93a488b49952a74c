/* Squares: wording shared by the pages. */

/* A message as a page shows it: its first letter a capital (the API's messages
   start in lowercase; the API keeps them so). */
export function sentence(message) {
  const s = String(message ?? "");
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/* "1 line", "3 lines". */
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/* Points with their sign: "+2", "−5", "±0". */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
