// The settlement of a hand, from its final view (the result: docs/engine.md "HandResult", the
// scorer's output of docs/scoring-api.md in ``score``): who won how, every 台/番/和 item with
// the arithmetic, what the wilds stood for, the 三摊 shares, the Wenling non-winners' items
// (from the server), everyone's payment, the 银子 change, the match totals, every hand, the
// seed with its verification, the replay and the record.

import { get } from "./api.js";
import { h } from "./dom.js";
import { counted, displayName, itemName, seatName, signed, t, tileLabel, tileName, tileShort, wildWord } from "./i18n.js";
import { ruleset } from "./rulesets.js";
import { chengbaoSummary, meldEl } from "./board.js";
import { sortFaces, removeOne } from "./faces.js";
import { tileImg } from "./widgets.js";
import { seedMatches } from "./sha256.js";

function who(seat, ctx) {
  const rel = seatName(seat, ctx.me);
  const name = ctx.names && ctx.names[seat];
  return name && seat !== ctx.me ? `${rel} (${displayName(name)})` : rel;
}

/** A 满贯 hand (腊子, 四风会齐): its items are listed by name with the value 0. */
function isLimit(score) {
  return (score.fan || []).some((item) => item.value === 0);
}

function itemsRow(title, items, totalText, unitKey, limit = false) {
  if (!items || !items.length) return null;
  const unit = unitKey ? t(unitKey) : "";
  const value = (item) => (item.value ? `${item.value}${unit}` : limit ? t("st.limit_item") : "—");
  return h("div", { class: "st-items" },
    h("span", { class: "st-items-title" }, title),
    h("ul", { class: "st-item-list" }, items.map((item) =>
      h("li", { class: "st-item" }, h("span", { class: "st-item-name" }, itemName(item.name)),
        h("span", { class: "st-item-value" }, value(item))))),
    limit ? null : h("span", { class: "st-items-total" }, `= ${totalText}${unit}`));
}

/** The winning hand: concealed tiles (the winning tile apart), melds, flowers. ``stood``: the
 * faces the wild tiles stood for (the scorer's ``wilds``, a self-drawn wild winning tile
 * last); each wild tile then shows what it stood for under it. */
export function revealedHand(view, hand, ctx, winTile = null, stood = null) {
  const concealed = sortFaces(hand.concealed || [], view.wilds);
  let apart = null;
  if (winTile && concealed.includes(winTile)) {
    removeOne(concealed, winTile);
    apart = winTile;
  }
  const opts = { wilds: view.wilds, ruleset: view.ruleset, size: "small" };
  const wildCount = concealed.filter((f) => view.wilds.includes(f)).length;
  const meanings = [...(stood || [])];
  const apartMeaning = apart && view.wilds.includes(apart) && meanings.length > wildCount ? meanings.pop() : null;
  let next = 0;
  const tile = (f, extra = "") => {
    const img = tileImg(f, { ...opts, extra });
    if (!stood || !view.wilds.includes(f)) return img;
    const as = extra === "winning" ? apartMeaning : meanings[next++];
    return as ? wildAs(view, f, as, img) : img;
  };
  return h("div", { class: "revealed" },
    h("span", { class: "tile-row" }, concealed.map((f) => tile(f))),
    apart ? h("span", { class: "win-tile" }, "+", tile(apart, "winning")) : null,
    (hand.melds || []).map((m) => meldEl(view, m, ctx, "small")),
    (hand.flowers || []).length ? h("span", { class: "tile-row flowers" }, hand.flowers.map((f) => tileImg(f, opts))) : null);
}

/** A wild tile with what it stood for under it: 五万 (百搭) → 三万. */
function wildAs(view, face, as, img) {
  const label = `${tileLabel(face, { wild: true, ruleset: view.ruleset })} → ${tileName(as)}`;
  img.setAttribute("aria-hidden", "true");
  return h("span", { class: "wild-as", role: "img", "aria-label": label, dataset: { face, as } },
    img, h("span", { class: "wild-as-label", "aria-hidden": "true" }, `=${tileShort(as)}`));
}

