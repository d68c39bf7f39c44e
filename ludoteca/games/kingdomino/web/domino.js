// Shared drawing for the Kingdomino family (kingdomino.js, ../queendomino/queendomino.js): kingdoms, lines,
// the placement interaction, score breakdowns and the tile list. Plain ES module, SVG boards.
//
// PLACEMENT (a compound choice; tests drive it with these clicks):
//   A legal place action {"type": "place", "x": X, "y": Y, "dir": D} puts the domino's first
//   half (marked "1") on square (X, Y) of your kingdom (castle = 0,0; x right, y down) and its
//   second half one step towards D (E right, S down, W left, N up).
//   1. Click [data-testid="cell-X-Y"] in your kingdom ([data-testid="my-kingdom"]). It is
//      selectable when (X, Y) is the first half of some legal place action in any direction
//      (the direction switches to the first legal one for that square, in the order E, S, W, N).
//      Squares that are the first half of no legal placement send nothing and call notify().
//   2. Click [data-testid="rotate"] (or press R) until [data-testid="confirm"] has
//      data-dir="D". With a square selected, rotation only visits directions legal for that
//      square (at most 3 clicks). The confirm button always carries data-action-index, the
//      index in ctx.legal of exactly the previewed action, and data-x / data-y / data-dir.
//   3. Click [data-testid="confirm"] (or press Enter on it): act(legal[data-action-index]).
//   Without a selection, the highlighted squares (data-target="1") are the first halves legal in
//   the current direction, and hovering one previews the domino there.
//   When the only legal action is {"type": "discard"}, [data-testid="discard"] (with
//   data-action-index) is shown with an explanation instead.
// A CLAIM is one click on [data-testid="claim-N"] (N: the domino's number, or its id in
// Queendomino) in the next line; only legal ones are focusable and carry data-action-index.

import { h, svg as s } from "/static/dom.js";
import { partText } from "/static/parts.js";
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

