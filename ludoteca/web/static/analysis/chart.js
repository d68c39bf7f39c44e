// The advantage chart: each seat's win chance (0-100) after every move, one line per seat, the
// judged moves (inaccuracies, mistakes, blunders) as marks on the mover's line, each mark a
// different shape and colour, labelled, and a button: a click or Enter jumps the replay to the
// move (to the position it was chosen in). Drawn as our own SVG from the analysis alone.
import { svg } from "../dom.js";
import { judgement, points } from "./words.js";

export const MARKS = {
  inaccuracy: { colour: "#b26a00", shape: "circle", sign: "?!" },
  mistake: { colour: "#d84315", shape: "square", sign: "?" },
  blunder: { colour: "#b71c1c", shape: "triangle", sign: "??" },
};
export const SEAT_COLOURS = ["#1565c0", "#2e7d32", "#6a1b9a", "#00838f"];
const DASHES = [null, "6 3", "2 3", "8 3 2 3"]; // each seat's line differs in more than colour

const W = 640, H = 220, L = 34, R = 10, T = 10, B = 24;

/** The points of each seat's line: [ply after which, win chance], from 0 (before the first
 * move: the first move's value before it) to the last move. */
export function series(analysis) {
  const moves = analysis.moves;
  const out = [];
  for (let s = 0; s < analysis.players; s += 1) {
    const line = moves.length ? [[0, moves[0].before.win[s]]] : [];
    for (const m of moves) line.push([m.ply + 1, m.after.win[s]]);
    out.push(line);
  }
  return out;
}

/** The judged moves the chart marks, in order. */
export const marked = (analysis) => analysis.moves.filter((m) => MARKS[m.judgement]);

/** The chart. opts: {t, names, at (the replay's position, drawn as a line), pick(ply), hints
 * (the replay's [[ply, seat]]: moves chosen after a hint, marked with a diamond at the top)}. */
export function advantageChart(analysis, { t, names, at = null, pick = () => {}, hints = [] }) {
  const total = Math.max(1, analysis.moves.length);
  const x = (n) => L + (n / total) * (W - L - R);
  const y = (win) => T + (1 - win / 100) * (H - T - B);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "advantage-chart", role: "group",
    "aria-label": t("analysis.chart_label"), "data-testid": "advantage-chart" });
  root.append(svg("title", {}, t("analysis.chart_label")));
  for (const win of [0, 50, 100]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(win), y2: y(win), stroke: "#ccc", "stroke-dasharray": win === 50 ? "4 3" : null }),
      svg("text", { x: L - 4, y: y(win) + 4, "text-anchor": "end", "font-size": 11, fill: "#555" }, `${win}%`));
  }
  root.append(svg("text", { x: W - R, y: H - 6, "text-anchor": "end", "font-size": 11, fill: "#555" }, t("analysis.axis_moves")));
  if (at !== null) {
    root.append(svg("line", { x1: x(at), x2: x(at), y1: T, y2: H - B, stroke: "#333", "stroke-width": 1.5, "data-testid": "chart-at" }));
  }
  series(analysis).forEach((line, s) => {
    root.append(svg("polyline", { points: line.map(([n, w]) => `${x(n).toFixed(1)},${y(w).toFixed(1)}`).join(" "),
      fill: "none", stroke: SEAT_COLOURS[s % 4], "stroke-width": 2, "stroke-dasharray": DASHES[s % 4], "data-seat": s }));
  });
  for (const [ply, seat] of hints) {
    const cx = x(ply + 1), cy = T + 4;
    const label = t("analysis.hint_mark", { n: ply + 1, name: names[seat] ?? seat + 1 });
    root.append(svg("g", { class: "chart-hint", "data-testid": `chart-hint-${ply}`, role: "img", "aria-label": label },
      svg("title", {}, label),
      svg("polygon", { points: `${cx},${cy - 5} ${cx + 5},${cy} ${cx},${cy + 5} ${cx - 5},${cy}`, fill: "#fbc02d", stroke: "#333" })));
  }
  for (const m of marked(analysis)) {
    const label = t("analysis.point_label", { n: m.ply + 1, name: names[m.seat] ?? m.seat + 1,
      judgement: judgement(m.judgement, t), loss: points(-m.loss.win) });
    const g = svg("g", { class: `chart-point chart-${m.judgement}`, tabindex: 0, role: "button", "aria-label": label,
      "data-testid": `chart-point-${m.ply}`, "data-ply": m.ply, "data-judgement": m.judgement,
      onclick: () => pick(m.ply),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); pick(m.ply); } } },
    svg("title", {}, label), mark(m.judgement, x(m.ply + 1), y(m.after.win[m.seat])));
    root.append(g);
  }
  return root;
}

/** A judgement's mark at (cx, cy): its shape in its colour (also used in the legend). */
export function mark(kind, cx, cy, r = 6) {
  const { colour, shape } = MARKS[kind];
  const paint = { fill: colour, stroke: "#fff", "stroke-width": 1.5 };
  if (shape === "circle") return svg("circle", { cx, cy, r, ...paint });
  if (shape === "square") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, ...paint });
  return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}`, ...paint });
}

/** The legend: each seat's line and each judgement's mark, with words. */
export function legend(analysis, { t, names, hints = [] }) {
  const items = [];
  for (let s = 0; s < analysis.players; s += 1) {
    items.push([svg("svg", { viewBox: "0 0 28 10", width: 28, height: 10, "aria-hidden": "true" },
      svg("line", { x1: 0, x2: 28, y1: 5, y2: 5, stroke: SEAT_COLOURS[s % 4], "stroke-width": 2.5, "stroke-dasharray": DASHES[s % 4] })),
    names[s] ?? String(s + 1)]);
  }
  for (const kind of Object.keys(MARKS)) {
    items.push([svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" }, mark(kind, 8, 8, 5)),
      `${judgement(kind, t)} (${MARKS[kind].sign})`]);
  }
  if (hints.length) {
    items.push([svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
      svg("polygon", { points: "8,2 14,8 8,14 2,8", fill: "#fbc02d", stroke: "#333" })), t("analysis.hint_used")]);
  }
  return items;
}
