// The first-hand guide. A first-time visitor finds an offer in the lobby; taking it opens a
// practice table of the chosen ruleset (quick play for points against three bots, the 听牌 and
// pattern hints on, no 银子) and a few short steps walk through the first hand in a bubble over
// the board. Jiaxing: the hand, what wins there, the pattern hint, discarding, claims and their
// countdown, 自摸. Wenling: the hand, 得, flowers and the other specials, winning on anyone's
// discard, discarding, claims, the scoring, the 生牌 stage. The steps follow the table's ruleset
// (``ruleset(name).guide``). The bubble is not a dialog: it never takes the focus or the keys,
// never covers the own hand and its buttons, and every step has 跳过. The answer (taken,
// skipped, finished) is kept in localStorage ("baida.guide"), so the offer is made once; the
// 玩法 page starts the guide again. The guide reads the table as the page shows it
// (``window.baidaTable.state``, the drawn elements and the ANSWERED event of an answer taken)
// and changes nothing there.

import { post } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { GUIDED_RULESETS, RULESET_NAMES, ruleset } from "./rulesets.js";
import { gt } from "./guide-i18n.js";
import { onLangChange } from "./i18n.js";
import { ANSWERED } from "./table_actions.js";

const KEY = "baida.guide";
const TOUCH = "(hover: none) and (pointer: coarse)";
const MINE = [".my-area", ".mine-slot", ".hand"];  // the own area: the bubble stays above it
const SIDEWAYS = window.matchMedia("(max-height: 520px) and (orientation: landscape)");

/** Each step: what it points at, and when it may show (the default: once the hand is dealt).
 * ``after``: the kind of prompt whose answer moves on by itself (the step's lesson done). A
 * ruleset's facts name its steps, in order. */
const STEPS = [
  { id: "hand", anchor: ".hand" },
  { id: "pattern", anchor: ".hand" },
  { id: "hint", anchor: ".pattern-hint", needs: ".pattern-hint" },
  { id: "hand16", anchor: ".hand" },
  { id: "de", anchor: ".compass .wilds" },
  { id: "specials", anchor: ".my-seat-slot" },
  { id: "winany", anchor: ".hand" },
  { id: "discard", anchor: ".hand", after: ["turn"] },
  { id: "claim", anchor: ".actions", after: ["claim", "rob"] },
  { id: "zimo", anchor: ".actions" },
  { id: "points" },
  { id: "sheng", anchor: ".compass .wall-count" },
  { id: "end", anchor: ".rules-button" },
];
const STEP = Object.fromEntries(STEPS.map((step) => [step.id, step]));

/** The steps at a table of ruleset ``name``. */
function stepsOf(name) {
  return ruleset(name).guide.map((id) => STEP[id]);
}

export function guideState() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    return saved && typeof saved === "object" ? saved : null;
  } catch {
    return null;
  }
}

function save(state) {
  try { localStorage.setItem(KEY, JSON.stringify(state)); } catch { /* not remembered */ }
}

/** Nobody has answered the offer on this browser yet. */
export function firstVisit() {
  return guideState() === null;
}

/** Start the guide: at the table ``tableId`` where the player sits, or at a new practice
 * table of ``name`` (signing in as a guest first when needed). */
export async function startGuide(app, { tableId = null, ruleset: name = GUIDED_RULESETS[0] } = {}) {
  if (tableId !== null) {
    save({ status: "running", table: tableId, step: 0 });
    sync();
    return;
  }
  try {
    if (!app.me) await app.signIn("/api/guest");
    const { table } = await post("/api/quickplay", { ruleset: name, practice: true });
    save({ status: "running", table: table.id, step: 0 });
    location.hash = `#/table/${table.id}?auto=1`;
    sync();
  } catch (err) {
    toast(err.message, "error");
  }
}

/** The lobby's card: the 玩法 pages of both rulesets, and for a first-time visitor the offer
 * of a guided first hand. */
