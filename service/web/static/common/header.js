/* Squares: the visitor's toggles on every page (_prefs.html: in the header, on a phone
   in the footer; every copy kept in step). Dark mode: pressed in the dark scheme, and
   labelled with what a press does ("Dark mode" / "Light mode", shown by style.css
   from <html data-theme>); a press makes the other scheme this browser's choice,
   remembered (localStorage "squares.theme"; common/theme.js applies it before each
   first paint and otherwise follows the system's prefers-color-scheme). Sound: off
   by default, pressed while on (common/sound.js), remembered; turning it on plays a
   line's sound. The "High scores" link opens the table of the game last played in
   this browser (common/store.js, "squares.table"), else the default table. */

import { $ } from "./dom.js";
import { play, setSound, soundOn } from "./sound.js";
import { lastTable } from "./store.js";

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

function syncScoresLink() {
  const table = lastTable();
  const link = $("nav-highscores");
  if (!table || !link) return;
  const url = new URL(link.href);
  url.search = new URLSearchParams({ size: table.size, mode: table.mode }).toString();
  link.href = url.pathname + url.search;
}

document.addEventListener("squares:table", syncScoresLink);
syncScoresLink();
