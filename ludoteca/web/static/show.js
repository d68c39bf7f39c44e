// Draws the analysis's two moves on a renderer's board (ctx.show, RENDERERS.md): the move
// played outlined solid and labelled "played", the best move found dashed and labelled "best".
// A game's *_show.js only says which elements an action stands for (`targets`); this module
// draws around them, on SVG boards and HTML alike, and says the rest as a line of text when
// an action has no place on the board (a pass, a roll). Rule-free: it reads no view.
import { h, svg } from "./dom.js";

export const STYLES = {
  played: { stroke: "#0d47a1", dash: null, width: 4 },
  best: { stroke: "#6a1b9a", dash: "7 4", width: 4 },
};

/** Outline every target of ctx.show's played and best actions; `targets(root, action, ctx)`
 * returns the elements an action stands for ([] when it has none on the board). */
export function markMoves(root, ctx, targets) {
  const show = ctx.show;
  if (!show) return;
  for (const old of root.querySelectorAll("[data-show]")) old.remove();
  for (const el of root.querySelectorAll("[data-show-mark]")) { el.style.outline = ""; el.removeAttribute("data-show-mark"); }
  const words = show.words || { played: "played", best: "best" };
  const same = show.played && show.best && JSON.stringify(show.played) === JSON.stringify(show.best);
  const unplaced = [];
  for (const kind of ["played", "best"]) {
    const action = show[kind];
    if (!action || (kind === "best" && same)) continue;
    const label = same ? `${words.played} = ${words.best}` : words[kind];
    const found = targets(root, action, ctx).filter(Boolean);
    if (!found.length) { unplaced.push(`${label}: ${show.text?.[kind] ?? action.type}`); continue; }
    outline(found, kind, label);
  }
  if (unplaced.length) {
    root.prepend(h("p", { class: "show-note", "data-show": "note", "data-testid": "show-note" }, unplaced.join(" · ")));
  }
}

/** Elements of one action: SVG ones get a rectangle around them all (per SVG), HTML ones an
 * outline and a small label. */
function outline(elements, kind, label) {
  const style = STYLES[kind];
  const bySvg = new Map();
  for (const el of elements) {
    const owner = el instanceof SVGElement ? el.ownerSVGElement || el : null;
    if (!owner) { htmlMark(el, kind, label, style); continue; }
    if (!bySvg.has(owner)) bySvg.set(owner, []);
    bySvg.get(owner).push(box(el));
  }
  for (const [owner, boxes] of bySvg) {
    const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
    const x1 = Math.max(...boxes.map((b) => b.x + b.width)), y1 = Math.max(...boxes.map((b) => b.y + b.height));
    const unit = Math.max(0.5, Math.min(4, (x1 - x0) / 12)); // a line as wide on a small board as on a large one
    const pad = kind === "played" ? unit / 4 : unit;
    owner.append(svg("g", { "data-show": kind, "data-testid": `show-${kind}`, "pointer-events": "none", role: "img", "aria-label": label },
      svg("rect", { x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad, rx: 4, fill: "none",
        stroke: style.stroke, "stroke-width": unit, "stroke-dasharray": style.dash ? `${unit * 1.8} ${unit}` : null }),
      svg("text", { x: x0, y: kind === "played" ? y1 - unit : y0 + unit * 2.8, "font-size": unit * 2.8, "font-weight": "bold", fill: style.stroke,
        stroke: "#fff", "stroke-width": unit * 0.7, "paint-order": "stroke" }, label)));
  }
}

/** An SVG element's box in its SVG's coordinates: getBBox where the browser lays it out, else
 * the first rectangle's attributes. */
function box(el) {
  try {
    const b = el.getBBox?.();
    if (b && (b.width || b.height)) return b;
  } catch { /* not laid out */ }
  const r = el.tagName === "rect" ? el : el.querySelector?.("rect");
  const n = (a) => Number(r?.getAttribute(a) || 0);
  return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
}

function htmlMark(el, kind, label, style) {
  el.style.outline = `${style.width}px ${style.dash ? "dashed" : "solid"} ${style.stroke}`;
  el.style.outlineOffset = kind === "played" ? "1px" : "4px";
  el.setAttribute("data-show-mark", kind);
  el.append(h("span", { class: `show-tag show-${kind}`, "data-show": kind, "data-testid": `show-${kind}` }, label));
}
