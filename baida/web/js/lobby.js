// The lobby: signing in (guest or account), quick play against three bots, joining a private
// table by its room code, creating a table, and the list of tables with their rule badges,
// filtered by ruleset and free seats (the choice is remembered in localStorage), the empty
// tables of one kind shown as one row ("sit at the first free table"), and "return to your
// table" while a match of yours goes on.

import { get, post } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { firstVisit, learnCard } from "./guide.js";
import { counted, displayName, t } from "./i18n.js";
import { RULESET_NAMES, ruleset } from "./rulesets.js";
import { badge, lobbyBadges } from "./widgets.js";

export function signInCard(app, { compact = false } = {}) {
  const name = h("input", { type: "text", autocomplete: "username", required: true, maxlength: "24", "aria-label": t("signin.name"), placeholder: t("signin.name") });
  const password = h("input", { type: "password", autocomplete: "current-password", required: true, "aria-label": t("signin.password"), placeholder: t("signin.password") });
  const submit = async (path) => {
    try {
      await app.signIn(path, { name: name.value.trim(), password: password.value });
    } catch (err) {
      toast(err.message, "error");
    }
  };
  const form = h("form", { class: "signin-form", onsubmit: (e) => { e.preventDefault(); submit("/api/login"); } },
    name, password,
    h("button", { type: "submit", class: "btn" }, t("signin.login")),
    h("button", { type: "button", class: "btn btn-plain", onclick: () => submit("/api/register") }, t("signin.register")));
  if (app.me) {
    return h("section", { class: "card signin" }, h("h2", {}, t("signin.as", { name: displayName(app.me.name) })),
      app.me.guest ? [h("p", { class: "muted" }, t("signin.register_hint")), form] : null);
  }
  return h("section", { class: `card signin${compact ? " compact" : ""}` }, h("h2", {}, t("signin.title")),
    h("button", { type: "button", class: "btn btn-primary btn-big", dataset: { act: "guest" }, onclick: () => app.signIn("/api/guest").catch((e) => toast(e.message, "error")) }, t("signin.guest")),
    h("p", { class: "muted" }, t("signin.or")), form);
}

function quickCard(app) {
  const go = async (ruleset) => {
    try {
      if (!app.me) await app.signIn("/api/guest");
      const { table } = await post("/api/quickplay", { ruleset });
      location.hash = `#/table/${table.id}?auto=1`;
    } catch (err) {
      toast(err.message, "error");
    }
  };
  return h("section", { class: "card quick" }, h("h2", {}, t("lobby.quick")),
    h("div", { class: "buttons" }, RULESET_NAMES.map((name) =>
      h("button", { type: "button", class: "btn btn-primary btn-big", dataset: { quick: name }, onclick: () => go(name) }, t(`lobby.quick_${name}`)))),
    h("p", { class: "muted" }, t("lobby.quick_hint")));
}

function roomCard(app) {
  const code = h("input", { type: "text", maxlength: "8", autocapitalize: "characters", "aria-label": t("lobby.room_code"), placeholder: t("lobby.room_code") });
  const form = h("form", { class: "room-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      if (!app.me) await app.signIn("/api/guest");
      const { table } = await post("/api/rooms", { code: code.value.trim() });
      location.hash = `#/table/${table.id}?sit=1`;
    } catch (err) {
      toast(err.message, "error");  // a wrong code: err.no_room, in the page's language
    }
  } }, code, h("button", { type: "submit", class: "btn" }, t("lobby.join")));
  return h("section", { class: "card room" }, h("h2", {}, t("lobby.room")), form);
}

