// The Kingdomino family's artwork, drawn here in SVG (no copied art): one hidden sprite per page
// (patterns and symbols in <defs>, shared by every board, so a square is one <rect> and a piece
// one <use>). Each terrain has a colour from a colour-blind-safe palette AND its own texture
// (wheat ears, fir trees, waves, grass tufts, reeds, mountains with a pickaxe, houses), so
// squares differ by shape as well as colour. Colours are CSS variables (kingdomino.css), with
// dark-scheme values. Pieces: crown, castle, king, knight, tower, the Queen, the Dragon, a building, a coin.
//
// Drawing the Kingdomino family's pieces in SVG: squares (terrain pattern and crowns, from the
// sprite below), the castle, dominoes, kings; the tile table; names and keys shared by the other modules.
import { svg as s } from "/static/dom.js";
import { liftTargetText, target } from "/static/kit.js";
import { KINGDOMINO_TILES, QUEENDOMINO_TILES } from "./kingdomino_tiles.js";

// ---- the art: the sprite and its pieces -----------------------------------------------------

export const SPRITE_ID = "kd-sprite";
export const TERRAINS = ["wheat", "forest", "lake", "grassland", "swamp", "mine", "town"];

// Textures in a unit square (patternContentUnits="objectBoundingBox": one pattern fits any size).
const INK = "kd-ink-line"; // class of texture strokes (kingdomino.css colours them per terrain)
const line = (d, w = 0.035) => s("path", { d, class: INK, fill: "none", "stroke-width": w, "stroke-linecap": "round" });
const TEXTURES = {
  wheat: () => [0.3, 0.55, 0.8].map((x) => line(
    `M${x} 0.92V0.4 M${x} 0.5l-0.07-0.08 M${x} 0.5l0.07-0.08 M${x} 0.62l-0.07-0.08 M${x} 0.62l0.07-0.08 M${x} 0.74l-0.07-0.08 M${x} 0.74l0.07-0.08 M${x} 0.4l0-0.06`)),
  forest: () => [[0.3, 0.55], [0.68, 0.45], [0.52, 0.88]].map(([x, y]) => s("path", {
    d: `M${x} ${y - 0.3}L${x + 0.15} ${y}H${x + 0.03}v0.08h-0.06v-0.08H${x - 0.15}Z`, class: "kd-ink-fill" })),
  lake: () => [0.35, 0.6, 0.85].map((y) => line(`M0.08 ${y}q0.1-0.08 0.2 0t0.2 0t0.2 0t0.2 0`, 0.04)),
  grassland: () => [[0.3, 0.5], [0.7, 0.45], [0.5, 0.85], [0.85, 0.85]].map(([x, y]) =>
    line(`M${x} ${y}l-0.08-0.12 M${x} ${y}l0-0.15 M${x} ${y}l0.08-0.12`, 0.03)),
  swamp: () => [
    line("M0.1 0.88h0.25 M0.5 0.88h0.35 M0.2 0.72h0.3", 0.03),
    ...[0.3, 0.58, 0.8].map((x) => s("g", {}, line(`M${x} 0.85V0.38`, 0.025),
      s("rect", { x: x - 0.03, y: 0.4, width: 0.06, height: 0.16, rx: 0.03, class: "kd-ink-fill" }))),
  ],
  mine: () => [
    s("path", { d: "M0.05 0.9L0.35 0.42L0.5 0.62L0.68 0.3L0.95 0.9Z", class: "kd-ink-fill" }),
    line("M0.58 0.78L0.86 0.5 M0.74 0.5q0.12-0.04 0.2 0.06", 0.04),
  ],
  town: () => [[0.3, 0.55], [0.68, 0.5], [0.5, 0.88]].map(([x, y]) => s("path", {
    d: `M${x - 0.12} ${y}V${y - 0.14}L${x} ${y - 0.26}L${x + 0.12} ${y - 0.14}V${y}Z`, class: "kd-ink-fill" })),
};