function formulaLine(view, score, ctx) {
  const rules = ruleset(view.ruleset);
  if (rules.formula === "tai") {
    const tai = score.tai_total || 0;
    const fan = score.fan_total || 0;
    const base = ctx.base || (tai ? score.points / (tai * 2 ** fan) : 1);
    return t("st.formula_tai", { base, tai, fan, points: score.points });
  }
  // a 满贯 hand (腊子, 四风会齐) is listed by its name with the value 0 (docs/scoring-api.md)
  if (isLimit(score) || score.raw === null || score.raw === undefined || score.base_points === null) {
    return t("st.limit", { points: score.points });
  }
  const line = t("st.formula_points", { base_points: score.base_points, fan: score.fan_total || 0, raw: score.raw, points: score.points });
  return score.raw === score.points ? line : `${line} ${t("st.rounded", { cap: rules.limit })}`;
}

function wildsLine(view, score) {
  const faces = score.wilds || [];
  if (!faces.length) return null;
  const opts = { ruleset: view.ruleset, size: "tiny" };
  return h("p", { class: "st-wilds" }, t("st.wilds", { wild: wildWord(view.ruleset) }),
    h("span", { class: "tile-row" }, faces.map((f) => tileImg(f, opts))),
    h("span", { class: "sr-only" }, faces.map(tileName).join(" ")));
}

function sharesLine(view, result, ctx) {
  const pairs = view.santan_pairs || [];
  const share = (result.score || {}).points || 0;
  if (ruleset(view.ruleset).liability !== "santan" || !pairs.length || share <= 0) return null;
  const parts = [];
  (result.payments || []).forEach((amount, seat) => {
    if (seat === result.winner) return;
    if (view.players[seat].gave_up && !amount) parts.push(t("st.shares_gave_up", { who: seatName(seat, ctx.me) }));
    else if (-amount % share === 0) parts.push(counted("st.shares", -amount / share, { who: seatName(seat, ctx.me) }));
  });
  const names = pairs.map(([a, b]) => `${seatName(a, ctx.me)}–${seatName(b, ctx.me)}`).join(", ");
  return h("div", { class: "st-santan" }, h("p", {}, t("st.santan", { pairs: names, share }), parts.join(" · ")),
    h("p", { class: "muted st-explain" }, t("st.santan_explain")));
}

function nonwinnerText(items) {
  if (!items) return "";
  if (items.liable) return t("st.liable_zero");
  const values = new Map();
  for (const { name, value } of items.base_items) {
    if (!values.has(name)) values.set(name, []);
    values.get(name).push(String(value));
  }
  for (const { name, value } of items.fan_items) {
    if (!values.has(name)) values.set(name, []);
    if (value) values.get(name).push(`${value}${t("st.unit.fan")}`);
  }
  const parts = [...values].map(([name, vs]) => `${itemName(name)} ${vs.join("+")}`.trim());
  return parts.length ? parts.join(" · ") : "–";
}

/** A table's head from ``[text, class]`` pairs: a numeric column's heading ("num") stands
 * right-aligned over its numbers. */
function headRow(columns) {
  return h("thead", {}, h("tr", {}, columns.map(([text, cls]) => h("th", { scope: "col", class: cls }, text))));
}

