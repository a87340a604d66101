// The own seat at the live table: the seat's name, melds and flowers, the action bar
// (table_actions.js) and the hand. With a mouse a click discards the tile under the pointer
// (lifted in the rule document's red frame); on a touch screen a tap lifts a tile and a
// second tap (or the bar's 打出) discards it, so that a mis-tap throws nothing away. The
// keys move along the hand. The 听牌 hint says what the hand waits on, and what a lifted
// or pointed tile would leave it waiting on (POST /api/waits, the scorer's own answer).

import { post } from "./api.js";
import { playing, seatPanel } from "./board.js";
import { clear, h } from "./dom.js";
import { lang, t, tileLabel, tileShort, wildWord } from "./i18n.js";
import { patternHintEl } from "./pattern-hint.js";
import { discardedWild, displayHand, liveCount, waitsRequest } from "./state.js";
import { tileButton, tileImg } from "./widgets.js";

export function makeHand(T) {
  const { s } = T;
  let lastPointer = "mouse";

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
    T.render();
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

  function updateHint() {
    const slot = T.root.querySelector(".hint-slot");
    if (slot) clear(slot).append(hintEl(focusedFace()) || "");
  }

  // ------------------------------------------------------------------ the hand

  function faces() {
    const { tiles, drawn } = displayHand(s.view, s.seat);
    return { all: [...tiles, ...(drawn ? [drawn] : [])], drawn };
  }

  /** The tile the hint speaks of: lifted, under the pointer, under the cursor, or just drawn. */
  function focusedFace() {
    const { all, drawn } = faces();
    const i = s.lifted ?? s.hover ?? s.cursor;
    if (i === null || i === undefined) return drawn || null;
    return all[Math.min(i, all.length - 1)] || null;
  }

  /** The lifted tile's face, while it may still be discarded (null otherwise). */
  function liftedFace() {
    if (s.lifted === null) return null;
    const face = faces().all[s.lifted];
    return face && T.actions.offered("discard").some((a) => a.tile === face) ? face : null;
  }

  function lift(i) {
    s.lifted = i;
    s.cursor = i;
    T.render();
  }

  function onTile(event, i, face) {
    const touch = event.pointerType === "touch" || (!event.pointerType && event.detail > 0 && lastPointer === "touch");
    s.cursor = i;
    if (touch && s.lifted !== i) {
      lift(i);  // the first tap lifts, and the hint tells what discarding it would leave
      return;
    }
    s.lifted = null;
    T.actions.discard(face);
  }

  function handEl() {
    const view = s.view;
    const { all, drawn } = faces();
    const discards = new Set(T.actions.offered("discard").map((a) => a.tile));
    const tenpai = new Set(((currentWaits() || {}).discards || []).map((d) => d.tile));
    if (s.cursor === null || s.cursor >= all.length) s.cursor = all.length - 1;
    if (s.lifted !== null && (s.lifted >= all.length || !discards.size)) s.lifted = null;
    const buttons = all.map((face, i) => {
      const can = discards.has(face);
      const el = tileButton(face, {
        wilds: view.wilds,
        ruleset: view.ruleset,
        extra: `${can ? "can" : ""}${drawn && i === all.length - 1 ? " drawn" : ""}${tenpai.has(face) ? " tenpai-discard" : ""}${s.lifted === i ? " lifted" : ""}`,
        attrs: {
          tabindex: i === s.cursor ? "0" : "-1",
          "aria-disabled": can ? "false" : "true",
          "aria-pressed": s.lifted === i ? "true" : null,
          dataset: { face, focusKey: `hand-${i}`, index: String(i) },
        },
      });
      el.addEventListener("click", (event) => onTile(event, i, face));
      el.addEventListener("focus", () => { s.cursor = i; updateHint(); });
      el.addEventListener("mouseenter", () => { s.hover = i; updateHint(); });
      el.addEventListener("mouseleave", () => { s.hover = null; updateHint(); });
      return el;
    });
    if (drawn) buttons.splice(buttons.length - 1, 0, h("span", { class: "drawn-gap", "aria-hidden": "true" }));
    const label = `${t("seat.self")}: ${all.map((f) => tileLabel(f, { wild: view.wilds.includes(f), ruleset: view.ruleset })).join(", ")}`;
    const hand = h("div", { class: "hand", role: "toolbar", "aria-label": label, style: `--n: ${all.length + (drawn ? 0.35 : 0)}` }, buttons);
    hand.addEventListener("keydown", (event) => {
      if ((event.key === "Enter" || event.key === " ") && event.repeat) event.preventDefault();  // a key held down discards nothing more
    }, true);
    hand.addEventListener("pointerdown", (event) => { lastPointer = event.pointerType; }, true);
    return hand;
  }

  function moveCursor(key) {
    const tiles = [...T.root.querySelectorAll(".hand .tile-btn")];
    if (!tiles.length) return false;
    const last = tiles.length - 1;
    const at = s.cursor === null ? last : Math.min(s.cursor, last);
    const next = { ArrowLeft: Math.max(0, at - 1), ArrowRight: Math.min(last, at + 1), Home: 0, End: last }[key];
    s.cursor = next;
    tiles.forEach((el, i) => el.setAttribute("tabindex", i === next ? "0" : "-1"));
    tiles[next].focus();
    return true;
  }

  // ------------------------------------------------------------------ the own seat

  function autoBanner() {
    if (s.modes[s.seat] !== "auto") return null;
    const reason = (s.table && s.table.seats[s.seat].auto_reason) || "timeout";
    return h("div", { class: "banner banner-auto", role: "status" },
      t("table.tuoguan_mine", { why: t(`table.why.${reason === "offline" ? "offline" : "timeout"}`) }), " ",
      h("button", { type: "button", class: "btn btn-primary btn-small", dataset: { focusKey: "resume" }, onclick: () => T.send({ type: "resume" }) }, t("table.take_back")));
  }

  // The own seat, the action bar with the hint, and the hand are three regions, each drawn
  // anew only when what it shows changes: another seat's discard redraws none of the hand's
  // buttons (a click or a hover is never lost to it).
  const parts = { seat: h("div", { class: "my-seat-slot" }), left: h("div", { class: "my-left" }), hand: h("div", { class: "hand-row" }) };
  const area = h("div", { class: "my-area" }, h("div", { class: "my-row" }, parts.left, parts.seat), parts.hand);
  const keys = { seat: null, left: null, hand: null };

  function redraw(name, key, draw) {
    if (keys[name] === key) return;
    keys[name] = key;
    clear(parts[name]).append(...draw());
  }

  /** The own seat, the action bar and the hand, redrawn only when what they show changes. */
  function renderMine(el) {
    const view = s.view;
    if (!view || s.seat === null) {
      keys.seat = keys.left = keys.hand = null;
      clear(el);
      return;
    }
    if (area.parentNode !== el) clear(el).append(area);
    const ctx = T.boardCtx();
    const me = view.players[s.seat];
    const prompt = s.prompt && { seq: s.prompt.seq, answered: s.prompt.answered };
    const waits = currentWaits();
    const active = playing(view, s.seat);
    redraw("seat", JSON.stringify([lang(), me.melds, me.flowers, me.concealed_count, me.gave_up, active, view.dealer,
      s.modes[s.seat], ctx.totals && ctx.totals[s.seat], ctx.connected[s.seat], view.santan_pairs]),
    () => [seatPanel(view, s.seat, ctx, "bottom")]);
    redraw("left", JSON.stringify([lang(), prompt, view.phase === "ended", prompt ? null : view.turn, s.modes[s.seat],
      s.table && s.table.seats[s.seat].auto_reason, s.lifted, s.armed && s.armed.key, waits, me.concealed, me.gave_up,
      prompt && [view.last_discard, view.robbable]]),
    () => [autoBanner(), T.actions.barEl(), h("div", { class: "hint-slot" }, hintEl(focusedFace()) || "")].filter(Boolean));
    redraw("hand", JSON.stringify([lang(), me.concealed, me.drawn, view.phase === "turn" && view.turn === s.seat, view.wilds,
      prompt, s.lifted, waits && waits.discards, waits && waits.patterns]),
    () => [handEl(), patternHintEl(waits, view.ruleset)].filter(Boolean));
  }

  return { renderMine, requestWaits, currentWaits, moveCursor, liftedFace, focusedFace };
}