export const DOMINO_MESSAGES = {
  en: {
    ter_wheat: "wheat", ter_forest: "forest", ter_lake: "lake", ter_grassland: "grassland",
    ter_swamp: "swamp", ter_mine: "mine", ter_town: "town",
    tl_wheat: "W", tl_forest: "F", tl_lake: "L", tl_grassland: "G", tl_swamp: "S",
    tl_mine: "M", tl_town: "T",
    castle: "Castle",
    round: "Round {round} of {rounds}",
    game_n: "Game {n} of {games}",
    draft_phase: "First draft",
    over: "Game over",
    your_turn_place: "Your turn: place domino {n} in your kingdom",
    your_turn_claim: "Your turn: choose a domino in the next line for your king",
    your_turn_draft: "Your turn: choose a domino for your king",
    your_turn_steps: "Your turn: optional steps, then finish your turn",
    waiting_for: "Waiting for {names}",
    spectating: "You are watching this game",
    current_line: "Current line",
    next_line: "Next line",
    no_line: "No next line: this is the last round",
    your_kingdom: "Your kingdom ({name})",
    kingdom_of: "Kingdom of {name}",
    rotate: "⟳ Rotate (R)",
    confirm: "✓ Place here",
    place_hint: "Choose the square for the first half (1) of domino {n}, rotate with R, then confirm.",
    place_selected: "Domino {n}: first half on {x}, {y}, second half {dir}.",
    dir_E: "to the right", dir_S: "below", dir_W: "to the left", dir_N: "above",
    no_spot: "The domino cannot have its first half there.",
    only_way: "Only one direction fits on this square.",
    pick_first: "First choose a highlighted square.",
    discard_explain: "No legal place for this domino: it is discarded.",
    discard_btn: "✗ Discard domino {n}",
    claim_label: "Claim domino {n}",
    domino_label: "Domino {n}: {a} ({ca} crowns) and {b} ({cb} crowns)",
    king_label: "king of {name} (seat {seat})",
    acting_mark: "now playing",
    cell_label: "{x}, {y}: {what}",
    cell_target: "{x}, {y}: put the first half here",
    empty: "empty",
    crowns_n: "{n} crowns",
    score: "{score} pts",
    score_one: "{score} pt",
    score_title: "Score of {name}: {score}",
    total: "Total: {score}",
    tiles_title: "Tile list",
    st_placed: "placed", st_discarded: "discarded", st_line: "in a line", st_unseen: "unseen",
    unseen_some: "{n} unseen dominoes; {deck} of them are still in the deck, the others were removed unseen (which ones is secret).",
    unseen_all: "{n} unseen dominoes, all still in the deck.",
    to_come: "Among the unseen dominoes:",
    deck_left: "Deck: {n} left",
    not_in_game: "not in this game",
    box_qd: "Queendomino box", box_kd: "Kingdomino box",
  },
  es: {
    ter_wheat: "trigo", ter_forest: "bosque", ter_lake: "lago", ter_grassland: "pradera",
    ter_swamp: "pantano", ter_mine: "mina", ter_town: "pueblo",
    tl_wheat: "Tr", tl_forest: "Bo", tl_lake: "La", tl_grassland: "Pr", tl_swamp: "Pn",
    tl_mine: "Mi", tl_town: "Pu",
    castle: "Castillo",
    round: "Ronda {round} de {rounds}",
    game_n: "Partida {n} de {games}",
    draft_phase: "Primera elección",
    over: "Fin de la partida",
    your_turn_place: "Tu turno: coloca la ficha {n} en tu reino",
    your_turn_claim: "Tu turno: elige una ficha de la siguiente fila para tu rey",
    your_turn_draft: "Tu turno: elige una ficha para tu rey",
    your_turn_steps: "Tu turno: pasos opcionales y después termina tu turno",
    waiting_for: "Esperando a {names}",
    spectating: "Estás mirando esta partida",
    current_line: "Fila actual",
    next_line: "Fila siguiente",
    no_line: "No hay fila siguiente: es la última ronda",
    your_kingdom: "Tu reino ({name})",
    kingdom_of: "Reino de {name}",
    rotate: "⟳ Girar (R)",
    confirm: "✓ Colocar aquí",
    place_hint: "Elige la casilla de la primera mitad (1) de la ficha {n}, gira con R y confirma.",
    place_selected: "Ficha {n}: primera mitad en {x}, {y}, segunda mitad {dir}.",
    dir_E: "a la derecha", dir_S: "debajo", dir_W: "a la izquierda", dir_N: "encima",
    no_spot: "La primera mitad de la ficha no puede ir ahí.",
    only_way: "En esta casilla solo cabe en una dirección.",
    pick_first: "Elige primero una casilla resaltada.",
    discard_explain: "Esta ficha no cabe en ningún sitio legal: se descarta.",
    discard_btn: "✗ Descartar la ficha {n}",
    claim_label: "Elegir la ficha {n}",
    domino_label: "Ficha {n}: {a} ({ca} coronas) y {b} ({cb} coronas)",
    king_label: "rey de {name} (asiento {seat})",
    acting_mark: "jugando ahora",
    cell_label: "{x}, {y}: {what}",
    cell_target: "{x}, {y}: poner aquí la primera mitad",
    empty: "vacía",
    crowns_n: "{n} coronas",
    score: "{score} ptos",
    score_one: "{score} pto",
    score_title: "Puntuación de {name}: {score}",
    total: "Total: {score}",
    tiles_title: "Lista de fichas",
    st_placed: "colocada", st_discarded: "descartada", st_line: "en una fila", st_unseen: "sin ver",
    unseen_some: "{n} fichas sin ver; {deck} siguen en el mazo y las demás se retiraron sin verse (cuáles es secreto).",
    unseen_all: "{n} fichas sin ver, todas siguen en el mazo.",
    to_come: "Entre las fichas sin ver:",
    deck_left: "Mazo: quedan {n}",
    not_in_game: "no está en esta partida",
    box_qd: "caja de Queendomino", box_kd: "caja de Kingdomino",
  },
};

/** Make an SVG element a keyboard-reachable button. */
export function activatable(el, label, fn) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.classList.add("kd-active");
  el.addEventListener("click", (e) => { e.stopPropagation(); fn(e); });
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); fn(e); }
  });
  el.append(s("title", {}, label));
  return el;
}

/**
 * Move the letters and numbers drawn inside controls (role="button") of `svg` to a top layer
 * that ignores the pointer and assistive tech. A control's accessible name must contain the text
 * inside it (voice control users say what they see), and the label already says what the
 * letters say. Coordinates are absolute in the SVG, so the text stays where it was drawn.
 */
export function liftControlText(svg) {
  const ink = s("g", { class: "kd-ink", "aria-hidden": "true", "pointer-events": "none" });
  for (const text of svg.querySelectorAll('[role="button"] text')) ink.append(text);
  if (ink.childNodes.length) svg.append(ink);
  return svg;
}

export function legalIndex(legal, pred) {
  for (let i = 0; i < legal.length; i++) if (pred(legal[i])) return i;
  return -1;
}

export const keyOf = (d) => (d.id != null ? d.id : d.number);
export const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];
export const nameOf = (ctx, seat) => (ctx.names && ctx.names[seat]) || `P${seat + 1}`;
export const terrainName = (t, ter) => (ter ? t("ter_" + ter) : t("castle"));

// ---- per-root UI state (kept across re-renders while still valid) -------------------------