function paymentsTable(view, result, ctx) {
  const score = result.score || {};
  const wlTotals = score.totals && typeof score.totals === "object" ? score.totals : null;
  const showItems = Boolean(wlTotals) && result.winner !== null && result.winner !== undefined;
  const silver = ctx.silver || null;
  const head = [[t("st.player"), ""]];
  if (showItems) head.push([t("st.nonwinner"), ""]);
  if (wlTotals) head.push([t("st.points"), "num"]);
  head.push([t("st.payment"), "num"]);
  if (silver) head.push([t("st.silver"), "num"]);
  if (ctx.totals) head.push([t("st.totals"), "num"]);
  const rows = [0, 1, 2, 3].map((seat) => {
    const cells = [h("th", { scope: "row", class: seat === ctx.me ? "me" : "" }, who(seat, ctx),
      view.players[seat].gave_up ? ` · ${t("table.gave_up")}` : "")];
    if (showItems) {
      let text = "";
      if (seat !== result.winner) text = ctx.nonwinners ? nonwinnerText(ctx.nonwinners[String(seat)]) : "…";
      cells.push(h("td", { class: "st-nonwinner" }, text));
    }
    if (wlTotals) cells.push(h("td", { class: "num" }, String(wlTotals[view.seat_winds[seat]] ?? "")));
    const pay = (result.payments || [0, 0, 0, 0])[seat];
    cells.push(h("td", { class: `num ${pay > 0 ? "pos" : pay < 0 ? "neg" : ""}` }, pay ? signed(pay) : "0"));
    if (silver) {
      const row = silver.find((s) => s.seat === seat);
      cells.push(h("td", { class: "num" }, row ? [
        h("span", { class: row.paid > 0 ? "pos" : row.paid < 0 ? "neg" : "" }, signed(row.paid - row.fee)),
        h("small", { class: "st-silver-detail" }, ` ${t("st.silver_detail", { owed: signed(row.owed), paid: signed(row.paid), fee: row.fee })}`),
        row.balance !== null && row.balance !== undefined ? h("small", {}, ` · ${t("st.balance", { n: row.balance })}`) : null,
      ] : ""));
    }
    if (ctx.totals) cells.push(h("td", { class: "num strong" }, signed(ctx.totals[seat] ?? 0)));
    return h("tr", {}, cells);
  });
  return h("table", { class: "st-table" },
    headRow(head),
    h("tbody", {}, rows));
}

/** Wenling: who paid whom, pair by pair, with the arithmetic (the engine's ``transfers``:
 * each non-winner pays the winner the winner's 牌点 ÷ 10; between two non-winners the lower
 * pays the higher the difference ÷ 10; under 包三家 the liable player pays for the others). */
function pairwiseEl(view, result, ctx) {
  const transfers = result.transfers;
  if (!ruleset(view.ruleset).pairwise || !Array.isArray(transfers) || !transfers.length) return null;
  const rows = transfers.map((tr) => {
    const sum = tr.kind === "win" ? `${tr.high} ÷ 10` : `(${tr.high} − ${tr.low}) ÷ 10`;
    const why = tr.kind === "win" ? t("st.pw_to_winner") : t("st.pw_difference");
    const behalf = tr.behalf !== null && tr.behalf !== undefined ? ` · ${t("st.pw_for", { who: seatName(tr.behalf, ctx.me) })}` : "";
    return h("tr", { dataset: { payer: String(tr.payer), payee: String(tr.payee), amount: String(tr.amount) } },
      h("td", {}, seatName(tr.payer, ctx.me), " → ", seatName(tr.payee, ctx.me)),
      h("td", { class: "num strong" }, String(tr.amount)),
      h("td", { class: "st-pw-why" }, `${why}: ${sum} = ${tr.amount}${behalf}`));
  });
  const winner = result.winner;
  const share = transfers.filter((tr) => tr.payee === winner).reduce((n, tr) => n + tr.amount, 0);
  return h("section", { class: "st-pairwise", "aria-label": t("st.pw_title") },
    h("h3", {}, t("st.pw_title")),
    h("p", { class: "muted st-explain" }, t("st.pw_explain")),
    h("table", { class: "st-pw-table" },
      headRow([[t("st.pw_who"), ""], [t("st.pw_amount"), "num"], [t("st.pw_how"), ""]]),
      h("tbody", {}, rows)),
    winner !== null && winner !== undefined ? h("p", { class: "st-pw-share" }, t("st.pw_share", { who: seatName(winner, ctx.me), n: share })) : null);
}

