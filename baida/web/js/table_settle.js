// The settlement at the live table: the dialog (its title and its 继续 always in view, the
// items scrolling between them), the next hand's countdown, the stored hand (its id for
// verification and replay, the totals, the 银子; found by the page itself when a reload lost
// the hall's hand_result), the Wenling non-winners' items, and folding into a bar when the
// next hand needs the player.

import { get } from "./api.js";
import { openModal } from "./dialogs.js";
import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { ruleset } from "./rulesets.js";
import { settlementEl, settlementTitle, standingsEl } from "./settlement.js";
import { copyView } from "./state.js";

// After a reload between hands the hall resends the last hand_result after the snapshot;
// should none come, the page finds the stored hand itself (GET /api/me/hands).
const STORE_WAIT_MS = [1500, 2500, 5000, 10000];

export function makeSettle(T) {
  const { s } = T;
  let modal = null;
  let storeTimer = null;

  function show() {
    const view = copyView(s.view);
    s.settlement = {
      view, handNo: s.handNo, handId: s.handId, totals: null, silver: null, nonwinners: null,
      matchOver: false, stored: false, nextStarted: false, nextAt: null,
    };
    s.settlementHand = s.handId;
    s.prompt = null;
    const last = s.lastResult;
    if (last && last.number === s.handNo) applyStored(s.settlement, last, "hand_result");
    render();
  }

  function onHandResult(m) {
    s.match = { ...(s.match || {}), totals: m.totals, hand_number: m.number, over: m.match_over };
    s.lastResult = m;
    const st = s.settlement;
    if (st && !st.stored && (st.handNo === null || st.handNo === m.number)) applyStored(st, m, "hand_result");
    const mine = (m.silver || []).find((x) => x.seat === s.seat && x.balance !== null);
    if (mine) T.app.setBalance(mine.balance);
  }

  /** The settlement is stored: its hand id (verification, replay, record), the totals, the
   * 银子. ``source``: "hand_result" (the hall said so) or "api" (found by the page). */
  function applyStored(st, m, source) {
    st.handId = m.hand_id;
    st.totals = m.totals;
    st.silver = m.silver;
    st.matchOver = m.match_over;
    st.stored = true;
    st.source = source;
    // the hall deals the next hand this long after the result (sooner when all are ready):
    // ``next_in`` counts from when the message was sent (after a reload, what is left)
    const limit = s.table && s.table.timing ? s.table.timing.between_hands : null;
    const wait = typeof m.next_in === "number" ? m.next_in : limit;
    if (source === "hand_result" && !m.match_over && typeof wait === "number") st.nextAt = performance.now() + wait * 1000;
    clearTimeout(storeTimer);
    loadNonwinners(st);
    redraw();
    T.render();
  }

  function awaitStore(st, attempt = 0) {
    clearTimeout(storeTimer);
    if (attempt >= STORE_WAIT_MS.length) {
      st.lookupFailed = true;
      redraw();
      return;
    }
    storeTimer = setTimeout(async () => {
      if (s.settlement !== st || st.stored) return;
      let found = null;
      try {
        found = await findStoredHand(st);
      } catch {
        found = null;
      }
      if (s.settlement !== st || st.stored) return;
      if (found) applyStored(st, found, "api");
      else awaitStore(st, attempt + 1);
    }, STORE_WAIT_MS[attempt]);
  }

  /** The stored hand this settlement shows, among the player's own hands: this table, this
   * hand number, the same outcome and payment (and seed); with the 银子 from the ledger. */
  async function findStoredHand(st) {
    const seat = s.seat;
    if (seat === null || !s.table || !T.app.me) return null;
    const result = st.view.result || {};
    const { hands } = await get("/api/me/hands");
    const hand = hands.find((x) => x.table_id === s.table.id && x.number === st.handNo
      && x.outcome === result.outcome && (x.winner ?? null) === (result.winner ?? null)
      && x.payment === (result.payments || [])[seat]);
    if (!hand) return null;
    if (st.view.seed) {
      const record = await get(`/api/hands/${hand.hand_id}/record`);
      if (record.seed && record.seed !== st.view.seed) return null;
    }
    let silver = null;
    if (s.table.stakes === "silver") {
      const ledger = await get("/api/me/ledger");
      const rows = ledger.entries.filter((e) => e.hand_id === hand.hand_id);
      const sum = (kind) => rows.filter((e) => e.kind === kind).reduce((n, e) => n + e.amount, 0);
      silver = [{ seat, owed: (result.payments || [])[seat], paid: sum("hand"), fee: -sum("fee"), balance: ledger.balance }];
      T.app.setBalance(ledger.balance);
    }
    return { hand_id: hand.hand_id, number: hand.number, totals: s.match ? s.match.totals : null, silver, match_over: Boolean(s.match && s.match.over) };
  }

  async function loadNonwinners(st) {
    const result = st.view.result || {};
    if (!ruleset(st.view.ruleset).nonwinnerItems || result.outcome !== "win" || !st.handId) {
      st.nonwinners = {};
      return;
    }
    try {
      const review = await get(`/api/hands/${st.handId}/replay`);
      st.nonwinners = review.nonwinners;
    } catch {
      st.nonwinners = {};
    }
    redraw();
  }

  function names() {
    return T.names();
  }

  /** The next hand's countdown under the settlement ("" when none is known). */
  function nextText(st) {
    if (st.matchOver) return "";
    if (st.nextStarted) return t("table.next_hand");
    if (st.nextAt === null) return "";
    const left = Math.max(0, Math.ceil((st.nextAt - performance.now()) / 1000));
    return t("st.next_in", { n: left });
  }

  function render() {
    const st = s.settlement;
    if (!st || st.collapsed) return;
    const ctx = {
      me: s.seat, names: names(), handNo: st.handNo, base: s.table ? s.table.base : null,
      totals: st.totals, silver: st.silver, nonwinners: st.nonwinners, handId: st.stored ? st.handId : null,
      stakes: s.table ? s.table.stakes : "points",
    };
    const body = [settlementEl(st.view, { ...ctx, noTitle: true })];
    if (!st.stored && !st.lookupFailed) body.push(h("p", { class: "muted st-saving" }, t("st.waiting_store")));
    if (st.matchOver && st.totals) body.push(standingsEl(st.totals, ctx));
    const buttons = h("div", { class: "modal-buttons st-buttons" });
    buttons.append(h("span", { class: "st-next muted", role: "timer", "aria-live": "off" }, nextText(st)));
    if (st.matchOver) {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", dataset: { act: "again" }, onclick: () => dismiss(true) }, t("table.play_again")),
        h("a", { class: "btn", href: "#/" }, t("table.to_lobby")));
    } else {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", dataset: { act: "continue-hand" }, onclick: () => dismiss(!st.nextStarted) }, st.nextStarted ? t("table.dismiss") : t("table.ready_next")));
    }
    const scroll = modal ? modal.el.querySelector(".st-scroll").scrollTop : 0;
    if (modal) modal.close();
    modal = openModal([settlementTitle(ctx), h("div", { class: "st-scroll" }, body), buttons],
      { label: "settlement-title", kind: "settlement", onKey: () => false });
    modal.el.querySelector(".st-scroll").scrollTop = scroll;
  }

  /** Draw the open settlement anew (new facts arrived, the language changed). */
  function redraw() {
    if (modal) render();
  }

  function tick() {
    const st = s.settlement;
    const el = modal && modal.el.querySelector(".st-next");
    if (st && el) el.textContent = nextText(st);
  }

  function dismiss(ready) {
    const st = s.settlement;
    if (modal) modal.close();
    modal = null;
    s.settlement = null;
    if (ready && st && !st.nextStarted && s.seat !== null && s.table && s.table.status !== "playing") T.send({ type: "ready", ready: true });
    T.render();
  }

  function nextHandStarted() {
    if (s.settlement) s.settlement.nextStarted = true;
    redraw();
  }

  /** A prompt of the next hand while the settlement is open: the settlement folds into a bar
   * above the table (it can be opened again) so that the player sees the prompt and acts. */
  function collapse() {
    const st = s.settlement;
    if (!st || st.collapsed || !modal) return;
    st.collapsed = true;  // the dialog closes where the bar is drawn: one frame swaps them
    announce(t("st.collapsed_note"), { assertive: true });
    T.render();
  }

  function reopen() {
    const st = s.settlement;
    if (!st) return;
    st.collapsed = false;
    render();
    T.render();
  }

  function foldedBar() {
    const st = s.settlement;
    if (!st || !st.collapsed) return null;
    if (modal) {
      modal.close();
      modal = null;
    }
    const title = st.handNo ? t("st.title", { n: st.handNo }) : t("st.title_plain");
    return h("div", { class: "banner st-bar", role: "status" }, h("strong", {}, title), " ",
      h("span", { class: "muted st-bar-note" }, t("st.collapsed_note")), " ",
      h("button", { type: "button", class: "btn btn-small", dataset: { act: "reopen-settlement", focusKey: "reopen-settlement" }, onclick: reopen }, t("st.reopen")),
      h("button", { type: "button", class: "btn btn-small btn-plain", dataset: { act: "close-settlement" }, onclick: () => dismiss(false) }, t("close")));
  }

  function stop() {
    clearTimeout(storeTimer);
  }

  return { show, onHandResult, awaitStore, collapse, foldedBar, nextHandStarted, redraw, tick, stop };
}
