// The tiles, drawn as SVG of our own: one <symbol> per face (34 kinds, 8 flowers, a back) in
// a sprite added to the page once; every tile on screen is a <use> of its symbol. A wild
// tile gets a gold frame and a star in its corner.

import { ALL_FACES, isFlower } from "./faces.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 60;
const H = 80;
const INK = "#1d2d5c";
const RED = "#c2262e";
const GREEN = "#14804a";
const BLUE = "#1f5fa8";
const NUMERALS = "一二三四五六七八九";
const HONOUR_CHARS = { E: "东", S: "南", W: "西", N: "北", C: "中", F: "发" };
const FLOWER_CHARS = "春夏秋冬梅兰竹菊";
const FONT = "'Noto Serif CJK SC','Source Han Serif SC','Songti SC','SimSun','WenQuanYi Micro Hei',serif";

function glyph(text, x, y, size, fill, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" ` +
    `text-anchor="middle" dominant-baseline="central" font-family="${FONT}">${text}</text>`;
}

function dot(x, y, r, colour) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${colour}" stroke-width="${r * 0.32}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.45}" fill="${colour}"/>`;
}

const DOTS = {
  2: [[30, 22, 10, BLUE], [30, 56, 10, GREEN]],
  3: [[15, 17, 8.5, BLUE], [30, 39, 8.5, RED], [45, 61, 8.5, GREEN]],
  4: [[18, 22, 9, BLUE], [42, 22, 9, GREEN], [18, 56, 9, GREEN], [42, 56, 9, BLUE]],
  5: [[17, 18, 8, BLUE], [43, 18, 8, GREEN], [30, 39, 8, RED], [17, 60, 8, GREEN], [43, 60, 8, BLUE]],
  6: [[19, 15, 7.5, GREEN], [41, 15, 7.5, GREEN], [19, 40, 7.5, RED], [41, 40, 7.5, RED],
    [19, 62, 7.5, RED], [41, 62, 7.5, RED]],
  7: [[14, 12, 6.5, GREEN], [30, 20, 6.5, GREEN], [46, 28, 6.5, GREEN], [19, 46, 7, RED],
    [41, 46, 7, RED], [19, 64, 7, RED], [41, 64, 7, RED]],
  8: [[19, 12, 7, BLUE], [41, 12, 7, BLUE], [19, 29, 7, BLUE], [41, 29, 7, BLUE],
    [19, 47, 7, BLUE], [41, 47, 7, BLUE], [19, 64, 7, BLUE], [41, 64, 7, BLUE]],
  9: [[14, 16, 7, BLUE], [30, 16, 7, BLUE], [46, 16, 7, BLUE], [14, 39, 7, RED], [30, 39, 7, RED],
    [46, 39, 7, RED], [14, 62, 7, GREEN], [30, 62, 7, GREEN], [46, 62, 7, GREEN]],
};

function pin(n) {
  if (n === 1) {
    return `<circle cx="30" cy="39" r="20" fill="none" stroke="${GREEN}" stroke-width="3"/>` +
      `<circle cx="30" cy="39" r="14" fill="none" stroke="${RED}" stroke-width="3" stroke-dasharray="4 3"/>` +
      `<circle cx="30" cy="39" r="7" fill="${BLUE}"/>`;
  }
  return DOTS[n].map(([x, y, r, c]) => dot(x, y, r, c)).join("");
}

function stick(x, y, colour, h = 20, w = 7) {
  const top = y - h / 2;
  return `<rect x="${x - w / 2}" y="${top}" width="${w}" height="${h}" rx="${w / 2}" fill="${colour}"/>` +
    `<line x1="${x - w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y}" stroke="#fff" stroke-width="1.2"/>` +
    `<line x1="${x}" y1="${top + 2}" x2="${x}" y2="${top + h - 2}" stroke="#fff" stroke-opacity=".35" stroke-width="1"/>`;
}

const STICKS = {
  2: [[30, 23], [30, 56]],
  3: [[30, 23], [18, 56], [42, 56]],
  4: [[18, 23], [42, 23], [18, 56], [42, 56]],
  5: [[16, 21], [44, 21], [30, 39, RED], [16, 58], [44, 58]],
  6: [[14, 23], [30, 23], [46, 23], [14, 56], [30, 56], [46, 56]],
  7: [[30, 15, RED], [14, 40], [30, 40], [46, 40], [14, 64], [30, 64], [46, 64]],
  8: [[12, 23], [24, 23], [36, 23], [48, 23], [12, 56], [24, 56], [36, 56], [48, 56]],
  9: [[14, 15], [30, 15, RED], [46, 15], [14, 40], [30, 40, RED], [46, 40], [14, 64],
    [30, 64, RED], [46, 64]],
};

