/* Squares, the replay page: the game's data as the page carries it (the
   #replay-data block) and the state the page's modules share. */

import { $ } from "../common/dom.js";

const data = JSON.parse($("replay-data").textContent);
export const gameId = data.game_id;
export const total = data.steps;
export const names = data.names; // {"1": name, "2": name}
export const series = data.series; // [[score1, score2], ...] for steps 1..total

export const R = {
  events: [], // events[k - 1] is the event of step k
  step: data.step, // the step on screen
  wanted: data.step, // the step asked for last (on screen once its state arrives)
};

export function clamp(k) {
  return Math.max(1, Math.min(total, Math.round(k) || 1));
}