const UI = new WeakMap();

export function uiState(root) {
  let st = UI.get(root);
  if (!st) {
    st = { dir: null, sel: null, key: null, buildSpace: null, ctx: null, redraw: null, onKey: null };
    UI.set(root, st);
  }
  return st;
}

/** Install the R key once per root; `destroyUi` removes it. */
export function installKeys(root) {
  const st = uiState(root);
  if (st.onKey) return;
  st.onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key !== "r" && e.key !== "R") return;
    const tgt = e.target;
    if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "TEXTAREA" || tgt.isContentEditable)) return;
    if (!root.isConnected || !st.rotate) return;
    e.preventDefault();
    st.rotate();
  };
  document.addEventListener("keydown", st.onKey);
}

export function destroyUi(root) {
  const st = UI.get(root);
  if (st && st.onKey) document.removeEventListener("keydown", st.onKey);
  UI.delete(root);
}

/** Rebuild root's content with `build()`, keeping focus on the element with the same testid. */
export function rebuild(root, build) {
  const active = document.activeElement;
  const testid = active && root.contains(active) ? active.getAttribute("data-testid") : null;
  root.replaceChildren(build());
  if (testid) {
    const again = root.querySelector(`[data-testid="${CSS.escape(testid)}"]`);
    if (again) again.focus();
  }
}

// ---- tiles ------------------------------------------------------------------------------

/** [t1, c1, t2, c2] of a domino id; Queendomino ids 49-96 are the Kingdomino box. */
export function tileOf(game, id) {
  if (game === "queendomino") return id <= 48 ? QUEENDOMINO_TILES[id - 1] : KINGDOMINO_TILES[id - 49];
  return KINGDOMINO_TILES[id - 1];
}

// ---- geometry & scoring -----------------------------------------------------------------

export function squareMap(kingdom) {
  const m = new Map();
  for (const q of kingdom.squares) m.set(q.x + "," + q.y, q);
  return m;
}

export function bounds(kingdom) {
  const [cx, cy] = kingdom.castle;
  let x0 = cx, x1 = cx, y0 = cy, y1 = cy;
  for (const q of kingdom.squares) {
    x0 = Math.min(x0, q.x); x1 = Math.max(x1, q.x); y0 = Math.min(y0, q.y); y1 = Math.max(y1, q.y);
  }
  return { x0, x1, y0, y1 };
}

/** Squares still reachable by the frame: every square a domino could occupy. */
export function region(kingdom, frame) {
  const b = bounds(kingdom);
  return { x0: b.x1 - frame + 1, x1: b.x0 + frame - 1, y0: b.y1 - frame + 1, y1: b.y0 + frame - 1 };
}

// ---- drawing a domino -------------------------------------------------------------------

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

function drawCastle(t, x, y, size) {
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

// ---- lines ------------------------------------------------------------------------------

/**
 * Both lines. `opts.claimable` true for the next line (claims). Returns an element.
 * The acting domino of the current line gets a marker.
 */
export function drawLines(ctx, opts = {}) {
  const { view, legal, t } = ctx;
  const wrap = h("div", { class: "kd-lines" });
  const acting = view.phase === "play" ? view.acting : -1;
  wrap.append(drawLine(ctx, view.current_line, "current", t("current_line"), acting, opts));
  if (view.next_line.length) wrap.append(drawLine(ctx, view.next_line, "next", t("next_line"), -1, opts));
  else if (view.phase === "play") wrap.append(h("p", { class: "kd-note" }, t("no_line")));
  return wrap;
}

function drawLine(ctx, line, which, title, acting, opts) {
  const { view, legal, t } = ctx;
  const S = 40, gap = 14, rowH = S + 10;
  const cols = line.length > 4 ? 2 : 1;
  const perCol = Math.ceil(line.length / cols);
  const colW = S * 2 + 86;
  const width = cols * colW, height = Math.max(1, perCol) * rowH + 4;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "kd-line-svg", "data-testid": `line-${which}`,
    role: "group", "aria-label": title });
  svg.style.maxWidth = `${cols * 260}px`; // a property, not a style attribute: the CSP allows no inline styles
  line.forEach((d, i) => {
    const col = Math.floor(i / perCol), row = i % perCol;
    const x = col * colW + 4, y = row * rowH + 4;
    const key = keyOf(d);
    const label = (d.box === "kingdomino" ? "K" : "") + d.number;
    const g = s("g", { class: "kd-line-domino" + (i === acting ? " kd-acting" : ""), "data-domino": key });
    g.append(s("text", { x: x + 17, y: y + S * 0.65, "text-anchor": "middle", "font-size": 15, "font-weight": "bold", fill: "currentColor" }, label));
    g.append(drawDominoH(t, d, x + 36, y, S));
    if (d.king != null) g.append(drawKing(x + 36 + S * 2 + 12, y + S / 2, 10, d.king));
    if (i === acting) {
      g.append(s("rect", { x: x + 34, y: y - 2, width: S * 2 + 4, height: S + 4, fill: "none", stroke: "#d00", "stroke-width": 3, "stroke-dasharray": "6 3" }));
      g.append(s("text", { x: x + 36 + S * 2 + 24, y: y + S * 0.65, "font-size": 16, fill: "#d00" }, "◀"));
    }
    let desc = dominoLabel(t, d, label);
    if (d.king != null) desc += ", " + t("king_label", { name: nameOf(ctx, d.king), seat: d.king + 1 });
    if (i === acting) desc += ", " + t("acting_mark");
    if (which === "next") {
      const ai = legalIndex(legal, (a) => a.type === "claim" && a.domino === key);
      if (ai >= 0) {
        g.setAttribute("data-action-index", ai);
        g.setAttribute("data-testid", `claim-${key}`);
        g.classList.add("kd-claimable");
        g.prepend(s("rect", { x: x + 32, y: y - 3, width: S * 2 + 8, height: S + 6, rx: 5, class: "kd-hi", fill: "#fff59d", stroke: "#c77700", "stroke-width": 2 }));
        activatable(g, t("claim_label", { n: label }) + " — " + desc, () => ctx.act(legal[ai]));
        svg.append(g);
        return;
      }
    }
    g.append(s("title", {}, desc));
    svg.append(g);
  });
  liftControlText(svg);
  return h("section", { class: "kd-line kd-line-" + which + (cols > 1 ? " kd-line-wide" : "") }, h("h4", {}, title), svg);
}

