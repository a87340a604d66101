// The live table: one WebSocket to the hall (socket.js), the hand followed from its snapshot
// and events (state.js), drawn by board.js. The parts, each in its own module, share one
// context ``T`` (the state ``T.s``, ``send``, ``render``):
//   table_chrome.js   the table's place in the top bar, its information panel, the waiting room, leaving
//   table_hand.js     the own seat and hand: tiles, the pointer, tap to lift, the keys, the 听牌 hint
//   table_actions.js  the action bar: prompts, countdown, claim keys, the win guard, choices, 三摊
//   table_settle.js   the settlement dialog, its countdown, the stored hand, folding away
//   table_side.js     the event log and the chat
//   callouts.js       吃/碰/杠/和 called out at the seat, and the win shown before the settlement

import { get } from "./api.js";
import { boardEl, fitCentre } from "./board.js";
import { makeCallouts } from "./callouts.js";
import { closeAll } from "./dialogs.js";
import { announce, clear, h, toast } from "./dom.js";
import { displayName, onLangChange, refusalWords, seatName, t } from "./i18n.js";
import { play } from "./sound.js";
import { TableSocket } from "./socket.js";
import { applyEvent, copyView, viewFromStart } from "./state.js";
import { ANSWERED, makeActions } from "./table_actions.js";
import { makeChrome } from "./table_chrome.js";
import { makeHand } from "./table_hand.js";
import { makeSettle } from "./table_settle.js";
import { eventLine, makeSide } from "./table_side.js";
import { keepScreenOn } from "./wake.js";

const PORTRAIT = "(orientation: portrait)";
const WIDE = "(min-width: 1100px) and (min-aspect-ratio: 5/4)";  // room for the side panel
const SOUNDS = { discard: "discard", chi: "chi", pon: "pon", mkong: "kong", akong: "kong", bukong: "kong", win: "win" };

