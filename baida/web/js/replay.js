// A finished hand step by step: the hall replays its record with the engine and sends every
// event (GET /api/hands/{id}/replay); the page steps through them with the same code that
// follows a live hand (state.js), every hand face up, and ends on the settlement. Beside it,
// the expert bot's review of the player's own choices (GET /api/hands/{id}/review, decisions.js).

import { get } from "./api.js";
import { boardEl, fitCentre } from "./board.js";
import { decisionsByStep, reviewCard } from "./decisions.js";
import { announce, clear, h, toast } from "./dom.js";
import { onLangChange, seatName, t, tileShort } from "./i18n.js";
import { settlementEl } from "./settlement.js";
import { applyEvent, viewFromStart } from "./state.js";
import { icon } from "./widgets.js";

const PORTRAIT = "(orientation: portrait)";
const STEP_MS = 700;

/** The views after each event of the hand (index i: after events[0..i]). */
export function replayViews(review) {
  const events = review.events;
  let view = viewFromStart(events[0], { options: review.view.options, seat: review.seat });
  const out = [];
  for (const event of events.slice(1)) {
    view = applyEvent(structuredClone(view), event);
    out.push({ event, view });
  }
  return out;
}

function describe(event, me) {
  const who = seatName(event.seat, me);
  const tile = event.tile ? tileShort(event.tile) : "";
  switch (event.type) {
    case "deal":
      return t("ev.deal", { who, n: event.count });
    case "draw":
      return t("ev.draw", { who, tile });
    case "discard": case "chi": case "pon": case "mkong": case "bukong": case "flower":
      return t(`ev.${event.type}`, { who, tile });
    case "akong":
      return t("ev.akong", { who });
    case "santan":
      return t("ev.santan", { pair: event.pair.map((s) => seatName(s, me)).join("–") });
    case "santan_choice":
      return t("ev.santan_choice", { who, choice: t(event.choice === "give_up" ? "act.give_up" : "act.continue") });
    case "sheng_phase":
      return t("ev.sheng", { n: event.remaining });
    case "kong_robbed":
      return t("ev.kong_robbed", { by: seatName(event.by, me), tile });
    case "win":
      return t("ev.win", { who, how: t(`win_by.${event.win_by}`), tile });
    case "hand_end":
      return event.outcome === "win" ? t("st.title_plain") : t("ev.draw_game");
    default:
      return event.type;
  }
}

