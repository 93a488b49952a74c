/* Squares, the play page: the lines the game refuses now, known from the state the
   page holds (its `legal` lines and the lines drawn), so the page says why at once
   and sends no move it knows is refused. A refused move is an answer, not a failure,
   but the browser logs every 4xx response in its console by itself: refusals the page
   can see coming stay off the network (and out of the console). The words and codes
   are those of the server's refusals (service/domain/rules.py), which still decide
   every move sent: the page refuses only what the state it shows rules out. */

import { t } from "../common/i18n.js";
import { pt } from "../common/captions.js";

/* {code, message} of the refusal of a line at (x, y) in the state `st`, or null when
   the page cannot tell (the move is sent and the server answers). */
export function lineRefusal(st, x, y) {
  if (!st || !st.legal || st.legal.seat === null || st.over) return null;
  if (st.legal.lines.some(([lx, ly]) => lx === x && ly === y)) return null;
  if (st.lines.some((line) => line.x === x && line.y === y)) {
    return { code: "slot_taken", message: t("the line at {point} is already drawn", { point: pt(x, y) }) };
  }
  if (st.stage === 3) {
    return { code: "wrong_stage", message: t("stage 3 places random pieces; press End turn") };
  }
  if (st.stage === 2) {
    return { code: "stage2_line_done", message: t("stage 2 allows exactly one line; press Next stage") };
  }
  if (st.stage === 1) {
    return { code: "stage1_needs_square", message: t("in stage 1 every line must close a square") };
  }
  return null;
}