export function mountTable(main, app, tableId, { autoplay = false, sit = false } = {}) {
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
    storageDown: false,  // the hall cannot store the table's moves: it waits, clocks stopped
    cursor: null,
    lifted: null,
    waits: new Map(),
    phrases: null,
    autoplay,
    sitOnArrival: sit,
    actId: 0,
  };
  const portrait = window.matchMedia(PORTRAIT);
  const wide = window.matchMedia(WIDE);
  const root = h("div", { class: "table-screen" });
  clear(main).append(root);
  const socket = new TableSocket(tableId, { onMessage: receive, onStatus: status });
  window.baidaTable = { state: s, socket };  // for tests and the curious: read-only use

  const T = {
    s, app, root, socket, tableId, send, render,
    portrait: () => portrait.matches,
    wide: () => wide.matches,
    names,
  };
  T.chrome = makeChrome(T);
  T.hand = makeHand(T);
  T.actions = makeActions(T);
  T.settle = makeSettle(T);
  T.side = makeSide(T);
  T.callouts = makeCallouts(T);

  // ------------------------------------------------------------------ connection

  function status(kind, code) {
    if (kind === "open" || kind === "reopened") {
      s.conn = "open";
      s.awaitingSnapshot = true;
    } else if (["reconnecting", "moving", "finding"].includes(kind)) {
      s.conn = kind;
      s.awaitingSnapshot = true;
      s.prompt = null;
    } else if (kind === "closed") {
      s.conn = "closed";
      if (code === 4404) s.stopped = s.stopped || t("table.no_table");
      if (code === 1013) s.stopped = s.stopped || t("table.unavailable");
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
        s.storageDown = false;  // (told again if it still is)
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
      case "prompt": {
        // on reconnecting the snapshot shows the open prompt first: no second sound for it
        const again = !!(s.prompt && s.prompt.seq === m.seq);
        s.prompt = { ...m, at: performance.now() };
        T.actions.promptOpened(again);
        break;
      }
      case "prompt_closed":
        if (s.prompt && s.prompt.seq === m.seq) {
          s.prompt = null;
          announce(t("table.timeout"));
        }
        break;
      case "ack":  // the answer is taken (a refused one is answered "refused")
        if (s.prompt && s.prompt.seq === m.seq) {
          window.dispatchEvent(new CustomEvent(ANSWERED, { detail: { kind: s.prompt.kind } }));
          s.prompt = null;
        }
        break;
      case "refused":
        if (s.prompt && s.prompt.answered && m.id === s.prompt.answered) s.prompt.answered = null;
        toast(t("table.refused", { msg: refusalWords(m) }), "error");
        break;
      case "seat_mode":
        onSeatMode(m);
        break;
      case "hand_result":
        T.settle.onHandResult(m);
        break;
      case "chat":
        T.side.onChat(m);
        break;
      case "reported":
        T.side.onReported(m);
        break;
      case "notice":
        if (m.code === "storage_down" || m.code === "storage_back") s.storageDown = m.code === "storage_down";
        else if (m.code === "match_abandoned") toast(t("table.abandoned"), "info", 12000);
        break;
      case "error":
        s.stopped = m.code === "replaced" ? t("table.replaced")
          : m.code === "unattended" ? t("table.unattended")
          : m.code === "broken" ? t("table.broken") : t("table.closed", { msg: m.message });
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
    // created or invited ("create and sit", the invite link): take the first free seat once
    if (s.sitOnArrival && s.table) {
      s.sitOnArrival = false;
      const free = s.table.seats.some((x) => x.kind === "empty");
      if (s.table.status === "waiting" && mySeat() === null && free) send({ type: "sit", seat: null });
    }
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
    T.side.restoreLog();
    if (m.view.phase === "ended" && fresh && !s.settlement) T.settle.show();
    if (m.view.phase === "ended" && s.settlement && !s.settlement.stored) T.settle.awaitStore(s.settlement);
    if (s.prompt) T.actions.promptOpened(true);
    T.hand.requestWaits();
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
    T.hand.requestWaits();
  }

  function startHand(event) {
    s.view = viewFromStart(event, { options: s.table ? s.table.options : {}, seat: s.seat });
    s.handNo = (s.match ? s.match.hand_number : 0) + 1;
    s.prompt = null;
    s.cursor = null;
    s.lifted = null;
    s.log = [];
    s.awaitingSnapshot = false;
    s.lastResult = null;
    T.settle.nextHandStarted();
  }

  function narrate(event) {
    const line = eventLine(event, s);
    if (line) T.side.addLog(line, event.type === "win" || event.type === "santan");
    if (SOUNDS[event.type]) play(SOUNDS[event.type]);
    T.callouts.onEvent(event);
    if (event.type === "hand_end") {
      if (event.outcome !== "win") play("draw_game");
      // a win is shown at the table first (callouts.js), then the settlement opens
      T.callouts.afterReveal(() => T.settle.show());
    }
  }

  function onSeatMode(m) {
    s.modes[m.seat] = m.mode;
    const who = seatName(m.seat, s.seat);
    const key = m.mode === "auto" ? "ev.mode_auto" : m.mode === "bot" ? "ev.mode_bot" : "ev.mode_player";
    T.side.addLog(t(key, { who }));
    if (m.seat === s.seat && m.mode !== "player") s.prompt = null;
  }

  // ------------------------------------------------------------------ drawing

  function names() {
    return (s.table ? s.table.seats : []).map((x) => (x.kind === "bot" ? t("table.bot") : displayName(x.name || "")));
  }

  // The screen has stable regions: the own seat and hand and the action bar are redrawn only
  // when what they show changes (a click or a hover is never lost to another seat's discard),
  // and the side panel keeps its chat input.
  const regions = {
    status: h("div", { class: "table-status" }),
    board: h("div", { class: "board-slot" }),
    mine: h("div", { class: "mine-slot" }),
    side: h("aside", { class: "table-side", id: "table-side" }),
  };
  const felt = h("div", { class: "table-board" }, regions.board, T.callouts.layer, regions.mine);
  root.append(h("div", { class: "table-main" }, felt, regions.side), regions.status);
  // the hand's tiles take its width (app.css ".hand"); the 记录 panel, opened over the table,
  // stops above the own seat, the action bar and the hand (it hid a turn's countdown)
  const handWidth = new ResizeObserver(([entry]) => {
    regions.mine.style.setProperty("--hand-w", `${Math.round(entry.contentRect.width)}px`);
    root.style.setProperty("--mine-h", `${Math.ceil(entry.target.getBoundingClientRect().height)}px`);
  });
  handWidth.observe(regions.mine);

  // Messages come in bursts (a discard, the claims, the next draw): the screen is drawn once
  // per frame at most, after the burst.
  let frame = null;
  let left = false;  // the table was left (unmounted)

  function render() {
    // (a late answer, such as the account's mutes, may ask after the table was left: the
    // next screen owns the page then)
    if (frame === null && !left) frame = requestAnimationFrame(draw);
  }

  function draw() {
    frame = null;
    const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focusKey : null;
    T.chrome.renderBar();
    clear(regions.status);
    if (s.stopped) regions.status.append(T.chrome.stoppedEl());
    else if (["reconnecting", "connecting", "moving", "finding"].includes(s.conn)) regions.status.append(h("div", { class: "banner banner-conn", role: "status" }, t(s.conn === "connecting" ? "loading" : `table.${s.conn}`)));
    else if (s.storageDown) regions.status.append(h("div", { class: "banner banner-conn", role: "status" }, t("table.storage_down")));
    const bar = T.settle.foldedBar();
    if (bar) regions.status.append(bar);
    root.classList.toggle("with-side", wide.matches);
    root.classList.toggle("portrait", portrait.matches);
    clear(regions.board);
    felt.className = `table-board${s.view ? ` felt ruleset-${s.view.ruleset}` : ""}`;
    if (s.view) {
      const board = boardEl(s.view, boardCtx());
      regions.board.append(board);
      fitCentre(board);
    }
    else if (s.table) regions.board.append(T.chrome.waitingEl());
    T.hand.renderMine(regions.mine);
    T.side.render(regions.side);
    if (focusKey && !root.contains(document.activeElement)) {
      const el = root.querySelector(`[data-focus-key="${focusKey}"]`);
      if (el) el.focus({ preventScroll: true });
    }
    T.actions.afterRender();
    // a tab in the background says in its title when a decision waits for the player
    document.title = s.prompt && !s.prompt.answered ? `${t("table.title_move")} · ${t("app.title")}` : t("app.title");
  }

  function boardCtx() {
    const seats = s.table ? s.table.seats : [];
    return {
      me: s.seat,
      names: names(),
      totals: s.match ? s.match.totals : null,
      modes: s.modes,
      connected: seats.map((x) => x.connected || x.kind !== "person"),
      openHands: false,
      portrait: portrait.matches,
      mineOutside: s.seat !== null,
    };
  }
  T.boardCtx = boardCtx;

  // ------------------------------------------------------------------ keys, life

  function onKey(event) {
    T.actions.onKey(event);
  }

  document.addEventListener("keydown", onKey);
  const relayout = () => render();
  portrait.addEventListener("change", relayout);
  wide.addEventListener("change", relayout);
  const offLang = onLangChange(() => { render(); T.settle.redraw(); });
  const ticker = setInterval(() => { T.actions.tick(); T.settle.tick(); }, 200);
  get("/api/phrases").then((data) => {
    s.phrases = Object.fromEntries(Object.entries(data.phrases).map(([id, p]) => [id, p]));
    render();
  }).catch(() => {});
  render();
  socket.open();
  const releaseScreen = keepScreenOn();

  return () => {
    left = true;
    releaseScreen();
    document.title = t("app.title");
    document.removeEventListener("keydown", onKey);
    portrait.removeEventListener("change", relayout);
    wide.removeEventListener("change", relayout);
    offLang();
    clearInterval(ticker);
    if (frame !== null) cancelAnimationFrame(frame);
    handWidth.disconnect();
    T.actions.stop();
    T.settle.stop();
    T.callouts.stop();
    T.chrome.stop();
    closeAll();
    socket.close();
    if (window.baidaTable && window.baidaTable.socket === socket) delete window.baidaTable;
  };
}
