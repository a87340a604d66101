// The table as the page draws it, from a view (state.js): four seats with their melds,
// flowers and discards, the centre with the wall, the winds, the indicator and the wilds.
// Used by the live table and by the replay; the own hand is drawn by the caller.

import { h } from "./dom.js";
import { itemName, pairNames, seatName, signed, t, tileName, windName, wildWord } from "./i18n.js";
import { partners } from "./state.js";
import { badge, tileImg } from "./widgets.js";

/** The seats in screen order from ``me`` (a spectator sees seat 0 at the bottom). */
export function screenSeats(me) {
  const base = me === null || me === undefined ? 0 : me;
  return { bottom: base, right: (base + 1) % 4, top: (base + 2) % 4, left: (base + 3) % 4 };
}

function perspective(ctx) {
  return ctx.me === null || ctx.me === undefined ? null : ctx.me;
}

function tileOpts(view, size) {
  return { wilds: view.wilds, ruleset: view.ruleset, size };
}

function seatTitle(view, seat, ctx) {
  const me = perspective(ctx);
  const who = seatName(seat, me);
  const name = ctx.names && ctx.names[seat];
  const parts = [h("span", { class: "seat-who" }, who)];
  if (name && (me === null || seat !== me)) parts.push(h("span", { class: "seat-name" }, name));
  parts.push(h("span", { class: "seat-wind", title: windName(view.seat_winds[seat]) }, windName(view.seat_winds[seat])));
  return parts;
}

function seatBadges(view, seat, ctx) {
  const out = [];
  if (seat === view.dealer) out.push(badge(t("table.dealer"), "dealer"));
  const mode = ctx.modes && ctx.modes[seat];
  if (mode === "auto") out.push(badge(t("table.tuoguan"), "auto"));
  if (ctx.connected && ctx.connected[seat] === false && mode !== "bot") out.push(badge(t("table.offline"), "off"));
  if (view.players[seat].gave_up) out.push(badge(t("table.gave_up"), "gaveup"));
  for (const other of partners(view, seat)) {
    out.push(badge(t("table.chengbao", { who: seatName(other, perspective(ctx)) }), "chengbao"));
  }
  return out;
}

function total(ctx, seat) {
  if (!ctx.totals) return null;
  const n = ctx.totals[seat] ?? 0;
  return h("span", { class: `seat-total ${n > 0 ? "pos" : n < 0 ? "neg" : ""}`, title: t("st.totals") }, signed(n));
}

/** A meld: its tiles and, for a claim, where it came from. */
export function meldEl(view, meld, ctx, size = "tiny") {
  const me = perspective(ctx);
  const opts = tileOpts(view, size);
  const tiles = meld.tiles ? meld.tiles.map((f) => tileImg(f, opts)) : [0, 1, 2, 3].map(() => tileImg(null, opts));
  const kind = t(meld.type === "akong" ? "act.akong" : meld.type === "bukong" ? "act.bukong" : `act.${meld.type}`);
  let source = "";
  if (meld.from !== null && meld.from !== undefined) source = t("table.from", { who: seatName(meld.from, me) });
  const label = `${kind}${meld.tiles ? " " + meld.tiles.map(tileName).join(" ") : ""}${source ? ` (${source})` : ""}`;
  return h("span", { class: `meld meld-${meld.type}`, role: "group", "aria-label": label },
    h("span", { class: "tile-row" }, tiles),
    h("span", { class: "meld-src", "aria-hidden": "true" }, source ? `${kind}·${source}` : kind));
}

function meldsAndFlowers(view, seat, ctx, size) {
  const p = view.players[seat];
  const out = p.melds.map((m) => meldEl(view, m, ctx, size));
  if (p.flowers.length) {
    out.push(h("span", { class: "flowers", role: "group", "aria-label": `${t("table.flowers")}: ${p.flowers.map(tileName).join(" ")}` },
      h("span", { class: "tile-row" }, p.flowers.map((f) => tileImg(f, tileOpts(view, size))))));
  }
  return h("div", { class: "melds" }, out);
}

