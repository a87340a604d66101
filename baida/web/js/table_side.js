// The table's side panel: the event log (kept through a reload of the page: the hall
// re-sends the hand's state but not its past events) and the chat with its quick phrases.
// Beside the board on a wide screen; elsewhere a panel opened from the top bar (记录).
// A player may mute another (屏蔽): their messages are neither shown, read out nor counted as
// unread, at every table, on every device (kept with the account by account id, js/mutes.js:
// a new name does not undo it).

import { openModal } from "./dialogs.js";
import { announce, clear, h, toast } from "./dom.js";
import { displayName, itemName, lang, pairNames, seatName, t, tileShort } from "./i18n.js";
import { isMuted, loadMutes, setMuted } from "./mutes.js";

const LOG_LINES = 60;

/** The log's line for ``event`` (null: not logged). ``s``: the table's state. */
export function eventLine(event, s) {
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

export function makeSide(T) {
  const { s } = T;
  let key = null;
  let listsKey = null;  // what the log and chat lists show (redrawn when it changes)
  let added = 0;  // lines and messages added or taken away so far
  const storeKey = `baida.log.${T.tableId}`;
  /** Draw the panel again after a change of mutes (the buttons and the chat list). */
  function redrawMutes() {
    added += 1;
    key = null;
    T.render();
  }
  // the account's mutes as the hall keeps them (this browser's copy until they come)
  loadMutes(T.app.me).then((changed) => {
    if (!changed) return;
    s.chat = s.chat.filter((m) => !isMuted(T.app.me, m.user));
    redrawMutes();
  });

  /** Which hand the log belongs to (the same hand after a reload, not the next one). */
  function handTag() {
    const v = s.view;
    return v ? [s.handNo, v.dealer, v.indicator, v.commitment, (v.dice || []).join("")].join("|") : null;
  }

  function save() {
    try {
      sessionStorage.setItem(storeKey, JSON.stringify({ hand: handTag(), lines: s.log }));
    } catch { /* not kept */ }
  }

  /** After a snapshot: the lines this page logged before a reload, for the same hand. */
  function restoreLog() {
    if (s.log.length) return;
    try {
      const saved = JSON.parse(sessionStorage.getItem(storeKey) || "null");
      if (saved && saved.hand === handTag() && Array.isArray(saved.lines)) s.log = saved.lines.slice(-LOG_LINES);
    } catch { /* nothing kept */ }
  }

  function addLog(line, loud = false) {
    s.log.push(line);
    added += 1;
    if (s.log.length > LOG_LINES) s.log.shift();
    save();
    announce(line, { assertive: loud });
  }

  function chatText(m) {
    if (m.phrase && s.phrases && s.phrases[m.phrase]) return s.phrases[m.phrase][lang()];
    return m.text || m.phrase || "";
  }

  function onChat(m) {
    const from = s.table && s.table.seats[m.seat];
    if (from && isMuted(T.app.me, from.user)) return;
    m.user = from ? from.user : null;
    s.chat.push(m);
    added += 1;
    if (s.chat.length > 100) s.chat.shift();
    announce(`${displayName(m.name)}: ${chatText(m)}`);
    T.chrome.noteChat();
  }

  /** Ask before a report goes to the operator (a misplaced tap reports nobody). */
  function askReport(x) {
    const name = displayName(x.name);
    let dialog = null;
    const yes = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "report-yes" }, onclick: () => {
      T.send({ type: "report", seat: x.seat });
      dialog.close();
    } }, t("table.report"));
    const no = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("cancel"));
    dialog = openModal([h("h2", { id: "report-title" }, t("table.report")), h("p", {}, t("table.report_confirm", { name })),
      h("div", { class: "modal-buttons" }, no, yes)], { label: "report-title", focus: no,
      onKey: (e) => { if (e.key === "Escape") { dialog.close(); return true; } return false; } });
  }

  /** The hall took a report: say so (to the reporter only: nobody else hears of it). */
  function onReported(m) {
    const seat = s.table && s.table.seats[m.seat];
    toast(t("table.reported", { name: seat ? displayName(seat.name) : "" }));
  }

  function panel() {
    const log = h("ol", { class: "log", "aria-label": t("table.log") });
    const messages = h("ol", { class: "chat-lines", "aria-label": t("table.chat") });
    const chat = [h("h2", { class: "side-title" }, t("table.chat")), messages];
    if (s.seat !== null) {
      const input = h("input", { type: "text", maxlength: "80", "aria-label": t("table.chat_placeholder"), placeholder: t("table.chat_hint"), dataset: { focusKey: "chat-input" } });
      const form = h("form", { class: "chat-form", onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (text) T.send({ type: "chat", text });
        input.value = "";
      } }, input, h("button", { type: "submit", class: "btn" }, t("table.chat_send")));
      const phrases = h("div", { class: "phrases" }, Object.entries(s.phrases || {}).map(([id, words]) =>
        h("button", { type: "button", class: "btn btn-small", dataset: { phrase: id }, onclick: () => T.send({ type: "chat", phrase: id }) }, words[lang()])));
      chat.push(phrases, form);
      const others = (s.table ? s.table.seats : []).filter((x, i) => x.kind === "person" && i !== s.seat && Number.isInteger(x.user));
      if (others.length) {
        const me = T.app.me;
        chat.push(h("div", { class: "mutes" }, h("span", { class: "muted" }, t("table.mute")),
          ...others.flatMap((x) => [h("button", {
            type: "button", class: "btn btn-small btn-mute", "aria-pressed": String(isMuted(me, x.user)),
            title: t(isMuted(me, x.user) ? "table.unmute_title" : "table.mute_title", { name: displayName(x.name) }),
            onclick: () => {
              const on = !isMuted(me, x.user);
              setMuted(me, x.user, on).catch((err) => { toast(err.message, "error"); redrawMutes(); });
              if (on) s.chat = s.chat.filter((m) => m.user !== x.user);
              redrawMutes();
            },
          }, displayName(x.name)),
          h("button", {
            type: "button", class: "btn btn-small btn-plain btn-report", dataset: { report: String(x.seat) },
            title: t("table.report_title", { name: displayName(x.name) }), onclick: () => askReport(x),
          }, t("table.report"))])));
      }
    } else {
      chat.push(h("p", { class: "muted" }, t("table.chat_spectator")));
    }
    const close = h("button", { type: "button", class: "btn btn-small btn-plain side-close", onclick: () => T.chrome.toggleSide(false) }, t("close"));
    const keys = h("p", { class: "muted keys-help" }, t("table.keys"));
    return [close, h("h2", { class: "side-title" }, t("table.log")), log, ...chat, keys];
  }

  /** Draw the panel. Its log and chat lists are rebuilt only when they changed and the panel
   * is shown: hidden (a phone's 记录 closed) they would be rebuilt and measured at every event
   * for nobody. */
  function render(el) {
    const people = (s.table ? s.table.seats : []).map((x) => (x.kind === "person" ? [x.user, x.name] : null));
    const now = JSON.stringify([lang(), s.seat === null, Boolean(s.phrases), people]);
    if (now !== key) {
      key = now;
      listsKey = null;
      clear(el).append(...panel());
    }
    const shown = T.root.classList.contains("with-side") || T.root.classList.contains("side-open");
    if (!shown) return;
    const lists = [added, s.log, s.chat];  // what was added, or a new hand's or a mute's list
    const same = listsKey !== null && lists.every((v, i) => v === listsKey[i]);
    if (same) return;
    listsKey = lists;
    const log = el.querySelector(".log");
    clear(log).append(...s.log.slice(-30).map((line) => h("li", {}, line)));
    log.scrollTop = log.scrollHeight;
    const lines = el.querySelector(".chat-lines");
    clear(lines).append(...s.chat.slice(-40).map((m) => h("li", {}, h("strong", {}, `${displayName(m.name)}: `), chatText(m))));
    lines.scrollTop = lines.scrollHeight;
  }

  return { addLog, onChat, onReported, render, restoreLog };
}