export function mountReplay(main, app, handId) {
  const media = window.matchMedia(PORTRAIT);
  const root = h("div", { class: "replay-screen" }, h("p", {}, t("loading")));
  clear(main).append(root);
  let review = null;
  let steps = [];
  let index = 0;
  let timer = null;
  let stopped = false;
  let placed = false;  // the table was scrolled to, once, where it is not in the first screen
  const bot = { review: null, error: null, byStep: new Map() };

  const render = () => {
    if (!review) return;
    const step = steps[index];
    const view = step.view;
    const ctx = { me: review.seat, names: null, totals: null, modes: null, portrait: media.matches, openHands: true };
    const slider = h("input", { type: "range", min: "0", max: String(steps.length - 1), value: String(index), "aria-label": t("rp.step", { i: index + 1, n: steps.length }) });
    slider.addEventListener("input", () => go(Number(slider.value)));
    const button = (label, fn, key) => h("button", { type: "button", class: "btn btn-small", "aria-label": label, title: label, dataset: { step: key }, onclick: fn }, icon(key));
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("rp.keys") },
      button(t("rp.first"), () => go(0), "first"),
      button(t("rp.prev"), () => go(index - 1), "prev"),
      h("button", { type: "button", class: "btn btn-small", dataset: { step: "play" }, onclick: toggle }, timer ? t("rp.pause") : t("rp.play")),
      button(t("rp.next"), () => go(index + 1), "next"),
      button(t("rp.last"), () => go(steps.length - 1), "last"),
      slider,
      h("span", { class: "replay-pos", role: "status" }, `${t("rp.step", { i: index + 1, n: steps.length })} · ${describe(step.event, review.seat)}`));
    const parts = [h("h1", { class: "replay-title" }, `${t("rp.title", { n: review.number })} · ${t(`ruleset.${review.ruleset}`)}`), controls,
      h("p", { class: "muted replay-keys" }, t("rp.keys"))];
    if (!review.matches) parts.push(h("p", { class: "banner banner-santan" }, t("rp.mismatch")));
    // the table right under its controls (the own hand in the first screen), the review after
    parts.push(h("div", { class: "table-board replay-board" }, boardEl(view, ctx)));
    parts.push(reviewCard(bot, index, { me: review.seat, onJump: jump }));
    if (view.phase === "ended") {
      parts.push(h("section", { class: "card" }, settlementEl(view, {
        me: review.seat, names: null, handNo: review.number, base: review.setup.base,
        totals: null, silver: null, nonwinners: review.nonwinners, handId,
      })));
    }
    const scrolled = window.scrollY;  // rebuilt in place: a step does not move the page
    clear(root).append(...parts);
    fitBoard();
    if (window.scrollY !== scrolled) window.scrollTo(0, scrolled);
  };

  /** The table fills the window below its controls (300-720 px high): the own hand, at its
   * foot, in the first screen wherever the window allows; where it does not (a phone held
   * sideways), the window under the step buttons, which stay there, and the page opens
   * scrolled to it. */
  const fitBoard = () => {
    const board = root.querySelector(".replay-board");
    if (!board) return;
    const top = board.getBoundingClientRect().top + window.scrollY;
    const below = window.innerHeight - top - 8;
    const controls = root.querySelector(".replay-controls").getBoundingClientRect().height;
    const height = below >= 300 ? Math.min(720, below) : Math.max(300, window.innerHeight - controls - 8);
    root.style.setProperty("--controls-h", `${Math.round(controls)}px`);
    board.style.setProperty("--replay-h", `${Math.round(height)}px`);
    if (below < 300 && !placed) {  // opened on a short screen: the table under the buttons
      placed = true;
      board.scrollIntoView({ block: "start" });
    }
    fitCentre(board.querySelector(".board"));
  };

  const go = (i) => {
    index = Math.max(0, Math.min(steps.length - 1, i));
    if (index === steps.length - 1) stop();
    render();
    const mine = bot.byStep.has(index) ? root.querySelector(".rv-here") : null;
    announce(describe(steps[index].event, review.seat) + (mine ? ` · ${mine.textContent}` : ""));
  };
  /** A choice of the review (under the table): its step, the table brought into view. */
  const jump = (i) => {
    go(i);
    root.querySelector(".replay-board")?.scrollIntoView({ block: "nearest" });
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
  };
  const toggle = () => {
    if (timer) stop();
    else {
      if (index === steps.length - 1) index = 0;
      timer = setInterval(() => go(index + 1), STEP_MS);
    }
    render();
  };
  const onKey = (event) => {
    if (!review || event.target.tagName === "INPUT" && event.target.type !== "range") return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: steps.length - 1 };
    if (event.key in moves) {
      go(moves[event.key]);
      event.preventDefault();
    } else if (event.key === " " && event.target.tagName !== "BUTTON") {
      toggle();
      event.preventDefault();
    }
  };

  get(`/api/hands/${handId}/replay`).then((data) => {
    if (stopped) return;
    review = data;
    steps = replayViews(data);
    index = 0;
    render();
    get(`/api/hands/${handId}/review`).then((answer) => {
      bot.review = answer;
      bot.byStep = decisionsByStep(answer);
    }).catch((err) => {
      bot.error = err.message;
    }).finally(() => {
      if (!stopped) render();
    });
  }).catch((err) => {
    clear(root).append(h("p", { class: "banner banner-stop" }, err.message));
    toast(err.message, "error");
  });
  document.addEventListener("keydown", onKey);
  const offLang = onLangChange(render);
  const relayout = () => render();
  media.addEventListener("change", relayout);
  window.addEventListener("resize", fitBoard);
  return () => {
    stopped = true;
    stop();
    document.removeEventListener("keydown", onKey);
    media.removeEventListener("change", relayout);
    window.removeEventListener("resize", fitBoard);
    offLang();
  };
}
