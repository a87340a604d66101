// The player's own page: the 银子 balance and its history, the record (战绩) in each ruleset,
// and every hand played, each with its replay, its verification and its record.

import { get, patch, post, setCsrf } from "./api.js";
import { clear, h, toast } from "./dom.js";
import { displayName, seatName, signed, t } from "./i18n.js";
import { signInCard } from "./lobby.js";

function when(iso) {
  try {
    return new Date(iso).toLocaleString();
  } catch {
    return iso;
  }
}

function outcome(hand) {
  if (hand.outcome !== "win") return t("me.draw");
  return t("me.won", { who: seatName(hand.winner, hand.seat) });
}

/** A registered player's name, changed here (the hall checks it as at registration). */
function nameCard(app) {
  const field = h("input", { type: "text", autocomplete: "username", required: true, minlength: "2", maxlength: "16", value: app.me.name, "aria-label": t("name.new"), placeholder: t("name.new") });
  const rename = async (e) => {
    e.preventDefault();
    const name = field.value.trim();
    if (name === app.me.name) return;
    try {
      const { me } = await patch("/api/me", { name });
      app.setMe(me);
      field.value = me.name;
      toast(t("name.done", { name: displayName(me.name) }));
    } catch (err) {
      toast(err.message, "error");  // taken, too like another, reserved...: in the page's language
    }
  };
  return h("section", { class: "card name-card" }, h("h2", {}, t("name.title")),
    h("form", { class: "signin-form", onsubmit: rename }, field,
      h("button", { type: "submit", class: "btn" }, t("name.change"))));
}

function passwordCard(app) {
  const current = h("input", { type: "password", autocomplete: "current-password", required: true, "aria-label": t("pw.current"), placeholder: t("pw.current") });
  const next = h("input", { type: "password", autocomplete: "new-password", required: true, minlength: "8", "aria-label": t("pw.new"), placeholder: t("pw.new") });
  const change = async (e) => {
    e.preventDefault();
    try {
      const { me } = await post("/api/password", { password: current.value, new_password: next.value });
      app.me = me;
      setCsrf(me.csrf);
      current.value = "";
      next.value = "";
      toast(t("pw.done"));
    } catch (err) {
      toast(err.message, "error");
    }
  };
  return h("section", { class: "card password-card" }, h("h2", {}, t("pw.title")),
    h("form", { class: "signin-form", onsubmit: change }, current, next,
      h("button", { type: "submit", class: "btn" }, t("pw.change"))));
}

function percent(part, whole) {
  return `${Math.round((part * 1000) / whole) / 10}%`;
}

/** The record (战绩) of one ruleset: each figure a small tile, so the grid wraps on a phone. */
function recordBlock(r) {
  const figure = (key, value, extra) => h("div", { class: "stat", dataset: { stat: key } },
    h("span", { class: "stat-label" }, t(`stats.${key}`)),
    h("span", { class: "stat-value" }, value),
    extra ? h("span", { class: "stat-extra" }, extra) : null);
  const sign = (n) => `num ${n > 0 ? "pos" : n < 0 ? "neg" : ""}`;
  const average = Math.round((r.points * 10) / r.hands) / 10;
  const best = r.best_hand_id
    ? h("a", { href: `#/hand/${r.best_hand_id}`, class: "num pos" }, signed(r.best_points))
    : t("stats.none");
  return h("div", { class: "record", dataset: { ruleset: r.ruleset } },
    h("h3", {}, t(`ruleset.${r.ruleset}`)),
    h("div", { class: "stats" },
      figure("hands", String(r.hands)),
      figure("wins", String(r.wins), `${percent(r.wins, r.hands)} · ${t("stats.self_drawn")} ${r.self_drawn}`),
      figure("dealt_in", String(r.dealt_in)),
      figure("drawn", String(r.drawn)),
      figure("points", h("span", { class: sign(r.points) }, signed(r.points)),
        t("stats.per_hand", { n: signed(average) })),
      figure("best", best)));
}