function sou(n) {
  if (n === 1) {  // the bird of 一条
    return `<ellipse cx="30" cy="44" rx="13" ry="17" fill="${GREEN}"/>` +
      `<path d="M30 60 L18 72 M30 60 L30 74 M30 60 L42 72" stroke="${GREEN}" stroke-width="3" stroke-linecap="round"/>` +
      `<circle cx="30" cy="22" r="8" fill="${GREEN}"/><circle cx="32" cy="20" r="2" fill="#fff"/>` +
      `<path d="M37 22 L45 24 L37 26 Z" fill="${RED}"/><path d="M26 15 Q30 6 34 14" fill="${RED}"/>` +
      `<path d="M22 44 Q30 36 38 44 Q30 52 22 44" fill="${RED}" opacity=".85"/>`;
  }
  return STICKS[n].map(([x, y, c]) => stick(x, y, c || GREEN, n >= 7 ? 19 : 22)).join("");
}

function man(n) {
  return glyph(NUMERALS[n - 1], 30, 24, 25, INK) + glyph("萬", 30, 56, 28, RED);
}

function honour(face) {
  if (face === "P") {  // 白板: an empty blue frame
    return `<rect x="12" y="14" width="36" height="50" rx="4" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<rect x="17" y="19" width="26" height="40" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.2"/>`;
  }
  const colour = face === "C" ? RED : face === "F" ? GREEN : INK;
  return glyph(HONOUR_CHARS[face], 30, 40, 38, colour);
}

function flower(face) {
  const n = Number(face[1]);
  const colour = n <= 4 ? RED : INK;
  const band = n <= 4 ? "#f2c6c8" : "#c9d3ea";
  return `<rect x="6" y="6" width="48" height="12" rx="4" fill="${band}"/>` +
    `<text x="30" y="12.5" font-size="9" font-weight="700" fill="${colour}" text-anchor="middle" dominant-baseline="central" font-family="sans-serif">${n <= 4 ? "FLOWER" : "PLANT"} ${(n - 1) % 4 + 1}</text>` +
    glyph(FLOWER_CHARS[n - 1], 30, 46, 34, colour);
}

function faceArt(face) {
  if (/^[1-9]m$/.test(face)) return man(Number(face[0]));
  if (/^[1-9]p$/.test(face)) return pin(Number(face[0]));
  if (/^[1-9]s$/.test(face)) return sou(Number(face[0]));
  if (isFlower(face)) return flower(face);
  return honour(face);
}

function body(inner) {
  return `<rect x="1" y="3" width="58" height="76" rx="7" fill="#2d7a67"/>` +
    `<rect x="1" y="1" width="58" height="74" rx="7" fill="#fffaf0" stroke="#d8ceb2" stroke-width="1.2"/>` +
    `<g transform="translate(0,-1.5)">${inner}</g>`;
}

function back() {
  return `<rect x="1" y="3" width="58" height="76" rx="7" fill="#1c5a4c"/>` +
    `<rect x="1" y="1" width="58" height="74" rx="7" fill="#2f8f78"/>` +
    `<rect x="7" y="7" width="46" height="62" rx="4" fill="none" stroke="#bfe5d6" stroke-opacity=".6" stroke-width="1.5"/>` +
    `<path d="M30 20 L42 38 L30 56 L18 38 Z" fill="none" stroke="#bfe5d6" stroke-opacity=".6" stroke-width="1.5"/>`;
}

/** Add the tile sprite to the document (once). */
export function installSprite(doc = document) {
  if (doc.getElementById("tile-sprite")) return;
  const symbols = ALL_FACES.map((face) =>
    `<symbol id="tile-${face}" viewBox="0 0 ${W} ${H}">${body(faceArt(face))}</symbol>`).join("");
  const wrap = doc.createElement("div");
  wrap.innerHTML = `<svg id="tile-sprite" xmlns="${SVG}" aria-hidden="true">` +
    `<defs>${symbols}<symbol id="tile-back" viewBox="0 0 ${W} ${H}">${back()}</symbol>` +
    `<symbol id="tile-wildmark" viewBox="0 0 ${W} ${H}">` +
    `<rect x="2" y="2" width="56" height="72" rx="6.5" fill="none" stroke="#e0a800" stroke-width="3.2"/>` +
    `<circle cx="49" cy="11" r="9" fill="#e0a800"/>` +
    `<path d="M49 4.5 L50.9 9.2 L55.8 9.4 L52 12.5 L53.3 17.3 L49 14.6 L44.7 17.3 L46 12.5 L42.2 9.4 L47.1 9.2 Z" fill="#fff"/>` +
    `</symbol></defs></svg>`;
  const sprite = wrap.firstChild;
  // hidden through the CSSOM: the page's CSP refuses style attributes
  sprite.style.cssText = "position:absolute;width:0;height:0;overflow:hidden";
  doc.body.prepend(sprite);
}

/** An <svg> showing one tile (``face`` null: a tile back); ``wild`` adds the wild mark. */
export function tileSvg(face, { wild = false } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", face ? `#tile-${face}` : "#tile-back");
  svg.append(use);
  if (wild && face) {
    const mark = document.createElementNS(SVG, "use");
    mark.setAttribute("href", "#tile-wildmark");
    svg.append(mark);
  }
  return svg;
}
