/* Squares, the replay page: its controls: the buttons, the slider, the speed and the
   keys (← → a step, Shift+← → or Page Up / Down a turn, Home / End, Space play /
   pause). Going to a step by hand (with these, or with bus.js's `go` from the move
   list, the score chart and the review) stops the autoplay; so does a step that
   cannot be loaded. */

import { $ } from "../common/dom.js";
import { stop, togglePlay } from "./autoplay.js";
import { on } from "./bus.js";
import { turnStep } from "./moves.js";
import { R, total } from "./state.js";
import { show } from "./step.js";

function go(k) {
  stop();
  show(k);
}

function onKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = e.target && e.target.tagName;
  if (tag === "SELECT") return;
  if (tag === "INPUT" && e.key !== " ") return; // the slider has its own arrows, Home, End
  // A focused button or link keeps its own Enter / Space.
  if ((tag === "BUTTON" || tag === "A") && (e.key === "Enter" || e.key === " ")) return;
  if (e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
    e.preventDefault();
    go(turnStep(e.key === "ArrowRight" ? 1 : -1));
    return;
  }
  const handlers = {
    ArrowLeft: () => go(R.wanted - 1),
    ArrowRight: () => go(R.wanted + 1),
    PageUp: () => go(turnStep(-1)),
    PageDown: () => go(turnStep(1)),
    Home: () => go(1),
    End: () => go(total),
    " ": togglePlay,
  };
  const h = handlers[e.key];
  if (!h) return;
  e.preventDefault();
  h();
}

export function initControls() {
  on("go", go);
  on("failed", stop);
  const click = (id, fn) => $(id).addEventListener("click", (e) => {
    e.currentTarget.blur();
    fn();
  });
  click("first-btn", () => go(1));
  click("prev-btn", () => go(R.wanted - 1));
  click("next-btn", () => go(R.wanted + 1));
  click("last-btn", () => go(total));
  click("prev-turn-btn", () => go(turnStep(-1)));
  click("next-turn-btn", () => go(turnStep(1)));
  click("play-btn", togglePlay);
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("speed").addEventListener("change", (e) => e.currentTarget.blur());
  document.addEventListener("keydown", onKey);
}