function createCard(app) {
  const rules = h("select", { "aria-label": t("form.ruleset") },
    RULESET_NAMES.map((name) => h("option", { value: name }, t(`ruleset.${name}`))));
  const chi = h("input", { type: "checkbox", checked: true });
  const discardWin = h("input", { type: "checkbox" });
  const stakes = h("select", { "aria-label": t("form.stakes") },
    h("option", { value: "points" }, t("form.points")), h("option", { value: "silver" }, t("form.silver")));
  const base = h("input", { type: "number", min: "1", max: "1000", value: "1", "aria-label": t("form.base") });
  const hands = h("input", { type: "number", min: "1", max: "64", value: "4", "aria-label": t("form.hands") });
  const fee = h("input", { type: "number", min: "0", max: "100", value: "0", "aria-label": t("form.fee") });
  const priv = h("input", { type: "checkbox" });
  // the options a ruleset's form asks (Jiaxing: 吃 and 抓铳), shown only for that ruleset
  const boxes = { allow_chi: chi, allow_discard_win: discardWin };
  const labels = { allow_chi: h("label", {}, chi, " ", t("form.allow_chi")), allow_discard_win: h("label", {}, discardWin, " ", t("form.discard_win")) };
  const showOptions = () => {
    const asked = ruleset(rules.value).options;
    for (const [key, label] of Object.entries(labels)) label.hidden = !asked.includes(key);
  };
  rules.addEventListener("change", showOptions);
  showOptions();
  // 台费 is paid in 银子: asked only at a 银子 table
  const feeLabel = h("label", {}, t("form.fee"), " ", fee);
  const showFee = () => { feeLabel.hidden = stakes.value !== "silver"; };
  stakes.addEventListener("change", showFee);
  showFee();
  const form = h("form", { class: "create-form", onsubmit: async (e) => {
    e.preventDefault();
    const config = {
      ruleset: rules.value,
      options: Object.fromEntries(ruleset(rules.value).options.map((key) => [key, boxes[key].checked])),
      stakes: stakes.value,
      base: Number(base.value),
      hands: Number(hands.value),
      private: priv.checked,
    };
    if (stakes.value === "silver") config.fee = Number(fee.value);
    try {
      if (!app.me) await app.signIn("/api/guest");
      const { table } = await post("/api/tables", config);
      location.hash = `#/table/${table.id}?sit=1`;  // create and sit: the host is seated
    } catch (err) {
      toast(err.message, "error");
    }
  } },
  h("label", {}, t("form.ruleset"), " ", rules), ...Object.values(labels),
  h("label", {}, t("form.stakes"), " ", stakes), h("label", {}, t("form.base"), " ", base),
  feeLabel, h("label", {}, t("form.hands"), " ", hands),
  h("label", {}, priv, " ", t("form.private")),
  h("button", { type: "submit", class: "btn" }, t("lobby.create_go")));
  return h("details", { class: "card create" }, h("summary", {}, h("h2", {}, t("lobby.create"))), form);
}

const FILTER_KEY = "baida.lobby";
const RULESETS = ["all", ...RULESET_NAMES];

function seated(table) {
  return table.seats.filter((s) => s.kind !== "empty").length;
}

/** A table one can sit down at: waiting, with an empty seat. */
function hasFreeSeat(table) {
  return table.status === "waiting" && seated(table) < 4;
}

/** Whether the list shows ``table`` under ``filter`` ({ruleset: "all" or a ruleset, free}). */
function tableShown(table, filter) {
  return (filter.ruleset === "all" || table.ruleset === filter.ruleset) && (!filter.free || hasFreeSeat(table));
}

function savedFilter() {
  try {
    const saved = JSON.parse(localStorage.getItem(FILTER_KEY) || "{}");
    return { ruleset: RULESETS.includes(saved.ruleset) ? saved.ruleset : "all", free: saved.free === true };
  } catch {
    return { ruleset: "all", free: false };
  }
}

function saveFilter(filter) {
  try { localStorage.setItem(FILTER_KEY, JSON.stringify(filter)); } catch { /* not remembered */ }
}

function filterBar(filter, onChange) {
  const choices = RULESETS.map((key) => h("button", {
    type: "button", class: "btn btn-small btn-plain", "aria-pressed": String(filter.ruleset === key),
    dataset: { filter: key }, onclick: () => onChange({ ...filter, ruleset: key }),
  }, t(key === "all" ? "lobby.filter_all" : `ruleset.${key}`)));
  const free = h("input", { type: "checkbox", checked: filter.free, onchange: (e) => onChange({ ...filter, free: e.target.checked }) });
  return h("div", { class: "tables-filter" },
    h("div", { class: "segmented", role: "group", "aria-label": t("lobby.filter") }, choices),
    h("label", {}, free, " ", t("lobby.filter_free")));
}

function tableRow(table) {
  const taken = seated(table);
  const names = table.seats.map((s) => (s.kind === "empty" ? "·" : s.kind === "bot" ? t("table.bot") : displayName(s.name))).join(" / ");
  const free = hasFreeSeat(table);
  return h("li", { class: "table-row", dataset: { table: String(table.id), ruleset: table.ruleset } },
    h("div", { class: "table-row-head" },
      h("strong", {}, t("table.name", { ruleset: t(`ruleset.${table.ruleset}`), n: table.number })),
      badge(t(`status.${table.status}`), `st-${table.status}`)),
    h("div", { class: "badges" }, lobbyBadges(table)),
    h("div", { class: "table-row-seats" }, t("lobby.seats", { n: taken }), " · ", h("span", { class: "muted" }, names)),
    h("div", { class: "table-row-buttons" },
      free ? h("a", { class: "btn", href: `#/table/${table.id}?sit=1` }, t("lobby.sit")) : null,
      h("a", { class: "btn btn-plain", href: `#/table/${table.id}` }, free ? t("lobby.open") : t("lobby.watch"))));
}

/** "Return to your table": the tables where I hold a seat in a match in progress (托管
 * plays it while I am away), from GET /api/me/tables. */
function backCard(tables) {
  if (!tables.length) return null;
  return h("section", { class: "card back", role: "region", "aria-label": t("lobby.back") }, h("h2", {}, t("lobby.back")),
    h("ul", { class: "back-list" }, tables.map((x) => h("li", { dataset: { table: String(x.id) } },
      h("strong", {}, t("table.name", { ruleset: t(`ruleset.${x.ruleset}`), n: x.number })), " ",
      h("span", { class: "muted" }, x.mode === "player" ? t("lobby.back_hint_here") : t("lobby.back_hint")), " ",
      h("a", { class: "btn btn-primary", dataset: { act: "return" }, href: `#/table/${x.id}` }, t("lobby.back_go"))))));
}