// ---- kingdoms ---------------------------------------------------------------------------

/**
 * Draw one kingdom as an SVG.
 * opts: { frame, size (px per square in the viewBox), testid, placement (from placementModel),
 *         targets: Map "x,y" -> {index, label}, overlay(svg, cellXY, S) for extra marks }
 */
export function drawKingdom(ctx, kingdom, opts) {
  const { t } = ctx;
  const S = 40;
  const reg = region(kingdom, opts.frame);
  const W = (reg.x1 - reg.x0 + 1) * S, H = (reg.y1 - reg.y0 + 1) * S;
  const px = (x) => (x - reg.x0) * S;
  const py = (y) => (y - reg.y0) * S;
  const svg = s("svg", { viewBox: `-2 -2 ${W + 4} ${H + 4}`, class: "kd-kingdom-svg", "data-testid": opts.testid || null,
    role: "group", "aria-label": opts.label || "" });
  const map = squareMap(kingdom);
  const pl = opts.placement;
  const targets = opts.targets || new Map();
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#f4f1ea", stroke: "#bbb" }));
  for (let y = reg.y0; y <= reg.y1; y++) {
    for (let x = reg.x0; x <= reg.x1; x++) {
      const k = x + "," + y;
      const q = map.get(k);
      const isCastle = x === kingdom.castle[0] && y === kingdom.castle[1];
      let g;
      if (isCastle) g = drawCastle(t, px(x), py(y), S);
      else if (q) g = drawSquare(t, px(x), py(y), S, q.terrain, q.crowns);
      else g = s("g", { class: "kd-empty" }, s("rect", { x: px(x) + 1, y: py(y) + 1, width: S - 2, height: S - 2, fill: "#fff", stroke: "#d6d0c4", "stroke-dasharray": "3 2" }));
      g.setAttribute("data-testid", `cell-${x}-${y}`);
      g.setAttribute("data-x", x);
      g.setAttribute("data-y", y);
      const what = isCastle ? t("castle") : q ? `${t("ter_" + q.terrain)}${q.crowns ? ", " + t("crowns_n", { n: q.crowns }) : ""}` : t("empty");
      const tg = targets.get(k);
      if (tg) {
        g.setAttribute("data-action-index", tg.index);
        g.append(s("rect", { x: px(x) + 3, y: py(y) + 3, width: S - 6, height: S - 6, fill: "none", stroke: "#ff6f00", "stroke-width": 4, rx: 4, class: "kd-hi" }));
        if (tg.mark) g.append(s("text", { x: px(x) + S * 0.8, y: py(y) + S * 0.92, "text-anchor": "middle", "font-size": S * 0.3,
          fill: "#000", stroke: "#fff", "stroke-width": 2.5, "paint-order": "stroke", "pointer-events": "none" }, tg.mark));
        activatable(g, tg.label, () => ctx.act(ctx.legal[tg.index]));
      } else if (pl) {
        const dirs = !q && !isCastle ? pl.byCell.get(k) : null;
        const sel = pl.sel && pl.sel[0] === x && pl.sel[1] === y;
        if (dirs && dirs.has(pl.dir)) {
          g.setAttribute("data-target", "1");
          g.append(s("rect", { x: px(x) + 3, y: py(y) + 3, width: S - 6, height: S - 6, fill: "#fff59d", stroke: "#c77700", "stroke-width": 2, rx: 4, class: "kd-hi" }));
        }
        if (dirs) {
          activatable(g, t("cell_target", { x, y }), () => pl.select(x, y));
          g.addEventListener("mouseenter", () => pl.hover(x, y));
          g.addEventListener("focus", () => pl.hover(x, y));
          g.addEventListener("mouseleave", () => pl.hover(null));
          if (sel) g.setAttribute("aria-pressed", "true");
        } else {
          g.addEventListener("click", () => pl.refuse());
          g.append(s("title", {}, t("cell_label", { x, y, what })));
        }
      } else {
        g.append(s("title", {}, t("cell_label", { x, y, what })));
      }
      svg.append(g);
    }
  }
  if (opts.overlay) opts.overlay(svg, (x, y) => [px(x), py(y)], S);
  if (pl) {
    const layer = s("g", { class: "kd-preview", "pointer-events": "none" });
    svg.append(layer);
    pl.layer = layer;
    pl.px = px; pl.py = py; pl.S = S;
    pl.paint();
  }
  return liftControlText(svg);
}

