// Small pieces of the page: a tile as an image or a button, badges, a row of tiles.

import { h } from "./dom.js";
import { counted, t, tileLabel } from "./i18n.js";
import { tileSvg } from "./tiles.js";

/** A tile as an image (``face`` null: face down). ``size``: hand, small, tiny. */
export function tileImg(face, { wilds = [], ruleset, size = "small", extra = "" } = {}) {
  const wild = Boolean(face) && wilds.includes(face);
  const el = h("span", {
    class: `tile tile-${size}${wild ? " wild" : ""}${extra ? ` ${extra}` : ""}`,
    role: "img",
    "aria-label": tileLabel(face, { wild, ruleset }),
    dataset: face ? { face } : {},
  });
  el.append(tileSvg(face, { wild }));
  return el;
}

/** A tile as a button (the own hand). */
export function tileButton(face, { wilds = [], ruleset, size = "hand", extra = "", attrs = {} } = {}) {
  const wild = wilds.includes(face);
  const el = h("button", {
    type: "button",
    class: `tile tile-btn tile-${size}${wild ? " wild" : ""}${extra ? ` ${extra}` : ""}`,
    "aria-label": tileLabel(face, { wild, ruleset }),
    dataset: { face },
    ...attrs,
  });
  el.append(tileSvg(face, { wild }));
  return el;
}

export function tileRow(faces, opts = {}) {
  return h("span", { class: "tile-row" }, faces.map((f) => tileImg(f, opts)));
}

export function badge(text, kind = "") {
  return h("span", { class: `badge${kind ? ` badge-${kind}` : ""}` }, text);
}

const ICONS = {
  "sound-on": '<path d="M3 9v6h4l5 4V5L7 9H3z" fill="currentColor"/><path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  "sound-off": '<path d="M3 9v6h4l5 4V5L7 9H3z" fill="currentColor"/><path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  first: '<path d="M6 5v14M18 5l-9 7 9 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>',
  prev: '<path d="M16 5l-9 7 9 7z" fill="currentColor"/>',
  next: '<path d="M8 5l9 7-9 7z" fill="currentColor"/>',
  last: '<path d="M18 5v14M6 5l9 7-9 7z" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/>',
  exit: '<path d="M10 4H5v16h5" fill="none" stroke="currentColor" stroke-width="2"/><path d="M14 8l4 4-4 4M18 12H9" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
};

/** A small line icon of our own (decorative: the button carries the label). */
export function icon(name) {
  const span = document.createElement("span");
  span.className = "icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18">${ICONS[name]}</svg>`;
  return span;
}

/** The lobby's badges of a table: ruleset, 吃 or not, 硬自摸 or 抓铳, stakes, 底分, length. */
export function lobbyBadges(table) {
  return (table.badges || []).map((b) => {
    const [key, value] = b.split(":");
    if (value === undefined) return badge(t(`badge.${key}`), key);
    const n = Number(value);
    return badge(Number.isInteger(n) ? counted(`badge.${key}`, n) : t(`badge.${key}`, { n: value }), key);
  });
}