function allHands(view, result, ctx) {
  return h("details", { class: "st-hands" }, h("summary", {}, t("st.hands")),
    (result.hands || []).map((hand, seat) => h("div", { class: "st-hand-row" },
      h("span", { class: "st-hand-who" }, who(seat, ctx)), revealedHand(view, hand, ctx))));
}

// each hand's verification answer, kept so that the settlement drawn anew (the non-winners'
// items arriving, a language switch, the hand stored) shows it again, even one still under way
const verifications = new Map();

function showVerification(answer, v) {
  if (v.error !== undefined) {
    answer.textContent = t("st.verify_bad", { problems: v.error });
    answer.className = "st-verify-result bad";
    return;
  }
  const problems = v.problems.map((p) => (p.key ? t(p.key) : p.text));
  answer.replaceChildren(
    h("span", { class: `st-verify-local ${v.local ? "ok" : "bad"}` }, v.local ? t("st.verify_local_ok") : t("st.verify_local_bad")),
    h("br"),
    v.ok ? t("st.verify_ok") : t("st.verify_bad", { problems: problems.join("; ") }));
  answer.className = `st-verify-result ${v.ok ? "ok" : "bad"}`;
}

function fairness(view, ctx) {
  const seed = view.seed || (view.result || {}).seed;
  const out = h("div", { class: "st-fair" });
  if (seed) {
    out.append(h("p", { class: "st-seed" }, `${t("st.seed")}: `, h("code", { class: "seed" }, seed)));
    if (view.commitment) out.append(h("p", { class: "st-seed" }, `${t("table.commitment")}: `, h("code", {}, view.commitment)));
  }
  if (!ctx.handId) return seed ? out : null;
  const links = h("div", { class: "st-links" });
  const handId = String(ctx.handId);
  const answer = h("p", { class: "st-verify-result", role: "status", dataset: { hand: handId } });
  if (verifications.has(handId)) showVerification(answer, verifications.get(handId));
  if (seed) {
    const button = h("button", { type: "button", class: "btn", dataset: { act: "verify" }, onclick: async () => {
      button.disabled = true;
      let v;
      try {
        // in this page: the revealed seed against the commitment shown at the deal
        const local = await seedMatches(seed, view.commitment);
        // by the hall: its stored record replays to the same settlement
        const check = await get(`/api/hands/${ctx.handId}/verify`);
        const problems = [];
        if (!local) problems.push({ key: "st.verify_local_bad" });
        if (check.seed !== seed || check.commitment !== view.commitment) problems.push({ key: "st.verify_record_other" });
        problems.push(...check.problems.map((text) => ({ text })));
        v = { local, ok: check.ok && problems.length === 0, problems };
      } catch (err) {
        v = { error: err.message };
      } finally {
        button.disabled = false;
      }
      verifications.set(handId, v);
      // this settlement, or the one that replaced it meanwhile
      for (const el of [answer, ...document.querySelectorAll(`.st-verify-result[data-hand="${handId}"]`)]) {
        showVerification(el, v);
      }
    } }, t("st.verify"));
    links.append(button);
  }
  links.append(h("a", { class: "btn", href: `#/hand/${ctx.handId}`, dataset: { act: "replay" } }, t("st.replay")),
    h("a", { class: "btn btn-plain", href: `/api/hands/${ctx.handId}/record?download=1`, download: `baida-hand-${ctx.handId}.json` }, t("st.download")));
  out.append(links, answer);
  return out;
}

/** The settlement's title (its dialog keeps it in view above the items). */
export function settlementTitle(ctx) {
  const title = ctx.handNo ? t("st.title", { n: ctx.handNo }) : t("st.title_plain");
  return h("h2", { class: "st-title", id: "settlement-title" }, title);
}

