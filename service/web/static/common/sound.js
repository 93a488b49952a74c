/* Squares: short sounds made in the browser with Web Audio (oscillators, no files to
   download): a line, a square won, a penalty, the other side's move, game over. Off
   by default; the Sound toggle (common/header.js) turns them on, remembered in
   localStorage "squares.sound". Each sound played is also told to the page as a
   "squares:sound" event (its kind in `detail`), for whoever listens (the tests). */

const KEY = "squares.sound";
const VOLUME = 0.18;

/* Each sound: its notes as [Hz, start s, length s, wave]. */
const SOUNDS = {
  line: [[660, 0, 0.05, "triangle"]],
  square: [[784, 0, 0.08, "sine"], [1047, 0.07, 0.14, "sine"]],
  penalty: [[233, 0, 0.14, "sawtooth"], [175, 0.12, 0.22, "sawtooth"]],
  other: [[440, 0, 0.06, "triangle"]],
  over: [[523, 0, 0.12, "sine"], [659, 0.12, 0.12, "sine"], [784, 0.24, 0.3, "sine"]],
};

let context = null;

export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (e) {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (e) {
    // storage refused: the choice lasts for this page only
  }
  document.dispatchEvent(new CustomEvent("squares:sound-setting", { detail: on }));
}

/* The page's one AudioContext, made (or resumed) on the first sound: browsers let it
   play once the visitor has pressed or tapped something on the page. */
function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/* Play the sound `kind` (a key of SOUNDS) if sound is on. */
export function play(kind) {
  const notes = SOUNDS[kind];
  if (!notes || !soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  const t0 = ctx.currentTime + 0.01;
  for (const [hz, at, length, wave] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(VOLUME, t0 + at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + length + 0.02);
  }
  document.dispatchEvent(new CustomEvent("squares:sound", { detail: kind }));
}
