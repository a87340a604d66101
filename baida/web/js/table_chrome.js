// The table's frame: its place in the top bar (the table and the hand, an information panel
// with the rule badges, the room code and the shuffle commitment, the log and chat toggle,
// 离开), the waiting room before a match (how many players it waits for, the invite link),
// the stopped banner, and leaving (back to the lobby keeps the seat; only 逃跑 gives it up).

import { openModal } from "./dialogs.js";
import { clear, h } from "./dom.js";
import { counted, displayName, t } from "./i18n.js";
import { rulesButton } from "./rules-page.js";
import { screenEndSlot, screenSlot } from "./topbar.js";
import { badge, lobbyBadges } from "./widgets.js";

export function makeChrome(T) {
  const { s } = T;
  let sideOpen = false;
  let unread = false;

  function toggleSide(open = !sideOpen) {
    sideOpen = open;
    if (open) unread = false;
    T.root.classList.toggle("side-open", sideOpen);
    renderBar();
    if (open) T.render();  // the panel is not drawn while hidden
  }

  function noteChat() {
    if (!sideOpen && !T.wide()) unread = true;
  }

  /** The table's title, hand and buttons, in the top bar's slots. */
  function renderBar() {
    const start = clear(screenSlot());
    const end = clear(screenEndSlot());
    const tbl = s.table;
    if (!tbl) {
      start.append(h("span", { class: "table-title" }, t("loading")));
      return;
    }
    const length = tbl.length || {};
    const short = t(`badge.${tbl.ruleset}`);
    const title = h("h1", { class: "table-title", title: t("table.name", { ruleset: t(`ruleset.${tbl.ruleset}`), n: tbl.number }) },
      h("span", { class: "label-long" }, t("table.name", { ruleset: t(`ruleset.${tbl.ruleset}`), n: tbl.number })),
      h("span", { class: "label-short", "aria-hidden": "true" }, short));
    const parts = [title];
    if (s.handNo) parts.push(h("span", { class: "info hand-no" }, length.hands ? t("table.hand_of", { n: s.handNo, total: length.hands }) : t("table.hand_no", { n: s.handNo })));
    if (s.seat === null) parts.push(badge(t("table.spectating"), "watch"));
    parts.push(h("button", { type: "button", class: "btn btn-plain btn-bar", dataset: { act: "table-info" }, "aria-label": t("table.info"), title: t("table.info"), onclick: infoPanel }, "ⓘ"));
    if (!T.wide()) {
      parts.push(h("button", {
        type: "button", class: `btn btn-plain btn-bar${unread ? " unread" : ""}`, dataset: { act: "toggle-side" },
        "aria-expanded": String(sideOpen), "aria-controls": "table-side", onclick: () => toggleSide(),
      }, t("table.log_short")));
    }
    start.append(h("div", { class: "table-bar" }, parts));
    end.append(rulesButton(T.app, tbl),
      h("button", { type: "button", class: "btn btn-plain btn-bar table-leave", onclick: leaveTable }, t("table.leave")));
  }

  /** The table's particulars, out of the way of the game: badges, room code, commitment. */
  function infoPanel() {
    const tbl = s.table;
    if (!tbl) return;
    let dialog = null;
    const rows = [h("h2", { id: "info-title" }, t("table.name", { ruleset: t(`ruleset.${tbl.ruleset}`), n: tbl.number })),
      h("div", { class: "badges" }, lobbyBadges(tbl))];
    if (tbl.room_code) {
      const code = h("code", { class: "room-code" }, tbl.room_code);
      const copy = h("button", { type: "button", class: "btn btn-small", onclick: () => {
        navigator.clipboard?.writeText(tbl.room_code).then(() => { copy.textContent = t("table.copied"); }).catch(() => {});
      } }, t("table.copy"));
      rows.push(h("p", { class: "info room" }, t("table.room", { code: "" }), code, " ", copy));
    }
    if (tbl.status === "waiting" || tbl.room_code) rows.push(inviteEl(tbl, false));
    if (s.view && s.view.commitment) {
      rows.push(h("p", { class: "st-fair" }, `${t("table.commitment")}: `, h("code", { class: "commitment" }, s.view.commitment)),
        h("p", { class: "muted" }, t("table.commitment_note")));
    }
    rows.push(h("p", { class: "muted keys-help" }, t("table.keys")));
    const close = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("close"));
    rows.push(h("div", { class: "modal-buttons" }, close));
    dialog = openModal(rows, { label: "info-title", kind: "info", focus: close,
      onKey: (e) => { if (e.key === "Escape") { dialog.close(); return true; } return false; } });
  }

  function stoppedEl() {
    const again = h("button", { type: "button", class: "btn", onclick: () => { s.stopped = null; T.socket.open(); T.render(); } }, t("table.reopen"));
    return h("div", { class: "banner banner-stop", role: "alert" }, s.stopped, " ", again);
  }

  function waitingEl() {
    const tbl = s.table;
    const seated = s.seat !== null;
    const seats = tbl.seats.map((x) => h("li", { class: `wait-seat ${x.kind}` },
      h("span", { class: "wait-who" }, x.kind === "empty" ? t("table.empty_seat") : x.kind === "bot" ? t("table.bot") : displayName(x.name)),
      x.kind !== "empty" && x.ready ? badge(t("table.ready_mark"), "ready") : null,
      x.kind === "empty" && !seated && tbl.status === "waiting"
        ? h("button", { type: "button", class: "btn", onclick: () => T.send({ type: "sit", seat: x.seat }) }, t("table.take_seat")) : null));
    const empty = tbl.seats.filter((x) => x.kind === "empty").length;
    const unready = tbl.seats.filter((x) => x.kind === "person" && !x.ready).length;
    const buttons = [];
    if (seated && tbl.status === "waiting") {
      // one click: the empty seats to bots, and me ready (the match starts when all are)
      if (empty) buttons.push(h("button", { type: "button", class: "btn", dataset: { act: "bots-and-start" }, onclick: () => { T.send({ type: "add_bots" }); T.send({ type: "ready", ready: true }); } }, t("table.bots_and_start")));
      const ready = tbl.seats[s.seat].ready;
      buttons.push(h("button", { type: "button", class: "btn btn-primary", dataset: { act: "ready" }, onclick: () => T.send({ type: "ready", ready: !ready }) }, ready ? t("table.unready") : t("table.ready")));
    }
    const count = tbl.status !== "waiting" ? null
      : empty ? counted("table.waiting_for", empty) : unready ? counted("table.waiting_ready", unready) : null;
    return h("section", { class: "waiting card" }, h("h2", {}, t("table.waiting_title")),
      count ? h("p", { class: "wait-count", role: "status" }, count) : null,
      h("ul", { class: "wait-seats" }, seats), h("div", { class: "buttons" }, buttons),
      tbl.status === "waiting" && empty ? inviteEl(tbl) : null);
  }

  /** The link that opens this table for a friend and seats them (a private table's room
   * code: #/join/CODE, signing in as a guest first if need be). */
  function inviteLink(tbl) {
    const base = `${location.origin}${location.pathname}`;
    return tbl.room_code ? `${base}#/join/${tbl.room_code}` : `${base}#/table/${tbl.id}?sit=1`;
  }

  function inviteEl(tbl, withCode = true) {
    const link = inviteLink(tbl);
    const field = h("input", { type: "text", class: "invite-link", readonly: true, value: link, "aria-label": t("table.invite"), onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", class: "btn btn-small", dataset: { act: "copy-invite" }, onclick: () => {
      const done = () => { copy.textContent = t("table.copied"); };
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(done).catch(() => { field.select(); });
      else field.select();
    } }, t("table.copy_link"));
    return h("div", { class: "invite" }, h("h3", {}, t("table.invite")),
      withCode && tbl.room_code ? h("p", { class: "info room" }, t("table.room", { code: "" }), h("code", { class: "room-code" }, tbl.room_code)) : null,
      h("p", { class: "muted" }, t("table.invite_hint")), h("div", { class: "invite-row" }, field, copy));
  }

  /** 离开: before a match, the seat is given up; during one, back to the lobby keeps it
   * (托管 plays it until the match ends) and only 逃跑 gives it up for good. */
  function leaveTable() {
    if (s.seat === null || !s.table || s.table.status === "waiting") {
      if (s.seat !== null) T.send({ type: "stand" });
      location.hash = "#/";
      return;
    }
    let dialog = null;
    const tbl = s.table;
    const keep = h("button", { type: "button", class: "btn btn-primary", dataset: { act: "leave-keep" }, onclick: () => {
      dialog.close();
      location.hash = "#/";
    } }, t("table.leave_keep"));
    const escape = h("button", { type: "button", class: "btn btn-danger", dataset: { act: "leave-escape" }, onclick: () => {
      T.send({ type: "stand", escape: true });
      dialog.close();
      location.hash = "#/";
    } }, t("table.leave_escape"));
    const no = h("button", { type: "button", class: "btn", onclick: () => dialog.close() }, t("cancel"));
    const forGood = tbl.stakes === "silver"
      ? t("table.leave_note_silver", { penalty: tbl.escape_penalty || 0 }) : t("table.leave_note_points");
    dialog = openModal([h("h2", { id: "leave-title" }, t("table.leave")), h("p", {}, t("table.leave_note")),
      h("p", { class: "muted" }, forGood),
      h("div", { class: "modal-buttons" }, no, escape, keep)], { label: "leave-title", focus: keep,
      onKey: (e) => { if (e.key === "Escape") { dialog.close(); return true; } return false; } });
  }

  function stop() {
    clear(screenSlot());
    clear(screenEndSlot());
  }

  return { renderBar, stoppedEl, waitingEl, toggleSide, noteChat, stop };
}