// Pieces, each a <symbol> in a 24 x 24 box.
const SYMBOLS = {
  crown: [s("path", { d: "M2 19L1 7l6 5 5-8 5 8 6-5-1 12Z", class: "kd-crown-body" }),
    s("circle", { cx: 12, cy: 15, r: 1.8, class: "kd-crown-gem" })],
  castle: [s("path", { d: "M3 22V8h3v2h2V8h3v3h2V8h3v2h2V8h3v14h-7v-5a2 2 0 0 0-4 0v5Z", class: "kd-castle-body" }),
    s("path", { d: "M12 8V2l5 2-5 2", class: "kd-castle-flag" })],
  knight: [s("path", { d: "M6 22h13v-3l-2-2c0-4 1-7-1-10l-4-4-1 2-4 3-2 4 1 2 3-1 1 1-3 3-1 3Z", class: "kd-piece-body" }),
    s("circle", { cx: 11, cy: 8, r: 1, class: "kd-piece-eye" })],
  tower: [s("path", { d: "M5 22l1-3V8H4V3h3v2h2V3h3v2h2V3h3v2h2V3h3v5h-2v11l1 3Z", class: "kd-piece-body" }),
    s("rect", { x: 10.5, y: 11, width: 3, height: 5, rx: 1.5, class: "kd-piece-eye" })],
  queen: [s("path", { d: "M7 7l1-5 2 3 2-4 2 4 2-3 1 5Z", class: "kd-crown-body" }),
    s("circle", { cx: 12, cy: 10, r: 3, class: "kd-piece-body" }),
    s("path", { d: "M6 23l3-10h6l3 10Z", class: "kd-piece-body" })],
  dragon: [s("path", { d: "M2 15c3-1 5-1 7 1l2-9 3 6 6-8-1 10c2 0 3 1 4 3-3-1-5 0-7 2-3 2-7 3-10 1l3-1c-2-2-4-3-7-5Z", class: "kd-dragon-body" }),
    s("circle", { cx: 19, cy: 16, r: 0.9, class: "kd-piece-eye" })],
  // a king pawn: crown, head, bell-shaped body, base; filled with the <use>'s fill (the seat's
  // colour), outlined in --kd-king-edge; the body leaves room for the seat number (domino_draw.js)
  king: [s("path", { d: "M3.4 19.4h17.2a1 1 0 0 1 1 1v2a1 1 0 0 1-1 1H3.4a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1Z", class: "kd-king-body" }),
    s("path", { d: "M9 9.6h6c0.2 3.9 2.3 6.8 5.4 9.8H3.6c3.1-3 5.2-5.9 5.4-9.8Z", class: "kd-king-body" }),
    s("circle", { cx: 12, cy: 7.4, r: 2.5, class: "kd-king-body" }),
    s("path", { d: "M8 5.4L7.4 1.3l2.4 1.9L12 0.9l2.2 2.3 2.4-1.9L16 5.4Z", class: "kd-king-body" })],
  coin: [s("circle", { cx: 12, cy: 12, r: 9, class: "kd-coin-body" }), s("circle", { cx: 12, cy: 12, r: 5.5, class: "kd-coin-ring" })],
  building: [s("path", { d: "M3 11L12 3l9 8v11H3Z", class: "kd-building-body" }),
    s("path", { d: "M10 22v-6h4v6", class: "kd-building-door" })],
};

/** The page's sprite: added to <body> once (again only if something removed it). */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE_ID)) return;
  const defs = s("defs", {});
  for (const ter of TERRAINS) {
    defs.append(s("pattern", { id: `kd-ter-${ter}`, width: 1, height: 1, patternContentUnits: "objectBoundingBox",
      class: `kd-ter kd-ter-${ter}` }, s("rect", { width: 1, height: 1, class: "kd-ter-bg" }), ...TEXTURES[ter]()));
  }
  for (const [name, parts] of Object.entries(SYMBOLS)) {
    defs.append(s("symbol", { id: `kd-sym-${name}`, viewBox: "0 0 24 24" }, ...parts.map((p) => p.cloneNode(true))));
  }
  doc.body.append(s("svg", { id: SPRITE_ID, class: "kd-sprite", width: 0, height: 0, "aria-hidden": "true", focusable: "false" }, defs));
}

/** The fill of a terrain square: its pattern (colour and texture). */
export const terrainFill = (terrain) => (TEXTURES[terrain] ? `url(#kd-ter-${terrain})` : "#ddd");

/** A piece from the sprite, in the box (x, y, w, h); `cls` styles it (a seat colour...). */
export function piece(name, x, y, w, h = w, cls = "") {
  return s("use", { href: `#kd-sym-${name}`, x, y, width: w, height: h, class: `kd-use kd-use-${name} ${cls}`.trim() });
}

/** `n` crowns in a row from (x, y), each `w` wide, with the count beside them when n > 1. */
export function crownRow(x, y, w, n) {
  if (!n) return null;
  const g = s("g", { class: "kd-crowns", "aria-hidden": "true" });
  for (let i = 0; i < n; i++) g.append(piece("crown", x + i * w * 0.8, y, w));
  return g;
}

/** A small inline icon for HTML text (aria-hidden: the words beside it say it). */
export function icon(name, cls = "") {
  return s("svg", { viewBox: "0 0 24 24", class: `kd-icon ${cls}`.trim(), "aria-hidden": "true", focusable: "false" },
    s("use", { href: `#kd-sym-${name}` }));
}