export function learnCard(app) {
  const card = h("section", { class: "card learn" });
  const draw = () => {
    const offer = firstVisit()
      ? h("div", { class: "guide-offer", role: "region", "aria-label": gt("guide.label") },
        h("h2", {}, gt("guide.offer_title")), h("p", {}, gt("guide.offer_text")),
        h("div", { class: "buttons" },
          GUIDED_RULESETS.map((r, i) => h("button", { type: "button", class: i ? "btn" : "btn btn-primary", dataset: { act: "guide-start", ruleset: r },
            onclick: () => startGuide(app, { ruleset: r }) }, gt("guide.offer_start", { name: gt(`rules.tab.${r}`) }))),
          h("button", { type: "button", class: "btn btn-plain", dataset: { act: "guide-decline" }, onclick: () => { save({ status: "declined" }); draw(); } }, gt("guide.offer_skip"))))
      : null;
    clear(card).append(offer, h("h2", {}, gt("learn.title")), h("p", { class: "muted" }, gt("learn.text")),
      h("div", { class: "buttons" },
        RULESET_NAMES.map((r) => h("a", { class: "btn", href: `#/rules/${r}`, dataset: { rules: r } }, gt(`learn.${r}`)))));
  };
  draw();
  return card;
}

// ------------------------------------------------------------------ the bubble at the table

let live = null;  // {table, observer, sizes, watched, bubble, frame} while the guide runs at its table

