// The 玩法 page of each ruleset, drawn from the hall's rule book (GET /api/rules/{ruleset}: the
// scorers' own item lists with their values, the rules with this table's numbers, example
// hands scored by the scorer), so that it says what the table does. It is a page of its own
// from the lobby (#/rules/jiaxing, #/rules/wenling) and a panel over the table (the 玩法
// button in the table's bar), which leaves the hand going on underneath.

import { get } from "./api.js";
import { clear, h } from "./dom.js";
import { gt, tr } from "./guide-i18n.js";
import { startGuide } from "./guide.js";
import { lang, onLangChange } from "./i18n.js";
import { GUIDED_RULESETS, RULESET_NAMES } from "./rulesets.js";
import { tileImg } from "./widgets.js";

export const RULESETS = RULESET_NAMES;
const cache = new Map();

/** The rule book of ``ruleset`` for a table's ``options`` (null: the defaults), fetched once. */
export function loadRules(ruleset, options = null) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options || {})) params.set(name, String(value));
  const query = params.toString();
  const url = `/api/rules/${ruleset}${query ? `?${query}` : ""}`;
  if (!cache.has(url)) {
    cache.set(url, get(url).catch((err) => {
      cache.delete(url);
      throw err;
    }));
  }
  return cache.get(url);
}

// ------------------------------------------------------------------ drawing a rule book

function unitWord(page, unit) {
  return tr(page.units[unit]);
}

function valueText(page, group, item) {
  const unit = unitWord(page, group.unit);
  if (group.unit === "limit") return `${unit} ${item.value}`;
  if (typeof item.value === "object") return `${gt("rules.heavy", item.value)} ${unit}`;
  return `${item.value} ${unit}`;
}

function itemsTable(page, group) {
  const rows = group.items.map((item) => {
    const flags = [];
    if (item.each) flags.push(gt("rules.each"));
    if (item.nonwinner) flags.push(gt("rules.nonwinner"));
    return h("tr", { class: item.available ? "" : "off", dataset: { item: item.id } },
      h("th", { scope: "row", class: "item-name" }, tr(item.name),
        lang() === "zh" ? null : h("span", { class: "item-zh", lang: "zh-CN" }, item.name.zh)),
      h("td", { class: "item-when" }, tr(item.when),
        item.note ? h("small", { class: "item-note" }, tr(item.note)) : null,
        item.available ? null : h("small", { class: "item-off" }, gt("rules.off"))),
      h("td", { class: "item-value" }, valueText(page, group, item),
        flags.length ? h("small", {}, flags.join(" · ")) : null));
  });
  return h("table", { class: "rules-items", dataset: { group: group.id } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gt("rules.col.item")),
      h("th", { scope: "col" }, gt("rules.col.when")), h("th", { scope: "col" }, gt("rules.col.value")))),
    h("tbody", {}, rows));
}

function tileList(faces, page, wilds = []) {
  return h("span", { class: "tile-row" }, faces.map((face) => tileImg(face, { wilds, ruleset: page.ruleset, size: "small" })));
}

function scoreLine(page, hand) {
  if (!hand.legal) return h("p", { class: "rules-score not-win" }, gt("rules.not_a_win"));
  const parts = hand.score.items.map((i) => `${tr(i.name)} ${i.value} ${unitWord(page, i.unit)}`);
  return h("p", { class: "rules-score" }, parts.join(" + "), h("br"),
    h("strong", {}, gt(`rules.total.${page.ruleset}`, hand.score.total)));
}

function handEl(page, hand) {
  const wilds = hand.wilds;
  const melds = hand.melds.length
    ? h("span", { class: "rules-melds" }, h("small", {}, gt("rules.melds")), hand.melds.map((m) => tileList(m.tiles, page)))
    : null;
  const flowers = hand.flowers.length
    ? h("span", { class: "rules-melds" }, h("small", {}, gt("rules.flowers")), tileList(hand.flowers, page))
    : null;
  const wildAs = hand.wild_as.length
    ? h("p", { class: "rules-wild-as" }, gt("rules.wild_as", { wild: gt(`rules.wild.${page.ruleset}`), faces: "" }),
      tileList(hand.wild_as, page))
    : null;
  return h("figure", { class: `rules-hand${hand.legal ? "" : " not-win"}`, dataset: { hand: hand.id } },
    h("figcaption", {}, h("strong", {}, tr(hand.title)), " ", h("span", { class: "muted" }, tr(hand.caption))),
    h("div", { class: "rules-hand-tiles" }, tileList(hand.tiles, page, wilds),
      h("span", { class: "rules-win-tile" }, h("small", {}, gt("rules.win_tile")), tileList([hand.win_tile], page, wilds)),
      melds, flowers),
    wildAs, scoreLine(page, hand));
}