// ---- drawing -----------------------------------------------------------------------------------

export const DIRS = ["E", "S", "W", "N"];
export const DELTA = { E: [1, 0], S: [0, 1], W: [-1, 0], N: [0, -1] };
export const SEAT_COLORS = [
  "#e0457b", "#e8b500", "#2f9e55", "#3b6fd8", "#f07f23", "#8e56c9", "#1aa7a7", "#8a5a2b",
];

/** Make an SVG element a keyboard-reachable button (the kit's target, marked kd-active). */
export function activatable(el, label, fn) {
  return target(el, label, fn, { cls: "kd-active" });
}

/** The letters inside controls, lifted above them (the kit's liftTargetText). */
export function liftControlText(svg) {
  return liftTargetText(svg, "kd-ink");
}

export const keyOf = (d) => (d.id != null ? d.id : d.number);
export const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];
export const nameOf = (ctx, seat) => (ctx.names && ctx.names[seat]) || `P${seat + 1}`;
export const terrainName = (t, ter) => (ter ? t("ter_" + ter) : t("castle"));

/** [t1, c1, t2, c2] of a domino id; Queendomino ids 49-96 are the Kingdomino box. */
export function tileOf(game, id) {
  if (game === "queendomino") return id <= 48 ? QUEENDOMINO_TILES[id - 1] : KINGDOMINO_TILES[id - 49];
  return KINGDOMINO_TILES[id - 1];
}


/** The crowns of a square: that many crown icons along its top, and the count when over one
 * (the square's accessible name says the number too). */
function crownMark(x, y, size, n) {
  if (!n) return null;
  const g = crownRow(x + size * 0.05, y + size * 0.03, size * 0.3, n);
  if (n > 1) {
    g.append(s("text", { x: x + size * 0.95, y: y + size * 0.3, "text-anchor": "end", "font-size": size * 0.26,
      "font-weight": "bold", class: "kd-crown-n" }, String(n)));
  }
  return g;
}

/** One square: its terrain (colour and texture, from the sprite) and its crowns. */
export function drawSquare(t, x, y, size, terrain, crowns, extra) {
  const g = s("g", { class: `kd-sq kd-sq-${terrain}` });
  g.append(s("rect", { x, y, width: size, height: size, fill: terrainFill(terrain),
    class: "kd-sq-rect", "stroke-width": size * 0.03, ...(extra || {}) }));
  const cm = crownMark(x, y, size, crowns);
  if (cm) g.append(cm);
  return g;
}

export function drawCastle(t, x, y, size) {
  const g = s("g", { class: "kd-castle" });
  g.append(s("rect", { x, y, width: size, height: size, class: "kd-castle-ground", "stroke-width": size * 0.03 }));
  g.append(piece("castle", x + size * 0.1, y + size * 0.1, size * 0.8));
  g.append(s("title", {}, t("castle")));
  return g;
}

/** A domino lying horizontally at (x, y), squares of `size`; d has terrains and crowns. */
export function drawDominoH(t, d, x, y, size) {
  const g = s("g", { class: "kd-domino" });
  g.append(drawSquare(t, x, y, size, d.terrains[0], d.crowns[0]));
  g.append(drawSquare(t, x + size, y, size, d.terrains[1], d.crowns[1]));
  g.append(s("rect", { x, y, width: size * 2, height: size, fill: "none", class: "kd-domino-edge", "stroke-width": size * 0.06, rx: size * 0.06 }));
  return g;
}

export function dominoLabel(t, d, n) {
  return t("domino_label", {
    n, a: t("ter_" + d.terrains[0]), ca: t("crowns_n", { n: d.crowns[0] }),
    b: t("ter_" + d.terrains[1]), cb: t("crowns_n", { n: d.crowns[1] }),
  });
}

/**
 * A king: a crowned pawn (the sprite's) in the seat's colour, its seat number (1-based) on its
 * body so that seats differ by more than colour, in the box of side 2r centred on (cx, cy).
 * `label` (its accessible name, "king of Ana (seat 1)") becomes its tooltip.
 */
export function drawKing(cx, cy, r, seat, label = null) {
  const g = s("g", { class: "kd-king" });
  const use = piece("king", cx - r, cy - r, 2 * r);
  use.setAttribute("fill", seatColor(seat));
  g.append(use);
  g.append(s("text", { x: cx, y: cy + r * 0.6, "text-anchor": "middle", "font-size": r * 0.9,
    "font-weight": "bold", "stroke-width": (r * 0.14).toFixed(2), class: "kd-king-n" }, String(seat + 1)));
  if (label) g.append(s("title", {}, label));
  return g;
}