export function mountMe(main, app) {
  if (!app.me) {
    clear(main).append(h("div", { class: "lobby" }, signInCard(app)));
    return () => {};
  }
  const balance = h("p", { class: "balance-big" }, String(app.me.balance));
  const ledger = h("tbody", {});
  const hands = h("tbody", {});
  const moreLedger = h("button", { type: "button", class: "btn btn-small", hidden: true }, t("me.more"));
  const moreHands = h("button", { type: "button", class: "btn btn-small", hidden: true }, t("me.more"));
  const record = h("div", { class: "records" });
  let stopped = false;

  const loadRecord = async () => {
    const data = await get("/api/me/stats");
    if (stopped) return;
    clear(record).append(...(data.records.length ? data.records.map(recordBlock)
      : [h("p", { class: "muted" }, t("me.no_record"))]));
  };

  const loadLedger = async (before) => {
    const data = await get(`/api/me/ledger${before ? `?before=${before}` : ""}`);
    if (stopped) return;
    balance.textContent = String(data.balance);
    app.setBalance(data.balance);
    if (!before && !data.entries.length) ledger.append(h("tr", {}, h("td", { colspan: "4", class: "muted" }, t("me.no_ledger"))));
    for (const e of data.entries) {
      ledger.append(h("tr", {}, h("td", {}, when(e.at)), h("td", {}, t(`ledger.${e.kind}`) === `ledger.${e.kind}` ? e.kind : t(`ledger.${e.kind}`)),
        h("td", { class: `num ${e.amount > 0 ? "pos" : e.amount < 0 ? "neg" : ""}` }, signed(e.amount)),
        h("td", {}, e.hand_id ? h("a", { href: `#/hand/${e.hand_id}` }, `#${e.hand_id}`) : "")));
    }
    const last = data.entries[data.entries.length - 1];
    moreLedger.hidden = data.entries.length < 50;
    moreLedger.onclick = () => loadLedger(last.id).catch((err) => toast(err.message, "error"));
  };

  const loadHands = async (before) => {
    const data = await get(`/api/me/hands${before ? `?before=${before}` : ""}`);
    if (stopped) return;
    if (!before && !data.hands.length) hands.append(h("tr", {}, h("td", { colspan: "5", class: "muted" }, t("me.no_hands"))));
    for (const hand of data.hands) {
      hands.append(h("tr", { dataset: { hand: String(hand.hand_id) } },
        h("td", {}, when(hand.ended_at || hand.started_at)),
        h("td", {}, `${t(`ruleset.${hand.ruleset}`)} · ${t("table.hand_no", { n: hand.number })}`),
        h("td", {}, outcome(hand)),
        h("td", { class: `num ${hand.payment > 0 ? "pos" : hand.payment < 0 ? "neg" : ""}` }, signed(hand.payment)),
        h("td", {}, h("a", { class: "btn btn-small btn-replay", href: `#/hand/${hand.hand_id}`, "aria-label": t("st.replay") },
          h("span", { class: "label-long", "aria-hidden": "true" }, t("st.replay")),
          h("span", { class: "label-short", "aria-hidden": "true" }, t("st.replay_short"))))));
    }
    const last = data.hands[data.hands.length - 1];
    moreHands.hidden = data.hands.length < 30;
    moreHands.onclick = () => loadHands(last.hand_id).catch((err) => toast(err.message, "error"));
  };

  clear(main).append(h("div", { class: "me-page" },
    h("section", { class: "card" }, h("h2", {}, t("me.balance")), balance),
    h("section", { class: "card record-card" }, h("h2", {}, t("me.record")), record),
    h("section", { class: "card" }, h("h2", {}, t("me.hands")),
      h("table", { class: "list-table hands-table" }, h("thead", {}, h("tr", {},
        [t("me.when"), t("me.hand"), t("me.result"), t("me.amount"), ""].map((c) => h("th", { scope: "col" }, c)))), hands),
      moreHands),
    h("section", { class: "card" }, h("h2", {}, t("me.ledger")),
      h("table", { class: "list-table" }, h("thead", {}, h("tr", {},
        [t("me.when"), t("me.kind"), t("me.amount"), t("me.hand")].map((c) => h("th", { scope: "col" }, c)))), ledger),
      moreLedger),
    app.me.guest ? null : nameCard(app),
    app.me.guest ? null : passwordCard(app)));
  loadRecord().catch((err) => toast(err.message, "error"));
  loadLedger().catch((err) => toast(err.message, "error"));
  loadHands().catch((err) => toast(err.message, "error"));
  return () => { stopped = true; };
}
