/* Squares, the replay page: the score chart, both seats' scores over the steps, with
   a marker at the step on screen; a click on the chart goes to that step. */

import { t } from "../common/i18n.js";
import { $, svgEl } from "../common/dom.js";
import { go } from "./bus.js";
import { series, total } from "./state.js";

const CW = 300, CH = 130, L = 30, R = 8, T = 10, BOT = 18;
let chartX = null;

export function drawChart() {
  const svg = $("chart");
  const values = series.flat().concat([0]);
  const lo = Math.min(...values);
  const hi = Math.max(...values, lo + 1);
  chartX = (k) => L + ((CW - L - R) * (k - 1)) / Math.max(1, total - 1);
  const y = (v) => T + ((CH - T - BOT) * (hi - v)) / (hi - lo);
  svgEl("line", { class: "axis", x1: L, y1: y(0), x2: CW - R, y2: y(0) }, svg);
  svgEl("line", { class: "axis", x1: L, y1: T, x2: L, y2: CH - BOT }, svg);
  const label = (text, attrs) => {
    const node = svgEl("text", attrs, svg);
    node.textContent = text;
  };
  label(String(hi), { x: L - 4, y: y(hi) + 4, "text-anchor": "end" });
  label(String(lo), { x: L - 4, y: y(lo) + 4, "text-anchor": "end" });
  label(t("step {k}", { k: 1 }), { x: L, y: CH - 4 });
  label(t("step {k}", { k: total }), { x: CW - R, y: CH - 4, "text-anchor": "end" });
  for (const seat of [1, 2]) {
    const pts = series.map((s, i) => `${chartX(i + 1).toFixed(1)},${y(s[seat - 1]).toFixed(1)}`).join(" ");
    svgEl("polyline", { class: `score score-${seat}`, points: pts }, svg);
  }
  svgEl("line", { id: "chart-marker", class: "marker", x1: L, y1: T - 4, x2: L, y2: CH - BOT }, svg);
  svg.addEventListener("click", (e) => {
    const box = svg.getBoundingClientRect();
    const vx = ((e.clientX - box.left) / box.width) * CW;
    go(1 + ((vx - L) / (CW - L - R)) * (total - 1));
  });
}

export function markChart(k) {
  const m = $("chart-marker");
  if (!m) return;
  m.setAttribute("x1", chartX(k));
  m.setAttribute("x2", chartX(k));
  m.setAttribute("data-step", String(k));
  const s = series[k - 1];
  $("chart").setAttribute("aria-label", s ? t("Scores over time; at step {k}: {score1} – {score2}", { k, score1: s[0], score2: s[1] })
    : t("Scores over time"));
}