/** Ghost of the acting domino with its first half on (x, y) towards dir. */
function drawGhost(ctx, layer, pl, x, y, dir, strong) {
  const { t } = ctx;
  const S = pl.S;
  const [dx, dy] = DELTA[dir];
  const d = pl.domino;
  const g = s("g", { opacity: strong ? 0.92 : 0.6 });
  g.append(drawSquare(t, pl.px(x), pl.py(y), S, d.terrains[0], d.crowns[0]));
  g.append(drawSquare(t, pl.px(x + dx), pl.py(y + dy), S, d.terrains[1], d.crowns[1]));
  const x0 = Math.min(x, x + dx), y0 = Math.min(y, y + dy);
  g.append(s("rect", { x: pl.px(x0), y: pl.py(y0), width: S * (dx ? 2 : 1), height: S * (dy ? 2 : 1),
    fill: "none", stroke: strong ? "#d00" : "#333", "stroke-width": 3, "stroke-dasharray": strong ? "" : "5 3", rx: 3 }));
  g.append(s("circle", { cx: pl.px(x) + S * 0.82, cy: pl.py(y) + S * 0.8, r: S * 0.14, fill: "#fff", stroke: "#000" }));
  g.append(s("text", { x: pl.px(x) + S * 0.82, y: pl.py(y) + S * 0.87, "text-anchor": "middle", "font-size": S * 0.2, "font-weight": "bold" }, "1"));
  layer.append(g);
}

/**
 * The placement model for the acting player's domino: legal place actions grouped by cell.
 * Returns null when legal holds no place/discard action.
 */
export function placementModel(root, ctx, domino, label) {
  const { legal, t } = ctx;
  const places = [];
  legal.forEach((a, i) => { if (a.type === "place") places.push({ x: a.x, y: a.y, dir: a.dir, i }); });
  const discard = legalIndex(legal, (a) => a.type === "discard");
  if (!places.length && discard < 0) return null;
  const st = uiState(root);
  const key = `${ctx.view.ply}:${label}`;
  if (st.key !== key) { st.key = key; st.sel = null; st.dir = null; st.hover = null; st.buildSpace = null; }
  const byCell = new Map();
  for (const p of places) {
    const k = p.x + "," + p.y;
    if (!byCell.has(k)) byCell.set(k, new Map());
    byCell.get(k).set(p.dir, p.i);
  }
  const dirsAny = DIRS.filter((d) => places.some((p) => p.dir === d));
  if (!st.dir || !dirsAny.includes(st.dir)) st.dir = dirsAny[0] || "E";
  if (st.sel && !byCell.has(st.sel[0] + "," + st.sel[1])) st.sel = null;
  if (st.sel && !byCell.get(st.sel[0] + "," + st.sel[1]).has(st.dir)) {
    st.dir = DIRS.find((d) => byCell.get(st.sel[0] + "," + st.sel[1]).has(d));
  }
  const pl = {
    domino, label, places, discard, byCell,
    get dir() { return st.dir; },
    get sel() { return st.sel; },
    chosenIndex() {
      if (!st.sel) return -1;
      const m = byCell.get(st.sel[0] + "," + st.sel[1]);
      return m && m.has(st.dir) ? m.get(st.dir) : -1;
    },
    select(x, y) {
      const m = byCell.get(x + "," + y);
      if (!m) { pl.refuse(); return; }
      st.sel = [x, y];
      if (!m.has(st.dir)) st.dir = DIRS.find((d) => m.has(d));
      st.redraw();
    },
    rotate() {
      let cycle = dirsAny;
      if (st.sel) cycle = DIRS.filter((d) => byCell.get(st.sel[0] + "," + st.sel[1]).has(d));
      if (!cycle.length) return;
      if (st.sel && cycle.length === 1) ctx.notify && ctx.notify(t("only_way"));
      const i = cycle.indexOf(st.dir);
      st.dir = cycle[(i + 1) % cycle.length];
      st.redraw();
    },
    refuse() { ctx.notify && ctx.notify(t("no_spot")); },
    hover(x, y) {
      st.hover = x == null ? null : [x, y];
      pl.paint();
    },
    paint() {
      if (!pl.layer) return;
      pl.layer.replaceChildren();
      if (st.sel) drawGhost(ctx, pl.layer, pl, st.sel[0], st.sel[1], st.dir, true);
      const hv = st.hover;
      if (hv && !st.sel) {
        const m = byCell.get(hv[0] + "," + hv[1]);
        if (m) drawGhost(ctx, pl.layer, pl, hv[0], hv[1], m.has(st.dir) ? st.dir : DIRS.find((d) => m.has(d)), false);
      }
    },
  };
  st.rotate = places.length ? () => pl.rotate() : null;
  return pl;
}

