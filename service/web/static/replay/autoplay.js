/* Squares, the replay page: autoplay, one step after another at the chosen speed
   (#speed, milliseconds a step) until the last step or a pause. */

import { t } from "../common/i18n.js";
import { $ } from "../common/dom.js";
import { R, total } from "./state.js";
import { show } from "./step.js";

let playing = false;
let playTimer = null;

function setPlaying(on) {
  playing = on;
  $("play-btn").textContent = on ? t("Pause") : t("▶ Play");
  $("play-btn").setAttribute("aria-pressed", on ? "true" : "false");
}

export function stop() {
  clearTimeout(playTimer);
  setPlaying(false);
}

function tick() {
  if (!playing) return;
  if (R.step >= total) {
    stop();
    return;
  }
  show(R.step + 1).then(() => {
    if (playing) playTimer = setTimeout(tick, Number($("speed").value));
  });
}

export function togglePlay() {
  if (playing) {
    stop();
    return;
  }
  if (R.step >= total) show(1);
  setPlaying(true);
  playTimer = setTimeout(tick, Number($("speed").value));
}
