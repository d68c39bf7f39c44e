// Drawing the Kingdomino family's pieces in SVG: squares (terrain colour, letter, crowns), the
// castle, dominoes, kings; the tile table; names and keys shared by the other modules.
import { svg as s } from "/static/dom.js";
import { liftTargetText, target } from "/static/kit.js";
import { KINGDOMINO_TILES, QUEENDOMINO_TILES } from "./kingdomino_tiles.js";

export const DIRS = ["E", "S", "W", "N"];
export const DELTA = { E: [1, 0], S: [0, 1], W: [-1, 0], N: [0, -1] };
export const TERRAINS = ["wheat", "forest", "lake", "grassland", "swamp", "mine", "town"];
export const TERRAIN_FILL = {
  wheat: "#f2cf4a", forest: "#2e6b34", lake: "#3f86d9", grassland: "#9ad46b",
  swamp: "#8c7b57", mine: "#4b4646", town: "#c9574f",
};
const TERRAIN_INK = {
  wheat: "#3a2e00", forest: "#ffffff", lake: "#ffffff", grassland: "#173a05",
  swamp: "#ffffff", mine: "#ffffff", town: "#ffffff",
};
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


/** Draw a crown mark with its count at (x, y) (top-left of a cell of size `size`). */
function crownMark(x, y, size, n) {
  if (!n) return null;
  const w = size * 0.34, hgt = size * 0.2, ox = x + size * 0.06, oy = y + size * 0.06;
  const pts = [
    [0, hgt], [0, hgt * 0.25], [w * 0.25, hgt * 0.6], [w * 0.5, 0], [w * 0.75, hgt * 0.6],
    [w, hgt * 0.25], [w, hgt],
  ].map(([a, b]) => `${(ox + a).toFixed(1)},${(oy + b).toFixed(1)}`).join(" ");
  return s("g", { class: "kd-crown" },
    s("polygon", { points: pts, fill: "#ffd83d", stroke: "#3a2e00", "stroke-width": size * 0.025 }),
    s("text", { x: ox + w + size * 0.04, y: oy + hgt, "font-size": size * 0.24, "font-weight": "bold",
      fill: "#111", stroke: "#fff", "stroke-width": size * 0.05, "paint-order": "stroke" }, String(n)));
}

/** One square: terrain fill, terrain letter, crowns. */
export function drawSquare(t, x, y, size, terrain, crowns, extra) {
  const g = s("g", { class: "kd-sq" });
  g.append(s("rect", { x, y, width: size, height: size, fill: TERRAIN_FILL[terrain] || "#ddd",
    stroke: "#222", "stroke-width": size * 0.03, ...(extra || {}) }));
  g.append(s("text", { x: x + size / 2, y: y + size * 0.68, "text-anchor": "middle",
    "font-size": size * 0.36, "font-weight": "bold", fill: TERRAIN_INK[terrain] || "#000",
    "pointer-events": "none" }, t("tl_" + terrain)));
  const cm = crownMark(x, y, size, crowns);
  if (cm) g.append(cm);
  return g;
}

export function drawCastle(t, x, y, size) {
  const g = s("g", { class: "kd-castle" });
  g.append(s("rect", { x, y, width: size, height: size, fill: "#e9e4d8", stroke: "#222", "stroke-width": size * 0.03 }));
  const m = size * 0.2, w = size - 2 * m;
  const p = [
    [0, 1], [0, 0.2], [0.2, 0.2], [0.2, 0.4], [0.4, 0.4], [0.4, 0.2], [0.6, 0.2], [0.6, 0.4],
    [0.8, 0.4], [0.8, 0.2], [1, 0.2], [1, 1],
  ].map(([a, b]) => `${x + m + a * w},${y + m + b * w}`).join(" ");
  g.append(s("polygon", { points: p, fill: "#8a8a8a", stroke: "#222", "stroke-width": size * 0.02 }));
  g.append(s("title", {}, t("castle")));
  return g;
}

/** A domino lying horizontally at (x, y), squares of `size`; d has terrains and crowns. */
export function drawDominoH(t, d, x, y, size) {
  const g = s("g", { class: "kd-domino" });
  g.append(drawSquare(t, x, y, size, d.terrains[0], d.crowns[0]));
  g.append(drawSquare(t, x + size, y, size, d.terrains[1], d.crowns[1]));
  g.append(s("rect", { x, y, width: size * 2, height: size, fill: "none", stroke: "#000", "stroke-width": size * 0.06, rx: size * 0.06 }));
  return g;
}

export function dominoLabel(t, d, n) {
  return t("domino_label", {
    n, a: t("ter_" + d.terrains[0]), ca: d.crowns[0], b: t("ter_" + d.terrains[1]), cb: d.crowns[1],
  });
}

/** A king pawn in a seat colour with the seat number (1-based). */
export function drawKing(cx, cy, r, seat) {
  const g = s("g", { class: "kd-king" });
  g.append(s("circle", { cx, cy, r, fill: seatColor(seat), stroke: "#000", "stroke-width": r * 0.15 }));
  g.append(s("text", { x: cx, y: cy + r * 0.4, "text-anchor": "middle", "font-size": r * 1.1,
    "font-weight": "bold", fill: "#fff", stroke: "#000", "stroke-width": r * 0.12, "paint-order": "stroke" }, String(seat + 1)));
  return g;
}

