// The live table: one WebSocket to the hall (socket.js), the hand followed from its snapshot
// and events (state.js), drawn by board.js; the own hand, the prompts with their countdown,
// the win guard, the 三摊 dialog, 托管, the 听牌 hint, chat, the event log and the settlement.

import { get, post } from "./api.js";
import { boardEl } from "./board.js";
import { closeAll, modalOpen, openModal } from "./dialogs.js";
import { announce, clear, h, toast } from "./dom.js";
import { sortFaces } from "./faces.js";
import {
  itemName, lang, onLangChange, pairNames, seatName, t, tileLabel, tileName, tileShort, wildWord,
} from "./i18n.js";
import { patternHintEl } from "./pattern-hint.js";
import { rulesButton } from "./rules-page.js";
import { settlementEl, standingsEl } from "./settlement.js";
import { play } from "./sound.js";
import { TableSocket } from "./socket.js";
import {
  applyEvent, copyView, discardedWild, displayHand, liveCount, santanWarnings, viewFromStart, waitsRequest,
} from "./state.js";
import { badge, tileButton, tileImg } from "./widgets.js";

const COMPACT = "(max-width: 760px)";
const KONGS = ["mkong", "akong", "bukong"];
const WIN_TYPES = new Set(["win", "lazi"]);
const ARM_MS = 3000;  // a claim key acts on its second press within this time
const LOG_LINES = 60;