function tableOfRoute() {
  const m = /^#\/table\/(\d+)/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

function sync() {
  const state = guideState();
  const here = tableOfRoute();
  if (state && state.status === "running" && here !== null && here === state.table) attach(state.table);
  else detach();
}

function attach(table) {
  if (live && live.table === table) {
    schedule();
    return;
  }
  detach();
  const bubble = h("div", { class: "guide-bubble", role: "region", "aria-label": gt("guide.label"), hidden: true });
  document.body.append(bubble);
  const observer = new MutationObserver(schedule);
  observer.observe(document.getElementById("main"), { childList: true, subtree: true });
  // the own area grows and shrinks without a node added (buttons shown, a font loaded): the
  // bubble follows its size, and its own
  const sizes = new ResizeObserver(schedule);
  sizes.observe(bubble);
  live = { table, observer, sizes, watched: null, bubble, frame: 0 };
  schedule();
}

function detach() {
  if (!live) return;
  live.observer.disconnect();
  live.sizes.disconnect();
  cancelAnimationFrame(live.frame);
  live.bubble.remove();
  for (const el of document.querySelectorAll(".guide-focus")) el.classList.remove("guide-focus");
  live = null;
}

function schedule() {
  if (!live || live.frame) return;
  live.frame = requestAnimationFrame(() => {
    if (!live) return;
    live.frame = 0;
    update();
  });
}

/** The steps of the guide's table, as its page shows it (the first guided ruleset's until the
 * table is known). */
function tableSteps() {
  const s = window.baidaTable && window.baidaTable.state;
  const name = (s && s.view && s.view.ruleset) || (s && s.table && s.table.ruleset) || GUIDED_RULESETS[0];
  return stepsOf(name);
}

function setStep(step) {
  const state = guideState() || {};
  if (step >= tableSteps().length) {
    save({ status: "done" });
    detach();
    return;
  }
  save({ ...state, status: "running", step });
  schedule();
}

function stop() {
  save({ status: "skipped" });
  detach();
}

/** Move on by itself once the player has answered a prompt of the step's kind (a discard, a
 * claim or a pass) while the step shows: an answer the hall took, not a timeout or a refusal.
 * Told by the table at the hall's ack, which also clears the prompt, often before a frame. */
function onAnswered(event) {
  const state = guideState();
  if (!live || !state || state.status !== "running" || live.bubble.hidden) return;
  const steps = tableSteps();
  const index = stepIndex(state, steps);
  const step = steps[index];
  if (step.after && step.after.includes(event.detail.kind)) setStep(index + 1);
}

/** The saved step, as an index into ``steps``. */
function stepIndex(state, steps) {
  return Math.max(0, Math.min(steps.length - 1, Number(state.step) || 0));
}

function update() {
  const state = guideState();
  if (!live || !state || state.status !== "running") {
    detach();
    return;
  }
  const s = window.baidaTable && window.baidaTable.state;
  const steps = tableSteps();
  const index = stepIndex(state, steps);
  const step = steps[index];
  const dealt = Boolean(s && s.view && s.seat !== null && s.view.phase !== "ended" && document.querySelector(".hand"));
  for (const el of document.querySelectorAll(".guide-focus")) el.classList.remove("guide-focus");
  if (!dealt || (step.needs && !document.querySelector(step.needs))) {
    live.bubble.hidden = true;
    return;
  }
  const anchor = step.anchor ? document.querySelector(step.anchor) : null;
  if (anchor) anchor.classList.add("guide-focus");
  draw(step, index, steps.length, s);
  place();
}

function stepText(step, s) {
  if (step.id === "discard") return gt(window.matchMedia(TOUCH).matches ? "guide.discard.touch" : "guide.discard.mouse");
  if (step.id === "claim") {
    const claim = s.table && s.table.timing ? s.table.timing.claim : null;
    return gt("guide.claim.text", { n: claim ? Math.round(claim) : 5 });
  }
  return gt(`guide.${step.id}.text`);
}

function draw(step, index, count, s) {
  const last = index === count - 1;
  const key = JSON.stringify([step.id, index, count, stepText(step, s), document.documentElement.lang]);
  const bubble = live.bubble;
  bubble.hidden = false;
  if (bubble.dataset.key === key) return;
  bubble.dataset.key = key;
  bubble.dataset.step = step.id;
  const next = last
    ? h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "guide-finish" }, onclick: () => setStep(count) }, gt("guide.finish"))
    : h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "guide-next" }, onclick: () => setStep(index + 1) }, gt("guide.next"));
  const skip = last ? null : h("button", { type: "button", class: "btn btn-small btn-plain", dataset: { act: "guide-skip" }, onclick: stop }, gt("guide.skip"));
  clear(bubble).append(
    h("p", { class: "guide-title" }, h("strong", {}, gt(`guide.${step.id}.title`)), " ",
      h("span", { class: "guide-count" }, gt("guide.count", { i: index + 1, n: count }))),
    h("p", { class: "guide-text" }, stepText(step, s)),
    h("div", { class: "guide-buttons" }, skip, next));
}

/** Above the own area (hand, buttons, hints), never over it; at the top when there is no room. */
function place() {
  const bubble = live.bubble;
  const mine = MINE.map((sel) => document.querySelector(sel)).find(Boolean);
  if (mine && mine !== live.watched) {
    if (live.watched) live.sizes.unobserve(live.watched);
    live.sizes.observe(mine);
    live.watched = mine;
  }
  // a phone held sideways (guide.css): the bubble keeps to the left of the middle box
  const compass = SIDEWAYS.matches ? document.querySelector(".center .compass") : null;
  bubble.style.width = compass
    ? `${Math.round(Math.min(340, Math.max(200, compass.getBoundingClientRect().left - 16)))}px` : "";
  const height = bubble.offsetHeight;
  const limit = mine ? mine.getBoundingClientRect().top : window.innerHeight;
  bubble.style.top = `${Math.max(4, Math.round(limit - height - 8))}px`;
}

/** Follow the address and the language (once, at the page's start). */
export function installGuide() {
  window.addEventListener("hashchange", sync);
  window.addEventListener("resize", schedule);
  window.addEventListener(ANSWERED, onAnswered);
  onLangChange(() => {
    if (live) live.bubble.dataset.key = "";
    schedule();
  });
  sync();
}