/** Controls under the kingdom: hint, rotate, confirm; or the discard explanation. */
export function placementControls(ctx, pl) {
  const { t, legal } = ctx;
  const box = h("div", { class: "kd-controls", "data-testid": "placement" });
  if (!pl.places.length) {
    box.append(h("p", { class: "kd-discard-note", role: "status" }, t("discard_explain")));
    box.append(h("button", { type: "button", class: "kd-btn kd-danger", "data-testid": "discard", "data-action-index": pl.discard,
      onclick: () => ctx.act(legal[pl.discard]) }, t("discard_btn", { n: pl.label })));
    return box;
  }
  const dSvg = s("svg", { viewBox: "0 0 84 44", class: "kd-hand", "aria-hidden": "true" });
  dSvg.append(drawDominoH(t, pl.domino, 2, 2, 40));
  dSvg.append(s("circle", { cx: 35, cy: 34, r: 6, fill: "#fff", stroke: "#000" }));
  dSvg.append(s("text", { x: 35, y: 37.5, "text-anchor": "middle", "font-size": 9, "font-weight": "bold" }, "1"));
  const idx = pl.chosenIndex();
  const msg = pl.sel
    ? t("place_selected", { n: pl.label, x: pl.sel[0], y: pl.sel[1], dir: t("dir_" + pl.dir) })
    : t("place_hint", { n: pl.label });
  box.append(h("div", { class: "kd-hand-row" }, dSvg, h("p", { class: "kd-hint", role: "status" }, msg)));
  const row = h("div", { class: "kd-btn-row" });
  row.append(h("button", { type: "button", class: "kd-btn", "data-testid": "rotate", "data-dir": pl.dir, onclick: () => pl.rotate() },
    t("rotate"), " ", h("span", { class: "kd-dir", "aria-hidden": "true" }, { E: "→", S: "↓", W: "←", N: "↑" }[pl.dir])));
  const c = h("button", { type: "button", class: "kd-btn kd-primary", "data-testid": "confirm",
    "data-action-index": idx >= 0 ? idx : null, "data-dir": pl.dir,
    "data-x": pl.sel ? pl.sel[0] : null, "data-y": pl.sel ? pl.sel[1] : null,
    disabled: idx < 0,
    onclick: () => { if (idx >= 0) ctx.act(legal[idx]); else ctx.notify && ctx.notify(t("pick_first")); } }, t("confirm"));
  row.append(c);
  box.append(row);
  return box;
}

// ---- score breakdown --------------------------------------------------------------------

/** A score badge that shows its breakdown on hover, focus or tap. lines: strings. */
export function scoreBadge(ctx, seatName, score, lines, testid) {
  const { t } = ctx;
  const points = score === 1 ? "score_one" : "score";
  const wrap = h("span", { class: "kd-score" });
  const btn = h("button", { type: "button", class: "kd-score-btn", "data-testid": testid, "aria-expanded": "false",
    "aria-label": `${t(points, { score })} · ${t("score_title", { name: seatName, score })}` }, "★ ", t(points, { score }));
  const pop = h("div", { class: "kd-score-pop", role: "tooltip" }, h("ul", {}, lines.map((l) => h("li", {}, l))));
  btn.addEventListener("click", () => {
    const open = !wrap.classList.contains("kd-open");
    wrap.classList.toggle("kd-open", open);
    btn.setAttribute("aria-expanded", String(open));
  });
  wrap.append(btn, pop);
  return wrap;
}