/** What makes tables "the same kind" in the lobby: ruleset, 吃, stakes, 底分, length... */
function kindOf(table) {
  return `${table.ruleset}|${(table.badges || []).join(",")}|${table.fee}`;
}

/** The list's rows: a table with anyone at it, or not waiting, is a row of its own; the
 * empty waiting tables of one kind are one row ("4 empty tables", sit at the first). */
export function lobbyRows(tables) {
  const rows = [];
  const groups = new Map();
  for (const table of tables) {
    if (table.status === "waiting" && seated(table) === 0) {
      const key = kindOf(table);
      if (!groups.has(key)) {
        groups.set(key, []);
        rows.push({ group: groups.get(key) });
      }
      groups.get(key).push(table);
    } else {
      rows.push({ table });
    }
  }
  return rows.map((row) => (row.table ? tableRow(row.table) : row.group.length === 1 ? tableRow(row.group[0]) : groupRow(row.group)));
}

function groupRow(tables) {
  const first = tables[0];
  const numbers = tables.map((x) => x.number).join(", ");
  return h("li", { class: "table-row table-group", dataset: { group: kindOf(first), ruleset: first.ruleset } },
    h("div", { class: "table-row-head" },
      h("strong", {}, t(`ruleset.${first.ruleset}`), " · ", counted("lobby.empty_group", tables.length)),
      badge(t("status.waiting"), "st-waiting")),
    h("div", { class: "badges" }, lobbyBadges(first)),
    h("div", { class: "table-row-seats muted" }, `#${numbers}`),
    h("div", { class: "table-row-buttons" },
      h("a", { class: "btn", dataset: { act: "sit-first" }, href: `#/table/${first.id}?sit=1` }, t("lobby.sit_first"))));
}

export function mountLobby(main, app) {
  const list = h("ol", { class: "tables" }, h("li", { class: "muted" }, t("loading")));
  const online = h("span", { class: "muted" });
  const filterSlot = h("div");
  let stopped = false;
  let filter = savedFilter();
  let tables = null;
  const drawList = () => {
    if (tables === null) return;
    const shown = tables.filter((table) => tableShown(table, filter));
    const empty = tables.length ? t("lobby.none_shown") : t("lobby.none");
    clear(list).append(...(shown.length ? lobbyRows(shown) : [h("li", { class: "muted" }, empty)]));
  };
  const drawFilter = () => {
    clear(filterSlot).append(filterBar(filter, (next) => {
      filter = next;
      saveFilter(filter);
      drawFilter();
      drawList();
    }));
  };
  const backSlot = h("div", { class: "back-slot" });
  const loadMine = async () => {
    if (!app.me) return;
    try {
      const data = await get("/api/me/tables");
      if (!stopped) clear(backSlot).append(...[backCard(data.tables)].filter(Boolean));
    } catch { /* the list stays as it was */ }
  };
  const load = async () => {
    loadMine();
    try {
      const data = await get("/api/tables");
      if (stopped) return;
      online.textContent = t("lobby.online", { n: data.online });
      tables = data.tables;
      drawList();
    } catch (err) {
      if (!stopped) toast(t("error.network", { msg: err.message }), "error");
    }
  };
  // someone signed in came to play: quick start first (on a phone held sideways it was two
  // screens down, under the greeting and 学玩法); a newcomer meets the guest button and the
  // guide's offer first
  const learn = learnCard(app);
  const first = app.me ? (firstVisit() ? [learn, quickCard(app), signInCard(app)] : [quickCard(app), signInCard(app), learn])
    : [signInCard(app), learn, quickCard(app)];
  clear(main).append(h("div", { class: "lobby" },
    h("div", { class: "lobby-side" }, backSlot, ...first, roomCard(app), createCard(app)),
    h("section", { class: "card tables-card" },
      h("div", { class: "tables-head" }, h("h2", {}, t("lobby.tables")), online,
        h("button", { type: "button", class: "btn btn-small", onclick: load }, t("lobby.refresh"))),
      filterSlot, list)));
  drawFilter();
  load();
  // the list is asked for every 10 s while the page is on screen; a tab in the background asks
  // nothing (a hall's idle tabs would otherwise poll it for ever) and asks at once when shown
  const shown = () => document.visibilityState !== "hidden";
  const onShown = () => { if (shown()) load(); };
  const timer = setInterval(() => { if (shown()) load(); }, (globalThis.baidaConfig || {}).lobbyMs || 10000);
  document.addEventListener("visibilitychange", onShown);
  window.addEventListener("online", onShown);
  return () => {
    stopped = true;
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onShown);
    window.removeEventListener("online", onShown);
  };
}