function blockEl(page, block) {
  switch (block.type) {
    case "text":
      return h("p", {}, tr(block.text));
    case "list":
      return h("ul", {}, block.items.map((item) => h("li", {}, tr(item))));
    case "items":
      return itemsTable(page, page.items.find((g) => g.id === block.group));
    case "hands":
      return h("div", { class: "rules-hands" }, block.hands.map((hand) => handEl(page, hand)));
    case "tiles":
      return h("div", { class: "rules-tiles" }, block.rows.map((row) =>
        h("p", {}, tileList(row.tiles, page), " ", tr(row.caption))));
    case "table":
      return h("table", { class: "rules-table" },
        h("thead", {}, h("tr", {}, block.head.map((cell) => h("th", { scope: "col" }, tr(cell))))),
        h("tbody", {}, block.rows.map((row) => h("tr", {}, row.map((cell) => h("td", {}, tr(cell)))))));
    default:
      return null;
  }
}

/** The rule book's body: its contents (buttons that scroll, so that the address, which is the
 * screen's, stays) and its sections. */
function bookEl(page, scroller) {
  const sections = page.sections.map((sec) => h("section", { class: "rules-section", dataset: { section: sec.id } },
    h("h2", {}, tr(sec.title)), sec.blocks.map((block) => blockEl(page, block))));
  const contents = h("nav", { class: "rules-contents", "aria-label": gt("rules.contents") },
    page.sections.map((sec, i) => h("button", { type: "button", class: "btn btn-small btn-plain", onclick: () => {
      const top = sections[i].getBoundingClientRect().top - scroller.getBoundingClientRect().top;
      scroller.scrollBy({ top: top - 8 });
    } }, tr(sec.title))));
  return h("div", { class: "rules-book", dataset: { ruleset: page.ruleset } }, contents, sections);
}

function loadInto(slot, ruleset, options, scroller) {
  clear(slot).append(h("p", { class: "muted" }, gt("rules.loading")));
  return loadRules(ruleset, options).then((page) => {
    clear(slot).append(bookEl(page, scroller));
  }).catch((err) => {
    clear(slot).append(h("p", { class: "banner banner-stop", role: "alert" }, gt("rules.error", { msg: err.message })));
  });
}

// ------------------------------------------------------------------ the page (#/rules/...)

/** The 玩法 page at ``#/rules/{ruleset}``; returns its unmount. */
export function mountRules(main, app, ruleset) {
  const which = RULESETS.includes(ruleset) ? ruleset : RULESETS[0];
  const slot = h("div", { class: "rules-slot" });
  const tabs = h("nav", { class: "segmented rules-tabs", "aria-label": gt("rules.rulesets") },
    RULESETS.map((r) => h("a", { class: "btn btn-small", href: `#/rules/${r}`, "aria-current": r === which ? "page" : null, dataset: { rules: r } }, gt(`rules.tab.${r}`))));
  const guide = GUIDED_RULESETS.includes(which)
    ? h("button", { type: "button", class: "btn btn-small", dataset: { act: "guide-again" }, onclick: () => startGuide(app, { ruleset: which }) }, gt("rules.guide_again"))
    : null;
  clear(main).append(h("article", { class: "rules-page card" },
    h("header", { class: "rules-head" }, h("h1", {}, gt("rules.title")), tabs,
      h("span", { class: "rules-head-end" }, guide, h("a", { class: "btn btn-small btn-plain", href: "#/" }, gt("rules.back")))),
    h("p", { class: "muted" }, gt("rules.defaults")), slot));
  loadInto(slot, which, null, document.scrollingElement);
  return () => {};
}

// ------------------------------------------------------------------ the panel at a table

let panel = null;

export function closeRulesPanel() {
  if (panel) panel.close();
}