/** Score lines for one kingdom, as the engine sent them: every part with its points, then the
 * tie-break values (the view's `parts` and `tiebreak`; nothing is counted here). */
export function partLines(ctx, kingdom) {
  const lines = (kingdom.parts || []).map((p) => `${partText(p, ctx.names)}: ${p.points}`);
  for (const r of kingdom.tiebreak || []) lines.push(partText(r, ctx.names));
  return lines;
}

// ---- tile list --------------------------------------------------------------------------

/**
 * Every domino of the set with its state (placed, discarded, in a line, unseen), and what the
 * unseen ones hold. `ids`: the ids that can be in this game at all; `deckCount`: undrawn count.
 */
export function tileList(ctx, ids, labelOf) {
  const { view, t } = ctx;
  const placed = new Set();
  for (const k of view.kingdoms) for (const p of k.placements) placed.add(p.domino);
  const discarded = new Set(view.discarded);
  const inLine = new Set([...view.current_line, ...view.next_line].map(keyOf));
  const stateOf = (id) => (placed.has(id) ? "placed" : discarded.has(id) ? "discarded" : inLine.has(id) ? "line" : "unseen");
  const mark = { placed: "✓", discarded: "✗", line: "◆", unseen: "?" };
  const counts = { placed: 0, discarded: 0, line: 0, unseen: 0 };
  const terr = {}; let crowns = 0;
  const grid = h("ul", { class: "kd-tiles", "data-testid": "tile-list" });
  for (const id of ids) {
    const st = stateOf(id);
    counts[st]++;
    const [t1, c1, t2, c2] = tileOf(view.game, id);
    if (st === "unseen") {
      terr[t1] = (terr[t1] || 0) + 1; terr[t2] = (terr[t2] || 0) + 1; crowns += c1 + c2;
    }
    const d = { terrains: [t1, t2], crowns: [c1, c2] };
    const svg = s("svg", { viewBox: "0 0 84 44", "aria-hidden": "true" });
    svg.append(drawDominoH(t, d, 2, 2, 40));
    const label = labelOf(id);
    grid.append(h("li", { class: "kd-tile kd-st-" + st, "data-testid": `tile-${id}`, "data-state": st,
      title: `${dominoLabel(t, d, label)} — ${t("st_" + st)}` },
      h("span", { class: "kd-tile-num" }, label), svg, h("span", { class: "kd-tile-st" }, mark[st], " ", t("st_" + st))));
  }
  const unseen = counts.unseen;
  const summary = h("div", { class: "kd-tile-summary" });
  summary.append(h("p", {}, ["placed", "line", "discarded", "unseen"].map((k) => `${mark[k]} ${t("st_" + k)}: ${counts[k]}`).join(" · ")));
  summary.append(h("p", {}, unseen === view.deck_remaining ? t("unseen_all", { n: unseen }) : t("unseen_some", { n: unseen, deck: view.deck_remaining })));
  if (unseen) {
    const ul = h("ul", { class: "kd-tocome" });
    for (const ter of TERRAINS) if (terr[ter]) {
      const sw = s("svg", { viewBox: "0 0 20 20", class: "kd-swatch", "aria-hidden": "true" });
      sw.append(drawSquare(t, 0, 0, 20, ter, 0));
      ul.append(h("li", {}, sw, ` ${t("ter_" + ter)}: ${terr[ter]}`));
    }
    ul.append(h("li", {}, "♔ " + t("crowns_n", { n: crowns })));
    summary.append(h("p", {}, t("to_come")), ul);
  }
  return h("details", { class: "kd-tile-panel", "data-testid": "tile-panel" },
    h("summary", {}, `${t("tiles_title")} (${t("deck_left", { n: view.deck_remaining })})`), summary, grid);
}

// ---- status -----------------------------------------------------------------------------

export function statusLine(ctx, actingLabel) {
  const { view, t, legal } = ctx;
  const bits = [];
  if (view.games > 1) bits.push(t("game_n", { n: view.game_number, games: view.games }));
  if (view.phase === "draft") bits.push(t("draft_phase"));
  else if (view.phase === "play") bits.push(t("round", { round: view.round, rounds: view.rounds }));
  let turn;
  if (view.phase === "over") turn = t("over");
  else if (legal.length && view.to_act.includes(ctx.you)) {
    if (view.phase === "draft") turn = t("your_turn_draft");
    else if (view.step === "place") turn = t("your_turn_place", { n: actingLabel });
    else if (view.step === "claim") turn = t("your_turn_claim");
    else turn = t("your_turn_steps");
  } else {
    turn = t("waiting_for", { names: view.to_act.map((sx) => nameOf(ctx, sx)).join(", ") });
  }
  const el = h("div", { class: "kd-status", role: "status", "data-testid": "status" });
  el.append(h("span", { class: "kd-round" }, bits.join(" · ")));
  if (turn) el.append(h("strong", { class: "kd-turn" }, turn));
  if (ctx.you == null) el.append(h("span", { class: "kd-note" }, t("spectating")));
  return el;
}

