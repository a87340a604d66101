// The table as the page draws it, from a view (state.js): the other seats with their melds
// and flowers, the four ponds around the centre (the wall, the winds, the indicator and the
// wilds), and the fixed place of the warnings. Used by the live table and by the replay; the
// live table draws the own seat and hand itself (``mineOutside``).
//
// The board fills the box it is given and never grows past it: the ponds take their tile
// size from the centre's box (``fitCentre``: measured, the layout of the ponds chosen that
// gives the largest tiles), a pond past its rows shrinks its tiles (``--n``), and the
// warnings keep one row of their own.

import { h } from "./dom.js";
import { displayName, itemName, pairNames, possessive, seatName, signed, t, tileName, windName, wildWord } from "./i18n.js";
import { ruleset } from "./rulesets.js";
import { partners, santanWarnings } from "./state.js";
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
  const name = ctx.names && ctx.names[seat];
  const parts = [h("span", { class: "seat-who" }, seatName(seat, me))];
  if (name && (me === null || seat !== me)) parts.push(h("span", { class: "seat-name", title: displayName(name) }, displayName(name)));
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
  // a marker at each seat of a 承包 pair; the pair's one warning is in the notices
  if (partners(view, seat).length) out.push(badge(t("table.chengbao_mark"), "chengbao"));
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

/** A seat's discards in order: claimed ones struck, the live last one marked. ``--n`` lets
 * a pond past its rows shrink its tiles to stay in its box. */
export function pondEl(view, seat, ctx, size = "pond") {
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
    style: `--n: ${Math.max(1, p.discards.length)}`,
  }, tiles);
}

function concealedEl(view, seat, ctx, size) {
  const p = view.players[seat];
  if (p.concealed && (ctx.openHands || view.phase === "ended")) {
    return h("div", { class: "hand-open tile-row" }, p.concealed.map((f) => tileImg(f, tileOpts(view, size))));
  }
  return null;
}

/** Whether it is ``seat``'s turn (its card framed, the compass lit on its pond's side). */
export function playing(view, seat) {
  return view.turn === seat && ["turn", "discarded"].includes(view.phase);
}

/** A seat: its name, wind, total and markers, its melds and flowers (and, face up, its hand
 * when the hand is over or in a replay). ``where``: top, left, right, bottom. */
export function seatPanel(view, seat, ctx, where) {
  const active = playing(view, seat);
  const p = view.players[seat];
  const head = h("div", { class: "seat-head" },
    ...seatTitle(view, seat, ctx), total(ctx, seat), ...seatBadges(view, seat, ctx),
    h("span", { class: "seat-count", title: t("table.in_hand", { n: p.concealed_count }) }, t("table.in_hand", { n: p.concealed_count })));
  return h("section", {
    class: `seat seat-${where}${active ? " active" : ""}${p.gave_up ? " gaveup" : ""}`,
    "aria-label": seatName(seat, perspective(ctx)),
    dataset: { seat: String(seat) },
  }, head, meldsAndFlowers(view, seat, ctx, "tiny"), concealedEl(view, seat, ctx, "tiny"));
}

/** 本盘承包情况一览, as the rule document shows it once a 三摊 has happened: each 承包
 * pair, then every player outside the pairs with their choice; a player who gave up is struck
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
    h("h3", { title: t("table.cb_explain") }, t("table.cb_title")), h("ul", {}, lines));
}

/** One line per pair one claim short of a 三摊, whichever of the two claimed (the pair is
 * one warning, not one from each side). */
export function santanNotices(view, me) {
  const byPair = new Map();
  for (const w of santanWarnings(view)) {
    const key = `${Math.min(w.x, w.y)}-${Math.max(w.x, w.y)}`;
    if (!byPair.has(key)) byPair.set(key, w);
  }
  return [...byPair.values()].map((w) => {
    const x = seatName(w.x, me);
    const y = seatName(w.y, me);
    const text = t("table.santan_warn", { x, y, ys: possessive(w.y, me), n: w.n, pair: pairNames(x, y, true) });
    return h("p", { class: "banner banner-santan", role: "status", title: text }, text);
  });
}

/** The warnings, in their fixed place above the centre: the 生牌阶段, a 三摊 to come, the 承包
 * pairs with everyone's choice. Empty: nothing is drawn and the centre keeps the room. */
export function noticesEl(view, ctx) {
  const me = perspective(ctx);
  const items = [];
  if (view.sheng_phase) items.push(h("div", { class: "banner banner-sheng", role: "status" }, t("table.sheng")));
  items.push(...santanNotices(view, me));
  const summary = chengbaoSummary(view, me);
  if (summary) items.push(summary);
  return items.length ? h("div", { class: "notices" }, items) : null;
}

