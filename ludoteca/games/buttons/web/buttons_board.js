// One Buttons board: 6 x 6 coloured cells (a shape per colour for colour-blind players), row
// numbers on the left (the white die), column numbers on top (the black dice), markers, stars,
// this seat's pending answer, and the legal cells as targets carrying data-action-index.
import { svg } from "/static/dom.js";
import { svgGrid, target } from "/static/kit.js";

export const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
export const FILL = { red: "#d64541", yellow: "#f2c230", green: "#3f9b4b", blue: "#3a6fc4" };
// A shape per colour, so colour-blind players (and greyscale screens) can tell them apart.
export const SHAPE = { red: "▲", yellow: "●", green: "■", blue: "◆" };
const S = 10;

export const key = (r, c) => `${r},${c}`;
const keys = (cells) => new Set((cells || []).map(([r, c]) => key(r, c)));

/** Row and column numbers, the ones the dice point at highlighted. */
function labels(rowHi, colHi) {
  const out = [];
  for (let i = 1; i <= 6; i++) {
    const colOn = colHi.has(i);
    const rowOn = rowHi === i;
    out.push(
      svg("rect", { x: i * S, y: 0, width: S, height: S, fill: colOn ? "#222" : "none", rx: 1.5 }),
      svg("text", { x: i * S + S / 2, y: S * 0.7, "text-anchor": "middle", class: "bt-lab", fill: colOn ? "#fff" : "#333", text: String(i), "aria-hidden": "true" }),
      svg("rect", { x: 0, y: i * S, width: S, height: S, fill: rowOn ? "#fff" : "none", stroke: rowOn ? "#222" : "none", "stroke-width": 0.6, rx: 1.5 }),
      svg("text", { x: S / 2, y: i * S + S * 0.7, "text-anchor": "middle", class: "bt-lab", fill: "#333", text: String(i), "aria-hidden": "true" }),
    );
  }
  return out;
}

/** A legal cell: a ring and a target that sends its action. */
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
      const g = svg("g", { class: `bt-cell ${act !== undefined ? "bt-legal" : ""}` },
        svg("rect", { x: x + 0.4, y: y + 0.4, width: S - 0.8, height: S - 0.8, rx: 1.6, fill: FILL[colour], stroke: "#fff", "stroke-width": 0.4 }));
      if (markers.has(k)) {
        g.append(svg("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.38, fill: "rgba(255,255,255,.4)", stroke: "#111", "stroke-width": last === k ? 1.3 : 0.8 }));
      }
      g.append(svg("text", { x: x + S / 2, y: y + S * 0.68, "text-anchor": "middle", class: "bt-shape", text: SHAPE[colour], "aria-hidden": "true" }));
      if (stars.has(k) || picks.has(k)) {
        g.append(svg("text", { x: x + S / 2, y: y + S * 0.78, "text-anchor": "middle", class: `bt-star ${picks.has(k) ? "bt-pick" : ""}`, text: "★", "aria-hidden": "true" }));
      }
      if (pending === k) {
        g.append(svg("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.36, fill: "none", stroke: "#111", "stroke-width": 0.9, "stroke-dasharray": "1.5 1" }));
      }
      const words = { row: r, col: c, colour: t("colour." + colour) };
      if (act !== undefined) {
        offer(g, ctx, act, x, y, t(ctx.legal[act].type === "star" ? "cell.star_pick" : "cell.place", words));
      } else {
        const parts = [t("cell", words)];
        if (markers.has(k)) parts.push(t("cell.marker"));
        if (stars.has(k)) parts.push(t("cell.star"));
        if (pending === k) parts.push(t("cell.pending"));
        g.setAttribute("aria-label", parts.join(", "));
        g.setAttribute("role", "img");
      }
      return g;
    },
  });
}