/** The settlement of the hand ``view`` ended with. ``ctx``: me, names, handNo, base, totals,
 * silver (hand_result), nonwinners (null while loading), handId; noTitle (the caller shows
 * ``settlementTitle``). */
export function settlementEl(view, ctx) {
  const result = view.result || {};
  const score = result.score || {};
  const rules = ruleset(view.ruleset);
  const parts = ctx.noTitle ? [] : [settlementTitle(ctx)];
  const winner = result.winner;
  if (result.outcome !== "win" || winner === null || winner === undefined) {
    parts.push(h("p", { class: "st-outcome draw" }, t(`st.draw.${view.ruleset}`)));
  } else {
    const how = t(`win_by.${result.win_by || "self_draw"}`);
    const tile = result.win_tile ? tileLabel(result.win_tile, { wild: view.wilds.includes(result.win_tile), ruleset: view.ruleset }) : "";
    const line = [t("st.winner", { who: who(winner, ctx), how, tile })];
    if (result.from !== null && result.from !== undefined && result.win_by !== "self_draw") line.push(t("st.from", { who: seatName(result.from, ctx.me) }));
    if (result.liable !== null && result.liable !== undefined) line.push(t("st.liable", { who: seatName(result.liable, ctx.me) }));
    parts.push(h("p", { class: "st-outcome win" }, line.join(" · ")));
    const hands = result.hands || [];
    if (hands[winner]) parts.push(revealedHand(view, hands[winner], ctx, result.win_tile, score.legal === false ? null : score.wilds || []));
    if (score.legal === false) {
      parts.push(h("p", { class: "st-illegal" }, t("st.illegal", { reason: score.reason })));
    } else {
      const limit = isLimit(score);
      parts.push(h("div", { class: "st-score" },
        itemsRow(t("st.tai"), score.tai, score.tai_total, "st.unit.tai"),
        itemsRow(t("st.base_items"), score.base_items, score.base_points, "st.unit.he"),
        itemsRow(limit ? t("st.limit_title") : t("st.fan"), score.fan, score.fan_total, "st.unit.fan", limit)));
      parts.push(h("p", { class: "st-formula" }, formulaLine(view, score, ctx)));
      if (rules.selfDrawEachPays && !(view.santan_pairs || []).length && result.win_by === "self_draw") {
        parts.push(h("p", { class: "st-each" }, t("st.pays_each", { n: score.points })));
      }
      parts.push(wildsLine(view, score), sharesLine(view, result, ctx));
    }
  }
  parts.push(chengbaoSummary(view, ctx.me), paymentsTable(view, result, ctx), pairwiseEl(view, result, ctx));
  if (rules.carryPool && result.carry_pool_after !== null && result.carry_pool_after !== undefined) {
    parts.push(h("p", { class: "st-carry" }, t("st.carry_after", { n: result.carry_pool_after })));
  }
  parts.push(allHands(view, result, ctx), fairness(view, ctx));
  return h("div", { class: "settlement" }, parts);
}

/** The final ranking of a match: rank (ties share one), player, total. */
export function standingsEl(totals, ctx) {
  const order = [0, 1, 2, 3].sort((a, b) => totals[b] - totals[a] || a - b);
  const rank = (seat) => 1 + order.filter((x) => totals[x] > totals[seat]).length;
  return h("section", { class: "standings" }, h("h3", {}, t("st.standings")),
    h("table", { class: "standings-table" },
      headRow([[t("st.rank"), "num"], [t("st.player"), ""], [t("st.totals"), "num"]]),
      h("tbody", {}, order.map((seat) => h("tr", { class: seat === ctx.me ? "me" : "", dataset: { seat: String(seat) } },
        h("td", { class: "num rank" }, String(rank(seat))),
        h("th", { scope: "row" }, who(seat, ctx)),
        h("td", { class: `num strong ${totals[seat] > 0 ? "pos" : totals[seat] < 0 ? "neg" : ""}` }, signed(totals[seat])))))));
}
