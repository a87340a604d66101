// One hand as a seat sees it: the engine's view (docs/engine.md, "View"), kept current from
// the hand's events (Event.for_seat). The same code follows a live hand from its snapshot
// and steps a finished hand's unredacted events in the replay. No DOM here.

import { isFlower, removeOne, sortFaces } from "./faces.js";
import { ruleset } from "./rulesets.js";

const WINDS = "ESWN";
const COPIES = 4;

export function copyView(view) {
  return view ? structuredClone(view) : null;
}

/** A fresh view from a ``hand_start`` event (before the deal): ``options`` are the table's,
 * ``seat`` the viewer's (null: a spectator). */
export function viewFromStart(event, { options = {}, seat = null } = {}) {
  const dealer = event.dealer ?? event.seat ?? 0;
  const rules = ruleset(event.ruleset);
  const total = rules.tiles;
  const players = [0, 1, 2, 3].map((s) => ({
    seat: s,
    wind: WINDS[(s - dealer + 4) % 4],
    concealed: null,
    concealed_count: 0,
    drawn: null,
    melds: [],
    discards: [],
    claimed: [],
    flowers: [],
    gave_up: false,
  }));
  return {
    ruleset: event.ruleset,
    options: { ...options },
    seat,
    dealer,
    seat_winds: players.map((p) => p.wind),
    round_wind: event.round_wind ?? null,
    dice: [...(event.dice || [])],
    commitment: event.commitment ?? null,
    seed: null,
    indicator: event.indicator,
    wilds: [...(event.wilds || [])],
    specials: [...(event.specials || [])],
    phase: "turn",
    turn: dealer,
    to_act: [],
    wall_remaining: total - 1,  // the indicator is out of play; the deal takes the rest
    last_discard: null,
    robbable: null,
    players,
    santan_pairs: [],
    claim_counts: [0, 1, 2, 3].map(() => [0, 0, 0, 0]),
    sheng_phase: false,
    carry_pool: rules.carryPool ? event.carry_pool ?? 0 : null,
    result: null,
    carry_tokens: [...(event.carry_tokens || [])],
  };
}

function sortHand(view, player) {
  if (player.concealed) player.concealed = sortFaces(player.concealed, view.wilds);
}

function take(view, player, face, n = 1) {
  player.concealed_count -= n;
  if (player.concealed && face) {
    for (let i = 0; i < n; i++) removeOne(player.concealed, face);
  }
}

function clearDrawn(view) {
  for (const p of view.players) p.drawn = null;
}

/** Apply one event (as the viewer may see it) to ``view`` in place; returns the view. */
export function applyEvent(view, event) {
  const seat = event.seat;
  const p = seat === null || seat === undefined ? null : view.players[seat];
  switch (event.type) {
    case "deal":
      p.concealed_count = event.count ?? (event.tiles ? event.tiles.length : 0);
      if (event.tiles) p.concealed = sortFaces(event.tiles, view.wilds);
      view.wall_remaining -= p.concealed_count;
      if (seat === view.dealer) p.drawn = event.drawn ?? null;  // the extra tile (own seat only)
      break;
    case "flower":
      take(view, p, event.tile);
      p.flowers.push(event.tile);
      if (p.drawn === event.tile) p.drawn = null;
      break;
    case "draw":
      p.concealed_count += 1;
      if (p.concealed && event.tile) {
        p.concealed.push(event.tile);
        sortHand(view, p);
      }
      p.drawn = event.tile ?? null;
      if (typeof event.remaining === "number") view.wall_remaining = event.remaining;
      if (event.source === "kong" && view._bukong && view._bukong.seat === seat) {
        const meld = view.players[seat].melds.find((m) => m.type === "pon" && m.tiles && m.tiles[0] === view._bukong.tile);
        if (meld) {
          meld.type = "bukong";
          meld.tiles = [meld.tiles[0], meld.tiles[0], meld.tiles[0], meld.tiles[0]];
        }
      }
      view._bukong = null;
      view.robbable = null;
      view.turn = seat;
      view.phase = "turn";
      break;
    case "discard":
      take(view, p, event.tile);
      clearDrawn(view);
      p.discards.push(event.tile);
      view.last_discard = { seat, tile: event.tile };
      view.turn = seat;
      view.phase = "discarded";
      break;
    case "chi":
    case "pon":
    case "mkong": {
      const from = view.players[event.from];
      from.claimed.push(from.discards.length - 1);
      const own = [...event.meld.tiles];
      removeOne(own, event.tile);
      p.concealed_count -= own.length;
      if (p.concealed) for (const face of own) removeOne(p.concealed, face);
      p.melds.push({ type: event.meld.type, tiles: [...event.meld.tiles], from: event.meld.from });
      clearDrawn(view);
      view.claim_counts[seat][event.from] += 1;
      view.turn = seat;
      view.phase = "turn";
      break;
    }
    case "akong":
      take(view, p, event.tile, 4);
      p.melds.push({ type: "akong", tiles: event.tile ? [event.tile, event.tile, event.tile, event.tile] : null, from: null });
      clearDrawn(view);
      break;
    case "bukong":
      take(view, p, event.tile);
      clearDrawn(view);
      view._bukong = { seat, tile: event.tile };
      view.robbable = { seat, tile: event.tile };
      view.phase = "rob";
      break;
    case "kong_robbed":
      view._bukong = null;
      view.robbable = null;
      break;
    case "santan": {
      const [a, b] = event.pair;
      view.santan_pairs.push([Math.min(a, b), Math.max(a, b)]);
      view.phase = "santan";
      break;
    }
    case "santan_choice":
      if (event.choice === "give_up") p.gave_up = true;
      break;
    case "sheng_phase":
      view.sheng_phase = true;
      break;
    case "win":
      if (event.win_by === "discard" && event.from !== null && event.from !== undefined) {
        const from = view.players[event.from];
        from.claimed.push(from.discards.length - 1);
      }
      break;
    case "hand_end":
      endHand(view, event);
      break;
    default:
      break;
  }
  return view;
}

