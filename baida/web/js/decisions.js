// The expert bot's review of a past hand beside its replay (GET /api/hands/{id}/review, the
// same JSON as `baida review`): at each step where the player made a choice, the bot's value
// of it and of the best alternative; a summary; the costliest choices, one click away.

import { h } from "./dom.js";
import { seatName, t, tileShort, tilesShort } from "./i18n.js";

const SHOWN_MISTAKES = 3;
const NEGLIGIBLE = 0.005; // costs below this print as 0.00: not worth listing

/** The replay step showing the table a decision was taken at: step i shows events 0..i+1, and
 * a decision came after its first ``event_index`` events. */
export function stepOf(decision) {
  return Math.max(0, decision.event_index - 2);
}

/** Step index -> the decisions taken at it, in the record's order. */
export function decisionsByStep(review) {
  const out = new Map();
  for (const d of review.decisions) {
    const step = stepOf(d);
    if (!out.has(step)) out.set(step, []);
    out.get(step).push(d);
  }
  return out;
}

/** An action as a player reads it: 打出 5万, 吃 3万4万5万, 过 / Discard 5m, Chi 3m4m5m, Pass. */
export function actionText(action) {
  const tiles = action.tiles ? tilesShort(action.tiles) : action.tile ? tileShort(action.tile) : "";
  return tiles ? `${t(`act.${action.type}`)} ${tiles}` : t(`act.${action.type}`);
}

function value(n) {
  if (n === null || n === undefined) return "—";
  return (n > 0 ? "+" : n < 0 ? "−" : "") + Math.abs(n).toFixed(2);
}

function decisionLine(d, me, showSeat) {
  const who = showSeat ? `${seatName(d.seat, me)}: ` : "";
  const chose = t("rv.chose", { action: actionText(d.action), value: value(d.value) });
  const alt = d.best_alternative;
  const verdict = d.best || !alt
    ? h("span", { class: "rv-best" }, t("rv.best"))
    : h("span", { class: "rv-cost" }, t("rv.other", {
      action: actionText(alt.action), value: value(alt.value), cost: d.cost.toFixed(2),
    }));
  return h("li", { class: d.best ? "rv-decision rv-ok" : "rv-decision rv-worse", dataset: { index: String(d.index) } },
    `${who}${chose} `, verdict);
}

/** The review's card for replay step ``step``; ``onJump(step)`` moves the replay. */
export function reviewCard(state, step, { me, onJump }) {
  const title = h("h2", { class: "rv-title" }, t("rv.title"));
  if (state.error) return h("section", { class: "card rv" }, title, h("p", { class: "muted" }, state.error));
  if (!state.review) return h("section", { class: "card rv", "aria-busy": "true" }, title, h("p", { class: "muted" }, t("rv.loading")));
  const review = state.review;
  const showSeat = review.seat === null || review.seat === undefined;
  const decisions = review.decisions;
  const best = decisions.filter((d) => d.best).length;
  const cost = decisions.reduce((sum, d) => sum + d.cost, 0);
  const summary = h("p", { class: "rv-summary" }, decisions.length
    ? t("rv.summary", { n: decisions.length, best, cost: cost.toFixed(2) })
    : t("rv.none"));
  const here = state.byStep.get(step) || [];
  const current = here.length
    ? h("ul", { class: "rv-here" }, here.map((d) => decisionLine(d, me, showSeat)))
    : h("p", { class: "muted rv-here" }, t("rv.no_choice"));
  const worst = decisions.filter((d) => d.cost >= NEGLIGIBLE)
    .sort((a, b) => b.cost - a.cost || a.index - b.index).slice(0, SHOWN_MISTAKES);
  const list = worst.length ? h("div", { class: "rv-worst" }, h("p", { class: "muted" }, t("rv.worst")),
    h("ul", {}, worst.map((d) => h("li", {}, h("button", {
      type: "button", class: "btn btn-small rv-jump", dataset: { step: String(stepOf(d)) },
      onclick: () => onJump(stepOf(d)),
    }, t("rv.jump", { i: stepOf(d) + 1, action: actionText(d.action), cost: d.cost.toFixed(2) })))))) : null;
  return h("section", { class: "card rv" }, title, summary, current, list,
    h("p", { class: "muted rv-note" }, t("rv.note", { bot: review.bot })));
}
