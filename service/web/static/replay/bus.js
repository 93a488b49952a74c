/* Squares, the replay page: how its parts tell each other what happened without
   importing each other, so that the page's module graph has no cycle:

   "go"      {detail: step} a step was chosen by hand (a button, a key, the move list,
             the score chart, the review); controls.js stops the autoplay and shows it.
   "failed"  a step's state could not be loaded (step.js); the autoplay stops.
   "shown"   {detail: step} a step is on screen (step.js); the review follows it. */

const bus = new EventTarget();

export function on(type, fn) {
  bus.addEventListener(type, (e) => fn(e.detail));
}

export function emit(type, detail) {
  bus.dispatchEvent(new CustomEvent(type, { detail }));
}

/* Go to step `k` (any number: it is rounded into 1..total), stopping the autoplay. */
export const go = (k) => emit("go", k);
