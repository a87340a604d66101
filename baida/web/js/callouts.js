// Call-outs: 吃, 碰, 杠 and 和 shown large at the seat that made them, for a moment, and a
// won hand shown face up at the table before the settlement opens. Drawn in a layer of their
// own over the felt, so that the board, redrawn at every event, does not cut them short.

import { screenSeats } from "./board.js";
import { h } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { revealedHand } from "./settlement.js";

const SHOW_MS = 1100;    // a claim's call-out
const REVEAL_MS = 1600;  // the won hand, before the settlement opens
const WORDS = { chi: "act.chi", pon: "act.pon", mkong: "act.kong", akong: "act.kong", bukong: "act.kong" };

export function makeCallouts(T) {
  const { s } = T;
  const layer = h("div", { class: "callouts", "aria-hidden": "true" });
  const timers = new Set();
  let lastWin = null;

  function later(fn, ms) {
    const id = setTimeout(() => { timers.delete(id); fn(); }, ms);
    timers.add(id);
  }

  function where(seat) {
    const seats = screenSeats(s.seat);
    return Object.keys(seats).find((k) => seats[k] === seat) || "bottom";
  }

  function callOut(seat, text, kind) {
    const el = h("div", { class: `callout callout-${where(seat)} callout-${kind}`, dataset: { seat: String(seat) } }, text);
    layer.append(el);
    later(() => el.remove(), kind === "win" ? REVEAL_MS : SHOW_MS);
  }

  function onEvent(event) {
    if (WORDS[event.type]) callOut(event.seat, t(WORDS[event.type]), "claim");
    if (event.type === "win") {
      lastWin = event;
      callOut(event.seat, t(`callout.${event.win_by}`), "win");
    }
  }

  /** ``then`` runs once the hand's end has been seen: at once after a draw, after a moment
   * showing the winning hand after a win. */
  function afterReveal(then) {
    const view = s.view;
    const result = view && view.result;
    const win = lastWin;
    lastWin = null;
    if (!result || result.outcome !== "win" || !win || !(result.hands || [])[result.winner]) {
      then();
      return;
    }
    const ctx = { me: s.seat, names: T.names() };
    const who = seatName(result.winner, s.seat);
    const reveal = h("div", { class: "reveal" },
      h("p", { class: "reveal-title" }, t("callout.won", { who, how: t(`win_by.${result.win_by || "self_draw"}`) })),
      revealedHand(view, result.hands[result.winner], ctx, result.win_tile));
    layer.append(reveal);
    later(() => {
      reveal.remove();
      then();
    }, REVEAL_MS);
  }

  function stop() {
    for (const id of timers) clearTimeout(id);
    timers.clear();
  }

  return { layer, onEvent, afterReveal, stop };
}
