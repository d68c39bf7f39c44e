// One kingdom as an SVG grid (the kit's): its squares, castle and empty squares as far as it may
// still grow (the view's reach), the legal targets (a Queendomino knight or building square),
// and while placing a domino the first halves that can take it, with a preview.
import { svg as s } from "/static/dom.js";
import { svgGrid } from "/static/kit/grid.js";
import { activatable, drawCastle, drawSquare, liftControlText } from "./domino_draw.js";

/** "x,y" -> square of a kingdom. */
export function squareMap(kingdom) {
  const m = new Map();
  for (const q of kingdom.squares) m.set(q.x + "," + q.y, q);
  return m;
}


/**
 * Draw one kingdom as an SVG.
 * opts: { testid, label, placement (from placementModel),
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
  const svg = svgGrid({
    cols, rows, size: S, origin: [reg.x0, reg.y0], pad: 2,
    attrs: { class: "kd-kingdom-svg", "data-testid": opts.testid || null, role: "group", "aria-label": opts.label || "" },
    under: [s("rect", { x: 0, y: 0, width: W, height: H, fill: "#f4f1ea", stroke: "#bbb" })],
    cell: (x, y) => {
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
