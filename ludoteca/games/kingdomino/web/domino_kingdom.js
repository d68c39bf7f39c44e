// One kingdom as an SVG grid (the kit's): its squares, castle and empty squares as far as it may
// still grow (the view's reach), the legal targets (a Queendomino knight or building square),
// and placing a domino in it, a compound choice over the legal place actions (the kit's): the
// square of its first half, then its direction, with a preview. The click sequence (tests
// drive it):
//   A legal place action {"type": "place", "x": X, "y": Y, "dir": D} puts the domino's first
//   half (marked "1") on square (X, Y) of your kingdom (castle = 0,0; x right, y down) and its
//   second half one step towards D (E right, S down, W left, N up).
//   1. Click [data-testid="cell-X-Y"] in your kingdom ([data-testid="my-kingdom"]). It is
//      selectable when (X, Y) is the first half of some legal place action in any direction
//      (the direction switches to the first legal one for that square, in the order E, S, W, N).
//      Squares that are the first half of no legal placement send nothing and call notify().
//   2. Click [data-testid="rotate"] (or press R) until [data-testid="confirm"] has
//      data-dir="D". With a square selected, rotation only visits directions legal for that
//      square. The confirm button always carries data-action-index, the index in ctx.legal of
//      exactly the previewed action, and data-x / data-y / data-dir.
//   3. Click [data-testid="confirm"] (or press Enter on it): act(legal[data-action-index]).
//   Without a selection, the highlighted squares (data-target="1") are the first halves legal in
//   the current direction, and hovering one previews the domino there.
//   When the only legal action is {"type": "discard"}, [data-testid="discard"] (with
//   data-action-index) is shown with an explanation instead.
import { h, svg as s } from "/static/dom.js";
import { createChoice, indexOf, svgGrid } from "/static/kit.js";
import { DELTA, DIRS, activatable, drawCastle, drawDominoH, drawSquare, liftControlText } from "./domino_draw.js";

/** "x,y" -> square of a kingdom. */
export function squareMap(kingdom) {
  const m = new Map();
  for (const q of kingdom.squares) m.set(q.x + "," + q.y, q);
  return m;
}


/**
 * Draw one kingdom as an SVG.
 * opts: { index (the kingdom's, for data-key), testid, label, placement (from placementModel),
 *         targets: Map "x,y" -> {index, label}, overlay(svg, cellXY, S) for extra marks }
 */
export function drawKingdom(ctx, kingdom, opts) {
  const { t } = ctx;
  const S = 40;
  const reg = kingdom.reach; // the squares it may still grow into: the view works the frame out
  const cols = reg.x1 - reg.x0 + 1, rows = reg.y1 - reg.y0 + 1;
  const W = cols * S, H = rows * S;
  const px = (x) => (x - reg.x0) * S;
  const py = (y) => (y - reg.y0) * S;
  const map = squareMap(kingdom);
  const pl = opts.placement;
  const targets = opts.targets || new Map();
  // the newest domino of this kingdom: its squares came from its place in the line (data-from;
  // the host slides them from there when they are new, RENDERERS.md)
  const newest = kingdom.placements.length ? kingdom.placements[kingdom.placements.length - 1].domino : null;
  const svg = svgGrid({
    cols, rows, size: S, origin: [reg.x0, reg.y0], pad: 2,
    attrs: { class: "kd-kingdom-svg", "data-testid": opts.testid || null, role: "group", "aria-label": opts.label || "" },
    under: [s("rect", { x: 0, y: 0, width: W, height: H, class: "kd-board-bg" })],
    cell: (x, y) => {
      const k = x + "," + y;
      const q = map.get(k);
      const isCastle = x === kingdom.castle[0] && y === kingdom.castle[1];
      let g;
      if (isCastle) g = drawCastle(t, px(x), py(y), S);
      else if (q) g = drawSquare(t, px(x), py(y), S, q.terrain, q.crowns);
      else g = s("g", { class: "kd-empty" }, s("rect", { x: px(x) + 1, y: py(y) + 1, width: S - 2, height: S - 2, class: "kd-empty-rect", "stroke-dasharray": "3 2" }));
      g.setAttribute("data-testid", `cell-${x}-${y}`);
      if (isCastle || q) { // the last-move marks (RENDERERS.md): a square is new once it is covered
        g.setAttribute("data-key", `cell:${opts.index}:${x},${y}`);
        g.setAttribute("data-sig", isCastle ? "castle" : `${q.terrain}${q.crowns}`);
        if (q && q.domino === newest) g.setAttribute("data-from", `domino:${newest}`);
      }
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
      return g;
    },
  });
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

const STEPS = { cell: (a) => `${a.x},${a.y}`, dir: (a) => a.dir };
const isPlace = (a) => a.type === "place";

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
 * The placement of the acting domino: `st` (the root's UI state) keeps the picks across
 * redraws, until the ply or the domino changes. Returns null when legal holds no place or
 * discard action. drawKingdom reads `byCell`, `dir`, `sel`, and calls select / hover / refuse.
 */
export function placementModel(st, ctx, domino, label) {
  const { legal, t } = ctx;
  const discard = indexOf(legal, (a) => a.type === "discard");
  const all = createChoice(legal, STEPS, { only: isPlace });
  if (!all.pool.length && discard < 0) return null;
  const key = `${ctx.view.ply}:${label}`;
  if (st.key !== key) { st.key = key; st.sel = null; st.dir = null; st.hover = null; st.buildSpace = null; }
  const byCell = new Map(); // "x,y" -> Map dir -> legal index
  for (const [cell, indices] of all.options("cell")) byCell.set(cell, new Map(indices.map((i) => [legal[i].dir, i])));
  const dirsAny = DIRS.filter((d) => all.options("dir").has(d));
  const choice = createChoice(legal, STEPS, { only: isPlace });
  const firstDir = () => DIRS.find((d) => choice.options("dir").has(d));
  // The direction shown before any square is picked, then the square, whose own first legal
  // direction replaces one it cannot take.
  if (!choice.pick("dir", st.dir)) choice.pick("dir", dirsAny[0]);
  if (st.sel && !choice.force("cell", st.sel.join(","))) st.sel = null;
  if (!choice.has("dir") && dirsAny.length) choice.pick("dir", firstDir());
  st.dir = choice.value("dir") || dirsAny[0] || "E";
  const pl = {
    domino, label, places: all.pool, discard, byCell,
    get dir() { return st.dir; },
    get sel() { return st.sel; },
    chosenIndex() { return st.sel ? choice.chosen() : -1; },
    select(x, y) {
      if (!byCell.has(`${x},${y}`)) { pl.refuse(); return; }
      st.sel = [x, y];
      st.redraw();
    },
    rotate() {
      const cycle = st.sel ? DIRS.filter((d) => choice.options("dir").has(d)) : dirsAny;
      if (!cycle.length) return;
      if (st.sel && cycle.length === 1) ctx.notify && ctx.notify(t("only_way"));
      st.dir = cycle[(cycle.indexOf(st.dir) + 1) % cycle.length];
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
  st.rotate = all.pool.length ? () => pl.rotate() : null;
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
