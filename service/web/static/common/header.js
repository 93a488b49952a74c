/* Squares: the visitor's toggles on every page (_prefs.html: in the header, on a phone
   in the footer; every copy kept in step). Dark mode: pressed in the dark scheme; a
   press makes the other scheme this browser's choice, remembered (localStorage
   "squares.theme"; common/theme.js applies it before each first paint and otherwise
   follows the system's prefers-color-scheme). Sound: off by default, pressed while
   on (common/sound.js), remembered; turning it on plays a line's sound. */

import { play, setSound, soundOn } from "./sound.js";

const THEME_KEY = "squares.theme";
const root = document.documentElement;

const toggles = (pref) => document.querySelectorAll(`[data-pref="${pref}"]`);

function syncTheme() {
  for (const b of toggles("theme")) b.setAttribute("aria-pressed", root.dataset.theme === "dark" ? "true" : "false");
}

function toggleTheme() {
  const next = root.dataset.theme === "dark" ? "light" : "dark";
  try {
    localStorage.setItem(THEME_KEY, next);
  } catch (e) {
    // storage refused (private mode): the choice lasts for this page only
  }
  root.dataset.theme = next;
}

for (const b of toggles("theme")) b.addEventListener("click", toggleTheme);
new MutationObserver(syncTheme).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
syncTheme();

function syncSound() {
  for (const b of toggles("sound")) b.setAttribute("aria-pressed", soundOn() ? "true" : "false");
}

for (const b of toggles("sound")) {
  b.addEventListener("click", () => {
    setSound(!soundOn());
    play("line");
  });
}
document.addEventListener("squares:sound-setting", syncSound);
window.addEventListener("storage", (e) => e.key === "squares.sound" && syncSound());
syncSound();