/** A label's first letter in capitals (English labels; Chinese is unchanged). */
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The centre: the wall, the round wind, the indicator and the wilds, the 黄番 pool; its edge
 * on the side of the pond of the seat to play is lit (``turnSide``: top, left, right, bottom,
 * or null), as the framed card is: which card a pond is reads at a glance wherever the cards
 * stand (on a phone held sideways the across seat's card is in the right column). */
export function compassEl(view, turnSide = null) {
  const rules = ruleset(view.ruleset);
  const items = [];
  if (view.round_wind) items.push(h("span", { class: "info" }, t("table.round_wind", { wind: windName(view.round_wind) })));
  items.push(h("span", { class: "info wall-count", dataset: { n: String(view.wall_remaining) } }, t("table.wall", { n: view.wall_remaining })));
  items.push(h("span", { class: "info indicator" }, h("span", { class: "info-label" }, t("table.indicator")), " ", tileImg(view.indicator, { ruleset: view.ruleset, size: "tiny" })));
  items.push(h("span", { class: "info wilds" }, h("span", { class: "info-label" }, capitalized(wildWord(view.ruleset))), " ",
    h("span", { class: "tile-row" }, view.wilds.map((f) => tileImg(f, tileOpts(view, "tiny"))))));
  if (rules.chiOption && view.options && view.options.allow_chi === false) items.push(badge(t("table.no_chi"), "warn"));
  if (view.carry_pool) items.push(badge(t("table.carry", { n: view.carry_pool }), "carry"));
  if (view.carry_tokens && view.carry_tokens.length) {
    items.push(h("span", { class: "info" }, view.carry_tokens.map(itemName).join(" · ")));
  }
  return h("div", {
    class: "compass", role: "group", "aria-label": t("table.wall", { n: view.wall_remaining }),
    dataset: turnSide ? { turn: turnSide } : {},
  }, items);
}

// The centre's layouts, in units of a discard's width: the top and bottom ponds' columns and
// rows, the left and right ponds', and the box they need with the compass (app.css
// ".center-grid.geo-*" lays them out).
const GEOMETRIES = [
  { name: "tall", w: 12, h: 16.4, side: 3 },   // 6×3 above and below, 3×6 at the sides
  { name: "wide", w: 14, h: 10.9, side: 4 },   // 14×2 above and below, 4×4 at the sides
  { name: "xwide", w: 18, h: 9.6, side: 6 },   // 18×2 above and below, 6×3 at the sides
];
let lastCentre = null;
let observed = null;

function applyFit(grid, width, height) {
  const cap = Math.min(52, Math.max(28, window.innerHeight * 0.046));
  let best = null;
  for (const g of GEOMETRIES) {
    const ts = Math.min(cap, (width - 8) / g.w, (height - 8) / g.h);
    if (!best || ts > best.ts + 0.01) best = { name: g.name, ts, side: g.side };
  }
  grid.classList.remove(...GEOMETRIES.map((g) => `geo-${g.name}`));
  grid.classList.add(`geo-${best.name}`);
  const ts = Math.max(6, best.ts);
  grid.style.setProperty("--ts", `${ts.toFixed(2)}px`);
  // the compass may widen into what the side ponds leave of the width (wide layouts)
  const room = width - 12 - 2 * best.side * ts;
  grid.style.setProperty("--compass-max", `${Math.max(6 * ts, room).toFixed(2)}px`);
}

const fitter = typeof ResizeObserver === "undefined" ? null : new ResizeObserver((entries) => {
  for (const entry of entries) {
    const { width, height } = entry.contentRect;
    if (!width || !height) continue;
    lastCentre = { width, height };
    applyFit(entry.target.firstElementChild, width, height);
  }
});

/** Size the ponds of a board just drawn from its centre's box: at once from the last box
 * seen (a redrawn board's centre is usually the same), then from its own once laid out. */
export function fitCentre(board) {
  const centre = board && board.querySelector(".center");
  if (!centre) return;
  applyFit(centre.firstElementChild, lastCentre ? lastCentre.width : window.innerWidth * 0.5, lastCentre ? lastCentre.height : window.innerHeight * 0.5);
  if (!fitter) return;
  if (observed) fitter.unobserve(observed);
  observed = centre;
  fitter.observe(centre);
}

/** The whole board. ``ctx``: me (null: spectator), names, totals, modes, connected,
 * openHands, portrait (the other seats as a row of cards above the centre), mineOutside (the
 * caller draws the own seat and hand below the board). */
export function boardEl(view, ctx) {
  const seats = screenSeats(perspective(ctx));
  const turnSide = Object.keys(seats).find((side) => playing(view, seats[side])) ?? null;
  const centre = h("div", { class: "center" }, h("div", { class: "center-grid geo-tall" },
    h("div", { class: "pond-wrap pw-top" }, pondEl(view, seats.top, ctx)),
    h("div", { class: "pond-wrap pw-left" }, pondEl(view, seats.left, ctx)),
    compassEl(view, turnSide),
    h("div", { class: "pond-wrap pw-right" }, pondEl(view, seats.right, ctx)),
    h("div", { class: "pond-wrap pw-bottom" }, pondEl(view, seats.bottom, ctx))));
  const others = [seatPanel(view, seats.left, ctx, "left"), seatPanel(view, seats.top, ctx, "top"), seatPanel(view, seats.right, ctx, "right")];
  const bottom = ctx.mineOutside ? null : seatPanel(view, seats.bottom, ctx, "bottom");
  const layout = ctx.portrait ? "portrait" : "landscape";
  return h("div", { class: `board board-${layout}` },
    ctx.portrait ? h("div", { class: "opponents" }, others) : others,
    noticesEl(view, ctx), centre, bottom);
}