/** A seat's discards in order: claimed ones struck, the live last one marked. */
export function pondEl(view, seat, ctx, size = "small") {
  const p = view.players[seat];
  const claimed = new Set(p.claimed);
  const last = view.last_discard;
  const live = last && last.seat === seat && ["discarded", "claim"].includes(view.phase);
  const me = perspective(ctx);
  const tiles = p.discards.map((face, i) => {
    let extra = claimed.has(i) ? "claimed" : "";
    if (live && i === p.discards.length - 1 && !claimed.has(i)) extra = "last";
    const el = tileImg(face, { ...tileOpts(view, size), extra });
    if (claimed.has(i)) el.setAttribute("aria-label", `${el.getAttribute("aria-label")} ✗`);
    return el;
  });
  return h("div", {
    class: "pond",
    role: "group",
    "aria-label": `${seatName(seat, me)} ${t("table.discards")}`,
    dataset: { seat: String(seat) },
  }, tiles);
}

function concealedEl(view, seat, ctx, size) {
  const p = view.players[seat];
  if (p.concealed && (ctx.openHands || view.phase === "ended")) {
    return h("div", { class: "hand-open tile-row" }, p.concealed.map((f) => tileImg(f, tileOpts(view, size))));
  }
  if (ctx.compact) return null;
  const backs = [];
  for (let i = 0; i < p.concealed_count; i++) backs.push(tileImg(null, tileOpts(view, size)));
  return h("div", { class: "hand-backs tile-row", "aria-hidden": "true" }, backs);
}

function seatPanel(view, seat, ctx, where) {
  const active = view.turn === seat && ["turn", "discarded"].includes(view.phase);
  const p = view.players[seat];
  const head = h("div", { class: "seat-head" },
    ...seatTitle(view, seat, ctx), total(ctx, seat), ...seatBadges(view, seat, ctx),
    h("span", { class: "seat-count" }, t("table.in_hand", { n: p.concealed_count })));
  const size = ctx.compact ? "tiny" : "tiny";
  return h("section", {
    class: `seat seat-${where}${active ? " active" : ""}${p.gave_up ? " gaveup" : ""}`,
    "aria-label": seatName(seat, perspective(ctx)),
    dataset: { seat: String(seat) },
  }, head, meldsAndFlowers(view, seat, ctx, size), concealedEl(view, seat, ctx, size),
  ctx.compact ? pondEl(view, seat, ctx, "tiny") : null);
}

/** 本盘承包情况一览, as the rule document shows it once a 三摊 has happened: each 承包 pair,
 * then every player outside the pairs with their choice; a player who gave up is struck
 * through. Null before any 三摊. */
export function chengbaoSummary(view, me) {
  const pairs = view.santan_pairs || [];
  if (!pairs.length) return null;
  const inPair = new Set(pairs.flat());
  const lines = pairs.map(([a, b]) => h("li", { class: "cb-pair" },
    t("table.cb_pair", { pair: pairNames(seatName(a, me), seatName(b, me)) })));
  for (const seat of [0, 1, 2, 3]) {
    if (inPair.has(seat) && !view.players[seat].gave_up) continue;
    const gave = view.players[seat].gave_up;
    const choosing = !gave && view.phase === "santan";
    const who = seatName(seat, me);
    const choice = gave ? t("act.give_up") : choosing ? t("table.cb_choosing") : t("act.continue");
    lines.push(h("li", { class: `cb-seat${gave ? " gaveup" : ""}`, dataset: { seat: String(seat) } },
      gave ? h("s", {}, who) : h("span", {}, who), " ", h("span", { class: "cb-choice" }, choice)));
  }
  return h("section", { class: "chengbao-summary", "aria-label": t("table.cb_title") },
    h("h3", {}, t("table.cb_title")), h("ul", {}, lines));
}