function endHand(view, event) {
  const { type, seat, ...result } = event;
  view.result = result;
  view.phase = "ended";
  view.to_act = [];
  view.seed = result.seed ?? null;
  view._bukong = null;
  view.robbable = null;
  clearDrawn(view);
  (result.hands || []).forEach((hand, s) => {
    const p = view.players[s];
    p.concealed = sortFaces(hand.concealed || [], view.wilds);
    p.concealed_count = p.concealed.length;
    p.melds = (hand.melds || []).map((m) => ({ ...m, tiles: m.tiles ? [...m.tiles] : null }));
    p.flowers = [...(hand.flowers || [])];
  });
}

/** The viewer's hand as shown: sorted tiles (wilds first) and the drawn tile apart. */
export function displayHand(view, seat) {
  const p = view.players[seat];
  const tiles = [...(p.concealed || [])];
  const onTurn = view.phase === "turn" && view.turn === seat;
  const drawn = onTurn && p.drawn && tiles.includes(p.drawn) ? p.drawn : null;
  if (drawn) removeOne(tiles, drawn);
  return { tiles: sortFaces(tiles, view.wilds), drawn };
}

/** Copies of ``face`` the viewer has not seen: in the wall or in others' hands. */
export function liveCount(view, face) {
  let total = isFlower(face) ? 1 : COPIES;
  if (face === view.indicator) total -= 1;
  let seen = 0;
  const me = view.seat === null ? null : view.players[view.seat];
  if (me && me.concealed) seen += me.concealed.filter((f) => f === face).length;
  for (const p of view.players) {
    const claimed = new Set(p.claimed);
    p.discards.forEach((f, i) => { if (f === face && !claimed.has(i)) seen += 1; });
    for (const m of p.melds) if (m.tiles) seen += m.tiles.filter((f) => f === face).length;
    seen += p.flowers.filter((f) => f === face).length;
  }
  return Math.max(0, total - seen);
}

/** Claim counts one short of 三摊: [{x, y, n}] where x claimed n times on y's discards and
 * the pair has not formed yet (everyone is told: all may be asked to 坚持 or 放弃). */
export function santanWarnings(view) {
  if (ruleset(view.ruleset).liability !== "santan") return [];
  const opts = view.options || {};
  if (opts.santan_enabled === false) return [];
  const threshold = opts.santan_threshold || 3;
  if (threshold < 2) return [];
  const formed = new Set(view.santan_pairs.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`));
  const out = [];
  view.claim_counts.forEach((row, x) => row.forEach((n, y) => {
    const key = `${Math.min(x, y)}-${Math.max(x, y)}`;
    if (n === threshold - 1 && !formed.has(key)) out.push({ x, y, n });
  }));
  return out;
}

/** The partners of ``seat`` in 承包 pairs. */
export function partners(view, seat) {
  const out = [];
  for (const [a, b] of view.santan_pairs) {
    if (a === seat) out.push(b);
    else if (b === seat) out.push(a);
  }
  return out;
}

/** Whether the viewer discarded a wild (Wenling: no win for them this hand). */
export function discardedWild(view, seat) {
  const wilds = new Set(view.wilds);
  return ruleset(view.ruleset).discardedWildBars && view.players[seat].discards.some((f) => wilds.has(f));
}

/** The request of POST /api/waits for the viewer's own hand. */
export function waitsRequest(view, seat) {
  const p = view.players[seat];
  return {
    ruleset: view.ruleset,
    options: view.options,
    indicator: view.indicator,
    seat_wind: view.seat_winds[seat],
    round_wind: view.round_wind || "E",
    concealed: [...p.concealed],
    melds: p.melds.filter((m) => m.tiles).map((m) => ({ type: m.type, tiles: m.tiles })),
    flowers: [...p.flowers],
    discarded_wild: discardedWild(view, seat),
  };
}
