// One Buttons board, drawn in our own SVG: 6 x 6 fabric patches (a colour each, and a shape per
// colour in the patch's corner so colour-blind players tell them apart), row numbers on the left
// (the white die), column numbers on top (the black dice), an empty buttonhole or a sewn button
// (a marker) on each patch, stars, this seat's pending answer, and the legal patches as targets
// carrying data-action-index. Every patch carries data-key/data-sig (RENDERERS.md, last-move
// marks): a button just sewn or turned into a star is marked.
import { svg } from "/static/dom.js";
import { svgGrid, target } from "/static/kit.js";

export const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
export const FILL = { red: "#d64541", yellow: "#f2c230", green: "#3f9b4b", blue: "#3a6fc4" };
// A shape per colour (the legend's too); text form for sentences.
export const SHAPE = { red: "▲", yellow: "●", green: "■", blue: "◆" };
const S = 10;

/** The shape of `colour` as an SVG path of size `r` around (cx, cy). */
export function shapePath(colour, cx, cy, r) {
  if (colour === "red") return `M${cx} ${cy - r}L${cx + r} ${cy + r * 0.8}H${cx - r}Z`;
  if (colour === "green") return `M${cx - r * 0.85} ${cy - r * 0.85}h${r * 1.7}v${r * 1.7}h${-r * 1.7}Z`;
  if (colour === "blue") return `M${cx} ${cy - r}L${cx + r} ${cy}L${cx} ${cy + r}L${cx - r} ${cy}Z`;
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

/** A small SVG of a colour's shape on its colour (the legend, bonus cards). */
export function swatch(colour, cls = "bt-swatch") {
  return svg("svg", { class: cls, viewBox: "0 0 10 10", "aria-hidden": "true" },
    svg("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.5, fill: FILL[colour], stroke: "#222", "stroke-width": 0.6 }),
    svg("path", { d: shapePath(colour, 5, 5, 3), class: "bt-shape-mark" }));
}

/** A sewn button at (cx, cy): a rim and four holes. */
export function button(cx, cy, r, cls = "bt-button") {
  const d = r * 0.3;
  return svg("g", { class: cls },
    svg("circle", { cx, cy, r, class: "bt-button-face" }),
    svg("circle", { cx, cy, r: r * 0.72, class: "bt-button-rim" }),
    ...[[-1, -1], [1, -1], [-1, 1], [1, 1]].map(([x, y]) => svg("circle", { cx: cx + x * d, cy: cy + y * d, r: r * 0.14, class: "bt-hole" })));
}

/** A five-pointed star around (cx, cy). */
export function star(cx, cy, r, cls) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const k = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + k * Math.cos(a)).toFixed(2)},${(cy + k * Math.sin(a)).toFixed(2)}`);
  }
  return svg("polygon", { points: pts.join(" "), class: cls });
}

export const key = (r, c) => `${r},${c}`;
const keys = (cells) => new Set((cells || []).map(([r, c]) => key(r, c)));

/** Row and column numbers, the ones the dice point at highlighted (a filled tab, not colour only). */
function labels(rowHi, colHi) {
  const out = [];
  for (let i = 1; i <= 6; i++) {
    const colOn = colHi.has(i);
    const rowOn = rowHi === i;
    out.push(
      svg("rect", { x: i * S + 0.5, y: 0.5, width: S - 1, height: S - 1, rx: 1.5, class: colOn ? "bt-tab bt-tab-col" : "bt-tab-off" }),
      svg("text", { x: i * S + S / 2, y: S * 0.7, "text-anchor": "middle", class: `bt-lab ${colOn ? "bt-lab-on" : ""}`, text: String(i), "aria-hidden": "true" }),
      svg("rect", { x: 0.5, y: i * S + 0.5, width: S - 1, height: S - 1, rx: 1.5, class: rowOn ? "bt-tab bt-tab-row" : "bt-tab-off" }),
      svg("text", { x: S / 2, y: i * S + S * 0.7, "text-anchor": "middle", class: `bt-lab ${rowOn ? "bt-lab-on" : ""}`, text: String(i), "aria-hidden": "true" }),
    );
  }
  return out;
}

/** A legal patch: a ring and a target that sends its action. */
function offer(g, ctx, index, x, y, label) {
  target(g, label, () => ctx.act(ctx.legal[index]), { title: false, stop: false });
  g.setAttribute("data-action-index", index);
  g.append(
    svg("rect", { x: x + 0.9, y: y + 0.9, width: S - 1.8, height: S - 1.8, rx: 1.4, fill: "none", stroke: "#000", "stroke-width": 1.1, class: "bt-ring" }),
    svg("rect", { x: x + 0.9, y: y + 0.9, width: S - 1.8, height: S - 1.8, rx: 1.4, fill: "none", stroke: "#fff", "stroke-width": 0.5, "stroke-dasharray": "1.2 1.2", class: "bt-ring" }),
    svg("title", { text: label }),
  );
}

/** The board of `seat`. mine: the viewer's own (its picks and pending answer show);
 * actions: "r,c" -> legal index; rowHi / colHi: the rows and columns the dice point at. */
export function board(ctx, seat, { mine, actions, rowHi, colHi }) {
  const v = ctx.view;
  const t = ctx.t;
  const p = v.seats[seat];
  const markers = keys(p.markers);
  const stars = keys(p.stars);
  const picks = keys(mine && v.you ? v.you.picks : []);
  const pending = mine && v.you && v.you.pending ? key(v.you.pending[0], v.you.pending[1]) : null;
  const last = p.last_placed ? key(p.last_placed[0], p.last_placed[1]) : null;
  const name = mine ? t("your_board") : t("board_of", { name: ctx.names[seat] });
  return svgGrid({
    cols: 6, rows: 6, size: S, origin: [1, 1], offset: [S, S], viewBox: `0 0 ${7 * S} ${7 * S}`,
    attrs: { class: "bt-board-svg", role: "group", "aria-label": name },
    under: labels(rowHi, colHi),
    cell: (c, r, x, y) => {
      const colour = COLOURS[p.board[r - 1][c - 1]];
      const k = key(r, c);
      const act = actions.get(k);
      const cx = x + S / 2, cy = y + S / 2 + 0.4;
      const has = markers.has(k), isStar = stars.has(k), picked = picks.has(k);
      const sig = `${has ? "m" : ""}${isStar ? "s" : ""}${picked ? "p" : ""}${pending === k ? "?" : ""}`;
      const g = svg("g", { class: `bt-cell bt-c-${colour} ${act !== undefined ? "bt-legal" : ""}`, "data-key": `cell:${seat}:${k}`, "data-sig": sig,
        "data-row": r, "data-col": c },
        svg("rect", { x: x + 0.4, y: y + 0.4, width: S - 0.8, height: S - 0.8, rx: 1.6, fill: FILL[colour], class: "bt-patch" }),
        svg("rect", { x: x + 1.1, y: y + 1.1, width: S - 2.2, height: S - 2.2, rx: 1, class: "bt-stitch" }),
        svg("path", { d: shapePath(colour, x + 2.4, y + 2.4, 1.25), class: "bt-shape-mark" }));
      if (has) g.append(button(cx, cy, S * 0.33, last === k ? "bt-button bt-last" : "bt-button"));
      else g.append(svg("ellipse", { cx, cy, rx: 1.5, ry: 0.55, class: "bt-buttonhole" }));
      if (isStar || picked) g.append(star(cx, cy, S * 0.36, picked ? "bt-star bt-pick" : "bt-star"));
      if (pending === k) {
        g.append(svg("circle", { cx, cy, r: S * 0.36, fill: "none", stroke: "#111", "stroke-width": 0.9, "stroke-dasharray": "1.5 1" }));
      }
      const words = { row: r, col: c, colour: t("colour." + colour) };
      if (act !== undefined) {
        offer(g, ctx, act, x, y, t(ctx.legal[act].type === "star" ? "cell.star_pick" : "cell.place", words));
      } else {
        const parts = [t("cell", words)];
        if (has) parts.push(t("cell.marker"));
        if (isStar) parts.push(t("cell.star"));
        if (pending === k) parts.push(t("cell.pending"));
        g.setAttribute("aria-label", parts.join(", "));
        g.setAttribute("role", "img");
      }
      return g;
    },
  });
}