/** The centre: the wall, the round wind, the indicator and the wilds, the 黄番 pool. */
export function compassEl(view, ctx) {
  const items = [];
  if (view.round_wind) items.push(h("span", { class: "info" }, t("table.round_wind", { wind: windName(view.round_wind) })));
  items.push(h("span", { class: "info wall-count", dataset: { n: String(view.wall_remaining) } }, t("table.wall", { n: view.wall_remaining })));
  items.push(h("span", { class: "info indicator" }, t("table.indicator"), " ", tileImg(view.indicator, { ruleset: view.ruleset, size: "tiny" })));
  items.push(h("span", { class: "info wilds" }, wildWord(view.ruleset), " ",
    h("span", { class: "tile-row" }, view.wilds.map((f) => tileImg(f, tileOpts(view, "tiny"))))));
  if (view.ruleset === "jiaxing" && view.options && view.options.allow_chi === false) items.push(badge(t("table.no_chi"), "warn"));
  if (view.carry_pool) items.push(badge(t("table.carry", { n: view.carry_pool }), "carry"));
  if (view.carry_tokens && view.carry_tokens.length) {
    items.push(h("span", { class: "info" }, view.carry_tokens.map(itemName).join(" · ")));
  }
  items.push(chengbaoSummary(view, perspective(ctx)));
  return h("div", { class: "compass", role: "group", "aria-label": t("table.wall", { n: view.wall_remaining }) }, items);
}

/** The whole board. ``ctx``: me (null: spectator), names, totals, modes, connected,
 * openHands, compact, mineOutside (the caller draws the own hand below the board). */
export function boardEl(view, ctx) {
  const seats = screenSeats(perspective(ctx));
  const sheng = view.sheng_phase ? h("div", { class: "banner banner-sheng", role: "status" }, t("table.sheng")) : null;
  const mine = seats.bottom;
  const myPanel = h("section", {
    class: `seat seat-bottom${view.turn === mine && view.phase === "turn" ? " active" : ""}${view.players[mine].gave_up ? " gaveup" : ""}`,
    "aria-label": seatName(mine, perspective(ctx)),
    dataset: { seat: String(mine) },
  },
  h("div", { class: "seat-head" }, ...seatTitle(view, mine, ctx), total(ctx, mine), ...seatBadges(view, mine, ctx),
    h("span", { class: "seat-count" }, t("table.in_hand", { n: view.players[mine].concealed_count }))),
  meldsAndFlowers(view, mine, ctx, ctx.compact ? "tiny" : "small"),
  ctx.mineOutside ? null : concealedEl(view, mine, { ...ctx, openHands: true }, "small"));
  if (ctx.compact) {
    return h("div", { class: "board compact" }, sheng,
      h("div", { class: "opponents" }, [seats.right, seats.top, seats.left].map((s, i) =>
        seatPanel(view, s, ctx, ["right", "top", "left"][i]))),
      compassEl(view, ctx),
      h("div", { class: "my-pond" }, pondEl(view, mine, ctx, "tiny")),
      myPanel);
  }
  const center = h("div", { class: "center" },
    h("div", { class: "pond-wrap pw-top" }, pondEl(view, seats.top, ctx)),
    h("div", { class: "pond-wrap pw-left" }, pondEl(view, seats.left, ctx)),
    compassEl(view, ctx),
    h("div", { class: "pond-wrap pw-right" }, pondEl(view, seats.right, ctx)),
    h("div", { class: "pond-wrap pw-bottom" }, pondEl(view, mine, ctx)));
  return h("div", { class: "board wide" }, sheng,
    seatPanel(view, seats.top, ctx, "top"),
    seatPanel(view, seats.left, ctx, "left"),
    center,
    seatPanel(view, seats.right, ctx, "right"),
    myPanel);
}