// ---- the whole table --------------------------------------------------------------------

/**
 * Render a Kingdomino-family game. spec: {
 *   cls: "game-kingdomino", sideOf(seat) -> kingdom index, seatsOf(kingdom index) -> seats,
 *   dominoLabel(key) -> printed label, actingDomino() -> line entry or null,
 *   scoreLines(kingdom, index) -> strings, kingdomInfo(kingdom, index) -> element|null,
 *   overlay(kingdom, index) -> fn(svg, pos, S)|null, targets(kingdom, index) -> Map|null,
 *   placementAllowed() -> bool, panels() -> elements (after the lines), tileIds -> ids }
 */
export function renderDominoGame(root, ctx, spec) {
  const st = uiState(root);
  st.ctx = ctx;
  installKeys(root);
  st.redraw = () => rebuild(root, () => build(root, st.ctx, spec));
  st.redraw();
}

function build(root, ctx, spec) {
  const { view, t } = ctx;
  const st = uiState(root);
  st.rotate = null;
  const top = h("div", { class: spec.cls + " kd-root", lang: ctx.lang });
  const acting = spec.actingDomino();
  const actingLabel = acting ? spec.dominoLabel(keyOf(acting)) : "";
  top.append(statusLine(ctx, actingLabel));
  const mine = ctx.you != null ? spec.sideOf(ctx.you) : view.to_act.length ? spec.sideOf(view.to_act[0]) : 0;
  let pl = null;
  if (acting && ctx.you != null && spec.placementAllowed()) {
    pl = placementModel(root, ctx, acting, actingLabel);
  } else {
    st.key = null;
  }
  const main = h("div", { class: "kd-main" });
  const left = h("section", { class: "kd-mine" });
  left.append(kingdomBlock(ctx, spec, view.kingdoms[mine], mine, true, pl));
  if (pl) left.append(placementControls(ctx, pl));
  for (const el of spec.underMine ? spec.underMine() : []) left.append(el);
  const right = h("section", { class: "kd-side" });
  right.append(drawLines(ctx));
  for (const el of spec.panels ? spec.panels() : []) right.append(el);
  main.append(left, right);
  top.append(main);
  const others = h("div", { class: "kd-others" });
  view.kingdoms.forEach((k, i) => { if (i !== mine) others.append(kingdomBlock(ctx, spec, k, i, false, null)); });
  top.append(others);
  top.append(tileList(ctx, spec.tileIds, spec.dominoLabel));
  return top;
}

function kingdomBlock(ctx, spec, kingdom, index, large, pl) {
  const { t, view } = ctx;
  const seats = spec.seatsOf(index);
  const names = seats.map((sx) => nameOf(ctx, sx)).join(" + ");
  const isYou = ctx.you != null && seats.includes(ctx.you);
  const title = isYou ? t("your_kingdom", { name: names }) : t("kingdom_of", { name: names });
  const turn = seats.some((sx) => view.to_act.includes(sx));
  const box = h("div", { class: "kd-kingdom" + (large ? " kd-large" : " kd-small") + (turn ? " kd-turn-now" : ""),
    "data-testid": `kingdom-${index}` });
  const head = h("div", { class: "kd-khead" });
  for (const sx of seats) {
    const sw = s("svg", { viewBox: "0 0 24 24", class: "kd-seat-dot", "aria-hidden": "true" });
    sw.append(drawKing(12, 12, 10, sx));
    head.append(sw);
  }
  head.append(h("h3", {}, title));
  head.append(scoreBadge(ctx, names, kingdom.score, spec.scoreLines(kingdom, index), `score-${index}`));
  box.append(head);
  const info = spec.kingdomInfo ? spec.kingdomInfo(kingdom, index) : null;
  if (info) box.append(info);
  box.append(drawKingdom(ctx, kingdom, {
    frame: view.frame,
    testid: large ? "my-kingdom" : null,
    label: title,
    placement: pl,
    targets: large && ctx.you != null ? spec.targets && spec.targets(kingdom, index) : null,
    overlay: spec.overlay ? spec.overlay(kingdom, index) : null,
  }));
  return box;
}