export function mountTable(main, app, tableId, { autoplay = false } = {}) {
  const s = {
    table: null,
    seat: null,
    view: null,
    nextIndex: 0,
    awaitingSnapshot: true,
    handId: null,
    handNo: null,
    match: null,
    modes: ["player", "player", "player", "player"],
    prompt: null,
    log: [],
    chat: [],
    settlement: null,
    conn: "connecting",
    stopped: null,
    cursor: null,
    waits: new Map(),
    phrases: null,
    autoplay,
    actId: 0,
  };
  const media = window.matchMedia(COMPACT);
  const root = h("div", { class: "table-screen" });
  clear(main).append(root);
  const socket = new TableSocket(tableId, { onMessage: receive, onStatus: status });
  window.baidaTable = { state: s, socket };  // for tests and the curious: read-only use
  let ticker = null;
  let armTimer = null;
  let settlementModal = null;
  let promptModal = null;

  // ------------------------------------------------------------------ connection

  function status(kind, code) {
    if (kind === "open" || kind === "reopened") {
      s.conn = "open";
      s.awaitingSnapshot = true;
    } else if (kind === "reconnecting") {
      s.conn = "reconnecting";
      s.awaitingSnapshot = true;
      s.prompt = null;
    } else if (kind === "closed") {
      s.conn = "closed";
      if (code === 4404) s.stopped = s.stopped || t("table.no_table");
      if (code === 4401) s.stopped = s.stopped || t("signin.title");
    }
    render();
  }

  /** Whether the message went out (a toast says so when the connection is down). */
  function send(message) {
    const sent = socket.send(message);
    if (!sent) toast(t("table.reconnecting"), "error");
    return sent;
  }

  function receive(m) {
    switch (m.type) {
      case "welcome":
        s.table = m.table;
        s.seat = m.seat;
        s.match = m.table.match;
        autoSit();
        break;
      case "table":
        s.table = m.table;
        s.seat = mySeat();
        if (m.table.match) s.match = m.table.match;
        autoSit();
        break;
      case "snapshot":
        onSnapshot(m);
        break;
      case "events":
        onEvents(m);
        break;
      case "prompt":
        onPrompt(m);
        break;
      case "prompt_closed":
        if (s.prompt && s.prompt.seq === m.seq) {
          s.prompt = null;
          announce(t("table.timeout"));
        }
        break;
      case "ack":
        if (s.prompt && s.prompt.seq === m.seq) s.prompt = null;
        break;
      case "refused":
        if (s.prompt && s.prompt.answered && m.id === s.prompt.answered) s.prompt.answered = null;
        toast(t("table.refused", { msg: m.message }), "error");
        break;
      case "seat_mode":
        onSeatMode(m);
        break;
      case "hand_result":
        onHandResult(m);
        break;
      case "chat":
        s.chat.push(m);
        if (s.chat.length > 100) s.chat.shift();
        announce(`${m.name}: ${chatText(m)}`);
        break;
      case "error":
        s.stopped = m.code === "replaced" ? t("table.replaced") : t("table.closed", { msg: m.message });
        break;
      default:
        return;
    }
    render();
  }

  function mySeat() {
    const seat = (s.table.seats || []).find((x) => x.user === app.me?.id && x.kind === "person");
    return seat ? seat.seat : null;
  }

  function autoSit() {
    // quick play: sit, fill the table with bots and get ready, as one click promised
    if (!s.autoplay || !s.table || s.table.status !== "waiting") return;
    const seat = mySeat();
    if (seat === null) {
      if (!s.autoSat) send({ type: "sit", seat: null });
      s.autoSat = true;
      return;
    }
    if (s.table.seats.some((x) => x.kind === "empty")) {
      if (!s.autoBots) send({ type: "add_bots" });
      s.autoBots = true;
      return;
    }
    if (!s.table.seats[seat].ready && !s.autoReady) {
      s.autoReady = true;
      send({ type: "ready", ready: true });
      s.autoplay = false;
    }
  }

  // ------------------------------------------------------------------ the hand

  function onSnapshot(m) {
    s.awaitingSnapshot = false;
    s.modes = m.modes;
    s.match = m.match;
    s.handId = m.hand_id;
    if (!m.view) return;
    const fresh = !s.view || s.handId !== s.settlementHand;
    s.view = copyView(m.view);
    s.view.seat = s.seat;
    s.nextIndex = m.event_index;
    s.handNo = m.view.phase === "ended" ? m.match.hand_number : m.match.hand_number + 1;
    s.prompt = m.prompt ? { ...m.prompt, at: performance.now() } : null;
    if (m.view.phase === "ended" && fresh && !s.settlement) showSettlement();
    if (m.view.phase === "ended" && s.settlement && !s.settlement.stored) awaitStore(s.settlement);
    if (s.prompt) promptOpened(true);
    requestWaits();
  }

  function onEvents(m) {
    let index = m.index;
    const events = m.events;
    if (index === 0 && events.length && events[0].type === "hand_start") {
      startHand(events[0]);
      s.nextIndex = 0;
    } else if (s.awaitingSnapshot || !s.view) {
      return;
    }
    for (const event of events) {
      if (index >= s.nextIndex) {
        applyEvent(s.view, event);
        s.nextIndex = index + 1;
        narrate(event);
      }
      index += 1;
    }
    requestWaits();
  }

  function startHand(event) {
    s.view = viewFromStart(event, { options: s.table ? s.table.options : {}, seat: s.seat });
    s.handNo = (s.match ? s.match.hand_number : 0) + 1;
    s.prompt = null;
    s.cursor = null;
    s.log = [];
    s.awaitingSnapshot = false;
    s.lastResult = null;
    if (s.settlement) s.settlement.nextStarted = true;
    if (settlementModal) renderSettlementModal();
  }

  function onPrompt(m) {
    s.prompt = { ...m, at: performance.now() };
    promptOpened(false);
  }

  function promptOpened(resync) {
    const kinds = new Set(s.prompt.actions.map((a) => a.type));
    if (settlementModal && s.settlement && s.view && s.view.phase !== "ended") collapseSettlement();
    if (s.prompt.kind === "turn") {
      s.cursor = null;  // the tile just drawn, at the right
      if (!resync) play(kinds.has("win") ? "alert" : "turn");
      announce(kinds.has("win") ? t("table.win_offer_self") : t("ev.your_turn"), { assertive: kinds.has("win") });
    } else if (s.prompt.kind === "santan") {
      if (!resync) play("alert");
    } else {
      if (!resync) play(kinds.has("win") ? "alert" : "turn");
      const acts = [...kinds].filter((k) => k !== "pass").map((k) => t(`act.${k}`)).join(" / ");
      announce(kinds.has("win") ? t("table.win_offer_claim") : t("ev.claim_prompt", { acts }), { assertive: kinds.has("win") });
    }
  }

  function onSeatMode(m) {
    s.modes[m.seat] = m.mode;
    const who = seatName(m.seat, s.seat);
    const key = m.mode === "auto" ? "ev.mode_auto" : m.mode === "bot" ? "ev.mode_bot" : "ev.mode_player";
    addLog(t(key, { who }));
    if (m.seat === s.seat && m.mode !== "player") s.prompt = null;
  }

  function onHandResult(m) {
    s.match = { ...(s.match || {}), totals: m.totals, hand_number: m.number, over: m.match_over };
    s.lastResult = m;
    const st = s.settlement;
    if (st && !st.stored && (st.handNo === null || st.handNo === m.number)) applyStored(st, m, "hand_result");
    const mine = (m.silver || []).find((x) => x.seat === s.seat && x.balance !== null);
    if (mine) app.setBalance(mine.balance);
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
    clearTimeout(storeTimer);
    loadNonwinners(st);
    if (settlementModal) renderSettlementModal();
    render();
  }

  // After a reload between hands the hall resends the last hand_result after the snapshot;
  // should none come, the page finds the stored hand itself (GET /api/me/hands).
  const STORE_WAIT_MS = [1500, 2500, 5000, 10000];
  let storeTimer = null;

  function awaitStore(st, attempt = 0) {
    clearTimeout(storeTimer);
    if (attempt >= STORE_WAIT_MS.length) {
      st.lookupFailed = true;
      if (settlementModal) renderSettlementModal();
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
    if (seat === null || !s.table || !app.me) return null;
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
      app.setBalance(ledger.balance);
    }
    return { hand_id: hand.hand_id, number: hand.number, totals: s.match ? s.match.totals : null, silver, match_over: Boolean(s.match && s.match.over) };
  }

  async function loadNonwinners(st) {
    const result = st.view.result || {};
    if (st.view.ruleset !== "wenling" || result.outcome !== "win" || !st.handId) {
      st.nonwinners = {};
      return;
    }
    try {
      const review = await get(`/api/hands/${st.handId}/replay`);
      st.nonwinners = review.nonwinners;
    } catch {
      st.nonwinners = {};
    }
    if (settlementModal) renderSettlementModal();
  }

  function narrate(event) {
    const line = eventLine(event);
    if (line) addLog(line, event.type === "win" || event.type === "santan");
    const sound = { discard: "discard", chi: "chi", pon: "pon", mkong: "kong", akong: "kong", bukong: "kong", win: "win" }[event.type];
    if (sound) play(sound);
    if (event.type === "hand_end") {
      if (event.outcome !== "win") play("draw_game");
      showSettlement();
    }
  }

  function addLog(line, loud = false) {
    s.log.push(line);
    if (s.log.length > LOG_LINES) s.log.shift();
    announce(line, { assertive: loud });
  }

  function eventLine(event) {
    const me = s.seat;
    const who = seatName(event.seat, me);
    const tile = event.tile ? tileShort(event.tile) : "";
    switch (event.type) {
      case "hand_start": {
        const line = t("ev.hand_start", { n: s.handNo, dealer: seatName(event.dealer, me), dice: (event.dice || []).join("+") });
        const tokens = event.carry_tokens || [];
        return tokens.length ? `${line} · ${t("ev.carry", { names: tokens.map(itemName).join(", ") })}` : line;
      }
      case "draw":
        return event.seat === me && event.tile ? t("ev.draw_self", { tile }) : null;
      case "discard":
        return t("ev.discard", { who, tile });
      case "chi": case "pon": case "mkong": case "bukong":
        return t(`ev.${event.type}`, { who, tile });
      case "akong":
        return t("ev.akong", { who });
      case "flower":
        return t("ev.flower", { who, tile });
      case "kong_robbed":
        return t("ev.kong_robbed", { by: seatName(event.by, me), tile });
      case "santan": {
        const [a, b] = event.pair;
        return t("ev.santan", { pair: pairNames(seatName(a, me), seatName(b, me)) });
      }
      case "santan_choice":
        return t("ev.santan_choice", { who, choice: t(event.choice === "give_up" ? "act.give_up" : "act.continue") });
      case "sheng_phase":
        return t("ev.sheng", { n: event.remaining });
      case "win":
        return t("ev.win", { who, how: t(`win_by.${event.win_by}`), tile });
      case "hand_end":
        return event.outcome === "win" ? null : t("ev.draw_game");
      default:
        return null;
    }
  }

  // ------------------------------------------------------------------ answering

  function offered(type) {
    return s.prompt && !s.prompt.answered ? s.prompt.actions.filter((a) => a.type === type) : [];
  }

  function act(action) {
    if (!s.prompt || s.prompt.answered) return;
    s.actId += 1;
    const id = `a${s.actId}`;
    // not sent (the connection is down): the prompt stays open, to answer once it is back
    if (!send({ type: "act", seq: s.prompt.seq, action, id })) return;
    s.prompt.answered = id;
    s.armed = null;
    closePromptModal();
    render();
  }

  /** The winning action offered now: a Wenling 腊子 (500, at least any 和), else 和 (null when
   * neither is). */
  function winAction() {
    return offered("lazi")[0] || offered("win")[0] || null;
  }

  function winOffered() {
    return winAction() !== null;
  }

  /** Anything but the win while a win is offered asks first: a discard, 过, 碰, 吃, 杠 (only X
   * or the dialog's button confirms; W or 和 wins; any other key cancels). */
  function guarded(action) {
    if (!winOffered() || WIN_TYPES.has(action.type)) {
      act(action);
      return;
    }
    closePromptModal();
    const title = h("h2", { id: "guard-title" }, t("guard.title"));
    const what = guardWhat(action);
    let dialog = null;
    const winning = winAction();
    const winKey = winning.type === "lazi" ? "L" : "W";
    const win = h("button", { type: "button", class: "btn btn-win", dataset: { act: "guard-win" }, onclick: () => { dialog.close(); act(winning); } }, `${t(`act.${winning.type}`)} (${winKey})`);
    const confirm = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "guard-confirm" }, onclick: () => { dialog.close(); act(action); } }, `${what} (X)`);
    const cancel = h("button", { type: "button", class: "btn", dataset: { act: "guard-cancel" }, onclick: () => dialog.close() }, `${t("cancel")} (Esc)`);
    dialog = openModal([title, h("p", {}, t("guard.text", { key: winKey, win: t(`act.${winning.type}`) })), h("div", { class: "modal-buttons" }, win, confirm, cancel)], {
      label: "guard-title",
      kind: "guard",
      focus: cancel,
      onKey: (event) => {
        if (event.repeat && (event.key === "Enter" || event.key === " ")) return true;
        const key = event.key.toLowerCase();
        if (key === "x" && !event.repeat) { dialog.close(); act(action); return true; }
        if (key === winKey.toLowerCase()) { dialog.close(); act(winning); return true; }
        if (event.key === "Escape") { dialog.close(); return true; }
        if (!["Enter", " ", "Tab"].includes(event.key)) { dialog.close(); return true; }
        return false;
      },
    });
    promptModal = dialog;
  }

  function guardWhat(action) {
    switch (action.type) {
      case "discard": return t("guard.discard", { tile: tileName(action.tile) });
      case "pass": return t("guard.pass");
      case "pon": return t("guard.claim", { what: t("act.pon") });
      case "chi": return t("guard.claim", { what: chiLabel(action) });
      default: return t("guard.claim", { what: KONGS.includes(action.type) ? kongLabel(action) : t(`act.${action.type}`) });
    }
  }

  function closePromptModal() {
    if (promptModal) {
      promptModal.close();
      promptModal = null;
    }
  }

  function discard(face) {
    const action = offered("discard").find((a) => a.tile === face);
    if (!action) {
      if (s.prompt && s.prompt.kind === "turn" && !s.prompt.answered) toast(t("table.refused", { msg: tileName(face) }), "error");
      return;
    }
    guarded(action);
  }

  /** Several ways to 吃 or 杠: a choice (the pick is the confirmation; with a win offered it
   * still asks). One way: the button acts, a key arms (see ``claimKey``). */
  function choose(actions, titleKey, label) {
    if (actions.length === 1) {
      guarded(actions[0]);
      return;
    }
    closePromptModal();
    const claimed = s.view && s.view.last_discard ? s.view.last_discard.tile : null;
    const title = h("h2", { id: "choose-title" }, t(titleKey));
    const pick = (a) => { closePromptModal(); guarded(a); };
    const buttons = actions.map((a, i) => {
      const faces = a.type === "chi" ? sortFaces([...a.tiles, claimed]) : [a.tile, a.tile, a.tile, a.tile];
      return h("button", {
        type: "button", class: "btn btn-choice", "aria-label": `${label(a)} (${i + 1})`,
        onclick: () => pick(a),
      }, h("span", { class: "tile-row" }, faces.map((f) => tileImg(f, { wilds: s.view.wilds, ruleset: s.view.ruleset, size: "small", extra: a.type === "chi" && f === claimed ? "claimed-tile" : "" }))),
      h("span", { class: "choice-key" }, String(i + 1)));
    });
    promptModal = openModal([title, h("div", { class: "choices" }, buttons),
      h("div", { class: "modal-buttons" }, h("button", { type: "button", class: "btn", onclick: closePromptModal }, t("cancel")))], {
      label: "choose-title",
      kind: "choose",
      focus: buttons[0],
      onKey: (event) => {
        if (event.repeat) return true;
        const n = Number(event.key);
        if (n >= 1 && n <= actions.length) { pick(actions[n - 1]); return true; }
        if (event.key === "Escape") { closePromptModal(); return true; }
        return false;
      },
    });
  }

  function chiLabel(a) {
    const claimed = s.view.last_discard ? s.view.last_discard.tile : null;
    return `${t("act.chi")} ${sortFaces([...a.tiles, claimed]).map(tileShort).join("")}`;
  }

  function kongLabel(a) {
    return `${t(`act.${a.type}`)} ${tileShort(a.tile || (s.view.last_discard || {}).tile)}`;
  }

  function shortcut(key) {
    const k = key.toLowerCase();
    if (k === "w" && offered("win").length) act(offered("win")[0]);
    else if (k === "l" && offered("lazi").length) act(offered("lazi")[0]);
    else if (k === "p" && offered("pon").length) claimKey(k, offered("pon"), "act.pon", () => t("act.pon"));
    else if (k === "c" && offered("chi").length) claimKey(k, offered("chi"), "act.choose_chi", chiLabel);
    else if (k === "k" && KONGS.some((x) => offered(x).length)) claimKey(k, KONGS.flatMap((x) => offered(x)), "act.choose_kong", kongLabel);
    else return false;
    return true;
  }

  /** A claim key never acts on one press: several ways open the choice; with a win offered
   * the guard asks; otherwise the first press arms the button and the second press of the
   * same key (within ARM_MS, same prompt) acts. */
  function claimKey(k, actions, titleKey, label) {
    if (actions.length > 1) {
      choose(actions, titleKey, label);
      return;
    }
    if (winOffered()) {
      guarded(actions[0]);
      return;
    }
    const now = performance.now();
    const armed = s.armed;
    if (armed && armed.key === k && armed.seq === s.prompt.seq && now - armed.at < ARM_MS) {
      act(actions[0]);
      return;
    }
    s.armed = { key: k, seq: s.prompt.seq, at: now };
    announce(t("table.press_again", { key: k.toUpperCase(), what: label(actions[0]) }), { assertive: true });
    clearTimeout(armTimer);
    armTimer = setTimeout(() => {
      if (s.armed && s.armed.at === now) {
        s.armed = null;
        render();
      }
    }, ARM_MS);
    render();
  }

  // ------------------------------------------------------------------ the 听牌 hint

  function handKey(req) {
    return JSON.stringify([req.concealed, req.melds, req.flowers, req.indicator, req.discarded_wild]);
  }

  async function requestWaits() {
    const view = s.view;
    if (!view || s.seat === null || view.phase === "ended") return;
    const me = view.players[s.seat];
    if (!me.concealed || me.gave_up) return;
    const req = waitsRequest(view, s.seat);
    const key = handKey(req);
    if (s.waits.has(key)) return;
    s.waits.set(key, null);
    try {
      s.waits.set(key, await post("/api/waits", req));
    } catch {
      s.waits.delete(key);
      return;
    }
    if (s.waits.size > 40) s.waits.delete(s.waits.keys().next().value);
    render();
  }

  function currentWaits() {
    const view = s.view;
    if (!view || s.seat === null || !view.players[s.seat].concealed || view.phase === "ended") return null;
    return s.waits.get(handKey(waitsRequest(view, s.seat))) || null;
  }

  function waitsText(waits, wildWins) {
    const parts = waits.map((face) => `${tileShort(face)} ${t("table.tenpai_live", { n: liveCount(s.view, face) })}`);
    if (wildWins) parts.push(t("table.tenpai_wild", { wild: wildWord(s.view.ruleset) }));
    return parts.join(" · ");
  }

  function hintEl(focusFace) {
    const view = s.view;
    const me = view.players[s.seat];
    if (me.gave_up && !(view.options || {}).gaveup_can_win) return null;
    if (discardedWild(view, s.seat)) return h("p", { class: "hint warn" }, t("table.no_win_wild"));
    const data = currentWaits();
    if (!data) return null;
    if (data.waits) {
      if (!data.waits.length && !data.wild_wins) return null;
      return h("p", { class: "hint tenpai", role: "status" }, h("strong", {}, `${t("table.tenpai")}: `),
        h("span", { class: "tile-row" }, data.waits.map((f) => tileImg(f, { wilds: view.wilds, ruleset: view.ruleset, size: "tiny" }))),
        " ", waitsText(data.waits, data.wild_wins));
    }
    const face = focusFace;
    const option = face ? data.discards.find((d) => d.tile === face) : null;
    if (!option) return null;
    return h("p", { class: "hint tenpai", role: "status" }, h("strong", {}, `${t("table.tenpai_after")} ${tileShort(face)}: `),
      waitsText(option.waits, option.wild_wins));
  }

  // ------------------------------------------------------------------ drawing

  function names() {
    return (s.table ? s.table.seats : []).map((x) => (x.kind === "bot" ? t("table.bot") : x.name || ""));
  }

  // The screen has stable regions: the own hand and its actions are redrawn only when what
  // they show changes (a click or a hover is never lost to another seat's discard), and the
  // side panel keeps its chat input.
  const regions = {
    bar: h("div", { class: "table-bar-wrap" }),
    status: h("div", { class: "table-status" }),
    board: h("div", { class: "board-slot" }),
    mine: h("div", { class: "mine-slot" }),
    side: h("aside", { class: "table-side" }),
  };
  const felt = h("div", { class: "table-board" }, regions.board, regions.mine);
  root.append(regions.bar, regions.status, h("div", { class: "table-main" }, felt, regions.side));
  let mineKey = null;
  let sideKey = null;

  function render() {
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    clear(regions.bar).append(topBar());
    clear(regions.status);
    if (s.stopped) regions.status.append(stoppedEl());
    else if (s.conn === "reconnecting" || s.conn === "connecting") regions.status.append(h("div", { class: "banner banner-conn", role: "status" }, s.conn === "connecting" ? t("loading") : t("table.reconnecting")));
    const bar = settlementBar();
    if (bar) regions.status.append(bar);
    clear(regions.board);
    felt.classList.toggle("felt", Boolean(s.view));
    felt.className = `table-board${s.view ? ` felt ruleset-${s.view.ruleset}` : ""}`;
    if (s.view) regions.board.append(boardEl(s.view, boardCtx()));
    else if (s.table) regions.board.append(waitingEl());
    renderMine();
    renderSide();
    if (focusKey && !root.contains(document.activeElement)) {
      const el = root.querySelector(`[data-focus-key="${focusKey}"]`);
      if (el) el.focus({ preventScroll: true });
    }
    if (promptModal && (!s.prompt || s.prompt.answered || !promptModal.el.isConnected)) closePromptModal();
    if (s.prompt && s.prompt.kind === "santan" && !s.prompt.answered && !promptModal) santanDialog();
    tick();
  }

  function renderMine() {
    const view = s.view;
    if (!view || s.seat === null) {
      mineKey = null;
      clear(regions.mine);
      return;
    }
    const me = view.players[s.seat];
    const key = JSON.stringify([lang(), media.matches, me.concealed, me.drawn, view.phase, view.turn, view.wilds,
      s.prompt && { seq: s.prompt.seq, answered: s.prompt.answered }, s.modes[s.seat],
      s.table && s.table.seats[s.seat].auto_reason, view.claim_counts, view.santan_pairs, me.gave_up,
      currentWaits(), view.last_discard, view.robbable, s.armed && s.armed.key]);
    if (key === mineKey) return;
    mineKey = key;
    clear(regions.mine).append(myArea());
  }

  function renderSide() {
    const key = JSON.stringify([lang(), media.matches, s.seat === null, Boolean(s.phrases)]);
    if (key !== sideKey) {
      sideKey = key;
      clear(regions.side).append(...sidePanel());
    }
    const log = regions.side.querySelector(".log");
    clear(log).append(...s.log.slice(-30).map((line) => h("li", {}, line)));
    log.scrollTop = log.scrollHeight;
    const lines = regions.side.querySelector(".chat-lines");
    clear(lines).append(...s.chat.slice(-40).map((m) => h("li", {}, h("strong", {}, `${m.name}: `), chatText(m))));
    lines.scrollTop = lines.scrollHeight;
  }

  function boardCtx() {
    const seats = s.table ? s.table.seats : [];
    return {
      me: s.seat,
      names: names(),
      totals: s.match ? s.match.totals : null,
      modes: s.modes,
      connected: seats.map((x) => x.connected || x.kind !== "person"),
      compact: media.matches,
      openHands: false,
      mineOutside: s.seat !== null,
    };
  }

  function topBar() {
    const tbl = s.table;
    if (!tbl) return h("div", { class: "table-bar" }, t("loading"));
    const length = tbl.length || {};
    const info = [];
    const rulesetName = t(`ruleset.${tbl.ruleset}`);
    info.push(h("h1", { class: "table-title" }, t("table.name", { ruleset: rulesetName, n: tbl.number })));
    info.push(...lobbyBadges(tbl));
    if (s.handNo) info.push(h("span", { class: "info hand-no" }, length.hands ? t("table.hand_of", { n: s.handNo, total: length.hands }) : t("table.hand_no", { n: s.handNo })));
    if (tbl.room_code) info.push(h("span", { class: "info room" }, t("table.room", { code: tbl.room_code })));
    if (s.seat === null) info.push(badge(t("table.spectating"), "watch"));
    if (s.view && s.view.commitment) info.push(h("span", { class: "info commitment", title: s.view.commitment }, `${t("table.commitment")} ${s.view.commitment.slice(0, 8)}…`));
    const leave = h("button", { type: "button", class: "btn btn-plain", onclick: leaveTable }, t("table.leave"));
    return h("div", { class: "table-bar" }, h("div", { class: "table-info" }, info), rulesButton(app, tbl), leave);
  }

  function stoppedEl() {
    const again = h("button", { type: "button", class: "btn", onclick: () => { s.stopped = null; socket.open(); render(); } }, t("table.reopen"));
    return h("div", { class: "banner banner-stop", role: "alert" }, s.stopped, " ", again);
  }

  function waitingEl() {
    const tbl = s.table;
    const seated = s.seat !== null;
    const seats = tbl.seats.map((x) => h("li", { class: `wait-seat ${x.kind}` },
      h("span", { class: "wait-who" }, x.kind === "empty" ? t("table.empty_seat") : x.kind === "bot" ? t("table.bot") : x.name),
      x.kind !== "empty" && x.ready ? badge(t("table.ready_mark"), "ready") : null,
      x.kind === "empty" && !seated && tbl.status === "waiting"
        ? h("button", { type: "button", class: "btn", onclick: () => send({ type: "sit", seat: x.seat }) }, t("table.take_seat")) : null));
    const buttons = [];
    if (seated && tbl.status === "waiting") {
      if (tbl.seats.some((x) => x.kind === "empty")) buttons.push(h("button", { type: "button", class: "btn", onclick: () => send({ type: "add_bots" }) }, t("table.add_bots")));
      const ready = tbl.seats[s.seat].ready;
      buttons.push(h("button", { type: "button", class: "btn btn-primary", onclick: () => send({ type: "ready", ready: !ready }) }, ready ? t("table.unready") : t("table.ready")));
      if (tbl.host === app.me?.id) buttons.push(h("button", { type: "button", class: "btn", onclick: () => send({ type: "start", bots: true }) }, t("table.start")));
    }
    return h("section", { class: "waiting card" }, h("h2", {}, t("table.waiting_title")),
      h("ul", { class: "wait-seats" }, seats), h("div", { class: "buttons" }, buttons));
  }

  function myArea() {
    const view = s.view;
    const seat = s.seat;
    const area = h("div", { class: "my-area" });
    if (s.modes[seat] === "auto") {
      const reason = (s.table && s.table.seats[seat].auto_reason) || "timeout";
      area.append(h("div", { class: "banner banner-auto", role: "status" },
        t("table.tuoguan_mine", { why: t(`table.why.${reason === "offline" ? "offline" : "timeout"}`) }), " ",
        h("button", { type: "button", class: "btn btn-primary", dataset: { focusKey: "resume" }, onclick: () => send({ type: "resume" }) }, t("table.take_back"))));
    }
    for (const w of santanWarnings(view)) {
      const x = seatName(w.x, seat);
      const y = seatName(w.y, seat);
      area.append(h("p", { class: "banner banner-santan", role: "status" },
        t("table.santan_warn", { x, y, n: w.n, pair: pairNames(x, y) })));
    }
    area.append(actionsEl());
    area.append(handEl());
    const patterns = patternHintEl(currentWaits(), view.ruleset);
    if (patterns) area.append(patterns);
    const hint = hintEl(focusedFace());
    if (hint) area.append(hint);
    return area;
  }

  function focusedFace() {
    const hand = displayHand(s.view, s.seat);
    const faces = [...hand.tiles, ...(hand.drawn ? [hand.drawn] : [])];
    const i = s.hover !== undefined && s.hover !== null ? s.hover : s.cursor;
    if (i === null || i === undefined) return hand.drawn || null;
    return faces[Math.min(i, faces.length - 1)] || null;
  }

  function handEl() {
    const view = s.view;
    const { tiles, drawn } = displayHand(view, s.seat);
    const faces = [...tiles, ...(drawn ? [drawn] : [])];
    const discards = new Set(offered("discard").map((a) => a.tile));
    const tenpai = new Set(((currentWaits() || {}).discards || []).map((d) => d.tile));
    if (s.cursor === null || s.cursor >= faces.length) s.cursor = faces.length - 1;
    const buttons = faces.map((face, i) => {
      const can = discards.has(face);
      const el = tileButton(face, {
        wilds: view.wilds,
        ruleset: view.ruleset,
        extra: `${can ? "can" : ""}${drawn && i === faces.length - 1 ? " drawn" : ""}${tenpai.has(face) ? " tenpai-discard" : ""}`,
        attrs: {
          tabindex: i === s.cursor ? "0" : "-1",
          "aria-disabled": can ? "false" : "true",
          dataset: { face, focusKey: `hand-${i}`, index: String(i) },
        },
      });
      el.addEventListener("click", () => { s.cursor = i; discard(face); });
      el.addEventListener("focus", () => { s.cursor = i; updateHint(); });
      el.addEventListener("mouseenter", () => { s.hover = i; updateHint(); });
      el.addEventListener("mouseleave", () => { s.hover = null; updateHint(); });
      return el;
    });
    if (drawn) buttons.splice(buttons.length - 1, 0, h("span", { class: "drawn-gap", "aria-hidden": "true" }));
    const hand = h("div", { class: "hand", role: "toolbar", "aria-label": `${t("seat.self")}: ${faces.map((f) => tileLabel(f, { wild: view.wilds.includes(f), ruleset: view.ruleset })).join(", ")}` }, buttons);
    hand.addEventListener("keydown", handKeys, true);
    return hand;
  }

  function updateHint() {
    const area = root.querySelector(".my-area");
    if (!area) return;
    const old = area.querySelector(".hint");
    const hint = hintEl(focusedFace());
    if (old) old.remove();
    if (hint) area.append(hint);
  }

  function handKeys(event) {
    if ((event.key === "Enter" || event.key === " ") && event.repeat) {
      event.preventDefault();  // a key held down discards nothing more
    }
  }

  function moveCursor(key) {
    const tiles = [...root.querySelectorAll(".hand .tile-btn")];
    if (!tiles.length) return false;
    const last = tiles.length - 1;
    const at = s.cursor === null ? last : Math.min(s.cursor, last);
    const next = { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(last, at + 1), Home: 0, End: last }[key];
    s.cursor = next;
    tiles.forEach((el, i) => el.setAttribute("tabindex", i === next ? "0" : "-1"));
    tiles[next].focus();
    return true;
  }

  function actionsEl() {
    const p = s.prompt;
    const view = s.view;
    const bar = h("div", { class: "actions", role: "group", "aria-label": t("table.keys") });
    if (!p || p.answered || s.seat === null) {
      if (view.phase !== "ended" && view.turn !== s.seat) bar.append(h("span", { class: "prompt-text muted" }, t("table.turn_of", { who: seatName(view.turn, s.seat) })));
      return bar;
    }
    const kinds = new Set(p.actions.map((a) => a.type));
    const win = kinds.has("win") || kinds.has("lazi");
    let text;
    if (p.kind === "turn") {
      text = win ? t(kinds.has("win") ? "table.win_offer_self" : "table.win_offer_lazi") : t("table.your_turn");
    } else if (p.kind === "claim") {
      const last = view.last_discard || {};
      text = [win ? t("table.win_offer_claim") : t("table.claim_on", { who: seatName(last.seat, s.seat) }), " ",
        tileImg(last.tile, { wilds: view.wilds, ruleset: view.ruleset, size: "tiny" })];
    } else if (p.kind === "rob") {
      const rob = view.robbable || {};
      text = [win ? t("table.win_offer_rob") : t("table.rob_on", { who: seatName(rob.seat, s.seat) }), " ",
        rob.tile ? tileImg(rob.tile, { wilds: view.wilds, ruleset: view.ruleset, size: "tiny" }) : null];
    } else {
      text = t("santan.title");
    }
    bar.classList.add(win ? "win-offer" : "asking");
    bar.append(h("span", { class: `prompt-text${win ? " loud" : ""}`, role: win ? "alert" : null }, text));
    const buttons = h("span", { class: "action-buttons" });
    const armed = s.armed && s.armed.seq === p.seq ? s.armed.key : null;
    const button = (label, key, onclick, cls = "") => h("button", { type: "button", class: `btn act ${cls}${armed === key ? " armed" : ""}`, dataset: { focusKey: `act-${key}`, act: key }, onclick },
      label, h("kbd", { class: "key" }, armed === key ? `${key.toUpperCase()} ×2` : key.toUpperCase()));
    if (kinds.has("win")) buttons.append(button(t("act.win"), "w", () => act(offered("win")[0]), "btn-win"));
    if (kinds.has("lazi")) buttons.append(button(t("act.lazi"), "l", () => act(offered("lazi")[0]), "btn-win"));
    if (kinds.has("pon")) buttons.append(button(`${t("act.pon")}`, "p", () => guarded(offered("pon")[0]), "btn-claim"));
    const kongs = KONGS.flatMap((k) => offered(k));
    if (kongs.length) buttons.append(button(kongs.length === 1 ? kongLabel(kongs[0]) : `${t("act.kong")}…`, "k", () => choose(kongs, "act.choose_kong", kongLabel), "btn-claim"));
    const chis = offered("chi");
    if (chis.length) buttons.append(button(chis.length === 1 ? chiLabel(chis[0]) : `${t("act.chi")}…`, "c", () => choose(chis, "act.choose_chi", chiLabel), "btn-claim"));
    if (kinds.has("pass")) {
      buttons.append(h("button", { type: "button", class: "btn act btn-pass", dataset: { focusKey: "act-pass", act: "pass" }, onclick: () => guarded(offered("pass")[0]) }, t("act.pass")));
    }
    if (kinds.has("continue")) {
      buttons.append(h("button", { type: "button", class: "btn act", onclick: santanDialog }, `${t("act.continue")} / ${t("act.give_up")}`));
    }
    bar.append(buttons, countdownEl());
    if (armed) {
      const what = { p: t("act.pon"), c: t("act.chi"), k: t("act.kong") }[armed];
      bar.append(h("span", { class: "armed-hint", role: "status" }, t("table.press_again", { key: armed.toUpperCase(), what })));
    }
    return bar;
  }

  function countdownEl() {
    const p = s.prompt;
    if (!p || p.time_ms === null || p.time_ms === undefined) return null;
    return h("span", { class: "countdown", role: "timer", "aria-live": "off" },
      h("span", { class: "countdown-bar" }, h("span", { class: "countdown-fill" })),
      h("span", { class: "countdown-text" }));
  }

  function tick() {
    const p = s.prompt;
    const els = document.querySelectorAll(".countdown");
    if (!p || p.time_ms === null || p.time_ms === undefined || !els.length) return;
    const elapsed = performance.now() - p.at;
    const free = p.time_ms - elapsed;
    const bank = (p.bank_ms || 0) + Math.min(0, free);
    for (const el of els) {
      const fill = el.querySelector(".countdown-fill");
      const text = el.querySelector(".countdown-text");
      if (free > 0) {
        fill.style.width = `${Math.max(0, Math.min(100, (free / Math.max(p.time_ms, 1)) * 100))}%`;
        fill.classList.toggle("low", free < 3000);
        text.textContent = t("table.seconds", { n: Math.ceil(free / 1000) }) + (p.bank_ms ? ` + ${t("table.bank", { n: Math.ceil(p.bank_ms / 1000) })}` : "");
      } else {
        fill.style.width = `${Math.max(0, Math.min(100, (bank / Math.max(p.bank_ms || 1, 1)) * 100))}%`;
        fill.classList.add("low");
        text.textContent = t("table.bank", { n: Math.max(0, Math.ceil(bank / 1000)) });
      }
      el.dataset.seconds = String(Math.max(0, Math.ceil((free > 0 ? free : bank) / 1000)));
    }
  }

  function santanDialog() {
    const p = s.prompt;
    if (!p || p.kind !== "santan" || (promptModal && promptModal.el.isConnected)) return;
    const view = s.view;
    const pair = view.santan_pairs[view.santan_pairs.length - 1] || [0, 1];
    const names = pairNames(seatName(pair[0], s.seat), seatName(pair[1], s.seat));
    const canWin = Boolean((view.options || {}).gaveup_can_win);
    const keep = h("button", { type: "button", class: "btn btn-primary", dataset: { act: "continue" }, onclick: () => act(offered("continue")[0]) }, t("act.continue"));
    const quit = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "give_up" }, onclick: () => act(offered("give_up")[0]) }, t("act.give_up"));
    promptModal = openModal([
      h("h2", { id: "santan-title" }, t("santan.title")),
      h("p", {}, t("santan.text", { pair: names })),
      h("ul", { class: "santan-choices" }, h("li", {}, t("santan.continue_hint")), h("li", {}, t(canWin ? "santan.give_up_can_win" : "santan.give_up_no_win"))),
      countdownEl(),
      h("div", { class: "modal-buttons" }, keep, quit),
    ], { label: "santan-title", kind: "santan", focus: keep, onKey: (event) => event.repeat && event.key === "Enter" });
    tick();
  }

  // ------------------------------------------------------------------ the settlement

  function showSettlement() {
    const view = copyView(s.view);
    s.settlement = {
      view, handNo: s.handNo, handId: s.handId, totals: null, silver: null, nonwinners: null,
      matchOver: false, stored: false, nextStarted: false,
    };
    s.settlementHand = s.handId;
    s.prompt = null;
    const last = s.lastResult;
    if (last && last.number === s.handNo) applyStored(s.settlement, last, "hand_result");
    renderSettlementModal();
  }

  function renderSettlementModal() {
    const st = s.settlement;
    if (!st || st.collapsed) return;
    const ctx = {
      me: s.seat, names: names(), handNo: st.handNo, base: s.table ? s.table.base : null,
      totals: st.totals, silver: st.silver, nonwinners: st.nonwinners, handId: st.stored ? st.handId : null,
    };
    const body = [settlementEl(st.view, ctx)];
    if (!st.stored && !st.lookupFailed) body.push(h("p", { class: "muted st-saving" }, t("st.waiting_store")));
    if (st.matchOver && st.totals) body.push(standingsEl(st.totals, ctx));
    if (st.nextStarted) body.push(h("p", { class: "banner" }, t("table.next_hand")));
    const buttons = h("div", { class: "modal-buttons" });
    if (st.matchOver) {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", dataset: { act: "again" }, onclick: () => dismissSettlement(true) }, t("table.play_again")),
        h("a", { class: "btn", href: "#/" }, t("table.to_lobby")));
    } else {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", dataset: { act: "continue-hand" }, onclick: () => dismissSettlement(!st.nextStarted) }, st.nextStarted ? t("table.dismiss") : t("table.ready_next")));
    }
    body.push(buttons);
    const scroll = settlementModal ? settlementModal.el.scrollTop : 0;
    if (settlementModal) settlementModal.close();
    settlementModal = openModal(body, { label: "settlement-title", kind: "settlement", onKey: () => false });
    settlementModal.el.scrollTop = scroll;
  }

  function dismissSettlement(ready) {
    const st = s.settlement;
    if (settlementModal) settlementModal.close();
    settlementModal = null;
    s.settlement = null;
    if (ready && st && !st.nextStarted && s.seat !== null && s.table && s.table.status !== "playing") send({ type: "ready", ready: true });
    render();
  }

  /** A prompt of the next hand while the settlement is open: the settlement folds into a bar
   * above the table (it can be opened again) so that the player sees the prompt and acts. */
  function collapseSettlement() {
    const st = s.settlement;
    if (!st || st.collapsed || !settlementModal) return;
    settlementModal.close();
    settlementModal = null;
    st.collapsed = true;
    announce(t("st.collapsed_note"), { assertive: true });
  }

  function reopenSettlement() {
    const st = s.settlement;
    if (!st) return;
    st.collapsed = false;
    renderSettlementModal();
    render();
  }

  function settlementBar() {
    const st = s.settlement;
    if (!st || !st.collapsed) return null;
    const title = st.handNo ? t("st.title", { n: st.handNo }) : t("st.title_plain");
    return h("div", { class: "banner st-bar", role: "status" }, h("strong", {}, title), " ",
      h("span", { class: "muted" }, t("st.collapsed_note")), " ",
      h("button", { type: "button", class: "btn btn-small", dataset: { act: "reopen-settlement", focusKey: "reopen-settlement" }, onclick: reopenSettlement }, t("st.reopen")),
      h("button", { type: "button", class: "btn btn-small btn-plain", dataset: { act: "close-settlement" }, onclick: () => dismissSettlement(false) }, t("close")));
  }

  // ------------------------------------------------------------------ chat and log

  function chatText(m) {
    if (m.phrase && s.phrases && s.phrases[m.phrase]) return s.phrases[m.phrase][lang()];
    return m.text || m.phrase || "";
  }

  function sidePanel() {
    const log = h("ol", { class: "log", "aria-label": t("table.log") });
    const messages = h("ol", { class: "chat-lines", "aria-label": t("table.chat") });
    const chat = [h("h2", { class: "side-title" }, t("table.chat")), messages];
    if (s.seat !== null) {
      const input = h("input", { type: "text", maxlength: "80", "aria-label": t("table.chat_placeholder"), placeholder: t("table.chat_placeholder"), dataset: { focusKey: "chat-input" } });
      const form = h("form", { class: "chat-form", onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (text) send({ type: "chat", text });
        input.value = "";
      } }, input, h("button", { type: "submit", class: "btn" }, t("table.chat_send")));
      const phrases = h("div", { class: "phrases" }, Object.entries(s.phrases || {}).map(([id, words]) =>
        h("button", { type: "button", class: "btn btn-small", dataset: { phrase: id }, onclick: () => send({ type: "chat", phrase: id }) }, words[lang()])));
      chat.push(phrases, form);
    } else {
      chat.push(h("p", { class: "muted" }, t("table.chat_spectator")));
    }
    const keys = h("p", { class: "muted keys-help" }, t("table.keys"));
    const content = [h("h2", { class: "side-title" }, t("table.log")), log, ...chat, keys];
    if (media.matches) return [h("details", {}, h("summary", {}, `${t("table.log")} · ${t("table.chat")}`), ...content)];
    return content;
  }

  // ------------------------------------------------------------------ leaving, keys, life

  function leaveTable() {
    if (s.seat === null || !s.table || s.table.status === "waiting") {
      if (s.seat !== null) send({ type: "stand" });
      location.hash = "#/";
      return;
    }
    let dialog = null;
    const yes = h("button", { type: "button", class: "btn btn-danger", onclick: () => {
      send({ type: "stand", escape: true });
      dialog.close();
      location.hash = "#/";
    } }, t("table.leave_escape"));
    const no = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("cancel"));
    dialog = openModal([h("h2", { id: "leave-title" }, t("table.leave")), h("p", {}, t("table.escape_confirm")),
      h("div", { class: "modal-buttons" }, no, yes)], { label: "leave-title", focus: no,
      onKey: (e) => { if (e.key === "Escape") { dialog.close(); return true; } return false; } });
  }

  function onKey(event) {
    if (modalOpen() || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) && s.view && s.seat !== null) {
      if (moveCursor(event.key)) event.preventDefault();
      return;
    }
    if (event.key.length === 1 && !event.repeat && shortcut(event.key)) event.preventDefault();
  }

  document.addEventListener("keydown", onKey);
  const relayout = () => render();
  media.addEventListener("change", relayout);
  const offLang = onLangChange(() => { render(); if (settlementModal) renderSettlementModal(); });
  ticker = setInterval(tick, 200);
  get("/api/phrases").then((data) => {
    s.phrases = Object.fromEntries(Object.entries(data.phrases).map(([id, p]) => [id, p]));
    render();
  }).catch(() => {});
  render();
  socket.open();

  return () => {
    document.removeEventListener("keydown", onKey);
    media.removeEventListener("change", relayout);
    offLang();
    clearInterval(ticker);
    clearTimeout(armTimer);
    clearTimeout(storeTimer);
    closeAll();
    socket.close();
    if (window.baidaTable && window.baidaTable.socket === socket) delete window.baidaTable;
  };
}

/** The lobby's badges of a table: ruleset, 吃 or not, 硬自摸 or 抓铳, stakes, 底分, length. */
export function lobbyBadges(table) {
  return (table.badges || []).map((b) => {
    const [key, value] = b.split(":");
    if (value !== undefined) return badge(t(`badge.${key}`, { n: value }), key);
    return badge(t(`badge.${key}`), key);
  });
}