/** The 玩法 panel over a table (non-modal: the table plays on; the panel says when a move of
 * yours is waiting). ``table``: the table's description (ruleset, options, id). */
export function openRulesPanel(app, table) {
  closeRulesPanel();
  let shown = table.ruleset;
  const previous = document.activeElement;
  const body = h("div", { class: "rules-panel-body" });
  const notice = h("div", { class: "rules-panel-notice", "aria-live": "polite" });
  const box = h("aside", { class: "rules-panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "rules-panel-title", tabindex: "-1" });
  const draw = () => {
    const tabs = h("div", { class: "segmented rules-tabs", role: "group", "aria-label": gt("rules.rulesets") },
      RULESETS.map((r) => h("button", { type: "button", class: "btn btn-small", "aria-pressed": String(r === shown), dataset: { rules: r },
        onclick: () => { shown = r; draw(); focusTab(); } }, gt(`rules.tab.${r}`))));
    const guide = shown === table.ruleset && GUIDED_RULESETS.includes(shown)
      ? h("button", { type: "button", class: "btn btn-small", dataset: { act: "guide-again" }, onclick: () => { close(); startGuide(app, { tableId: table.id }); } }, gt("rules.guide_here"))
      : null;
    clear(notice);  // drawn again below, in the language of the moment
    clear(box).append(
      h("header", { class: "rules-panel-head" },
        h("h2", { id: "rules-panel-title" }, gt("rules.title")), tabs,
        h("button", { type: "button", class: "btn btn-small btn-primary", dataset: { act: "close-rules" }, onclick: () => close() }, gt("rules.close"))),
      notice, body);
    const own = shown === table.ruleset;
    clear(body).append(h("p", { class: "muted" }, own ? gt("rules.this_table") : gt("rules.defaults"), " ", guide));
    const slot = h("div", { class: "rules-slot" });
    body.append(slot);
    loadInto(slot, shown, own ? table.options : null, body);
    watch();
  };
  const focusTab = () => {
    const tab = box.querySelector(`[data-rules="${shown}"]`);
    if (tab) tab.focus({ preventScroll: true });
  };
  const watch = () => {
    const state = window.baidaTable && window.baidaTable.state;
    const waiting = Boolean(state && state.prompt && !state.prompt.answered && state.seat !== null);
    if (waiting === (notice.childElementCount > 0)) return;
    clear(notice);
    if (waiting) notice.append(h("p", { class: "banner", role: "status" }, gt("rules.prompt"), " ",
      h("button", { type: "button", class: "btn btn-small btn-primary", onclick: () => close() }, gt("rules.close"))));
  };
  const main = document.getElementById("main");
  const observer = new MutationObserver(watch);
  if (main) observer.observe(main, { childList: true, subtree: true });
  const onKey = (event) => {
    if (event.key === "Escape") {  // (a dialog over the table takes its keys first)
      event.preventDefault();
      close();
    }
  };
  const offLang = onLangChange(draw);
  const onRoute = () => close();
  const fit = () => {  // under the page's top bar (language, sound), above the table
    const bar = document.getElementById("topbar");
    box.style.top = `${bar ? Math.max(0, Math.round(bar.getBoundingClientRect().bottom)) : 0}px`;
  };
  function close() {
    if (!box.isConnected) return;
    observer.disconnect();
    offLang();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("hashchange", onRoute);
    window.removeEventListener("resize", fit);
    box.remove();
    panel = null;
    if (previous && previous.isConnected && typeof previous.focus === "function") previous.focus({ preventScroll: true });
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", onRoute);
  window.addEventListener("resize", fit);
  panel = { close, el: box };
  draw();
  document.body.append(box);
  fit();
  box.focus({ preventScroll: true });
  return panel;
}

/** The 玩法 button of a table's bar. */
export function rulesButton(app, table) {
  return h("button", { type: "button", class: "btn btn-bar rules-button", dataset: { act: "rules" }, "aria-label": gt("rules.button_label"), title: gt("rules.button_label"),
    onclick: () => openRulesPanel(app, table) },
  h("span", { class: "label-long", "aria-hidden": "true" }, gt("rules.button")),
  h("span", { class: "label-short", "aria-hidden": "true" }, gt("rules.button_short")));
}
