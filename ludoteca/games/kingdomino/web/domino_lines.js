// The current and next lines of dominoes: kings on them, the acting domino marked, and in the
// next line the legal claims as targets (one click each, carrying data-action-index).
import { h, svg as s } from "/static/dom.js";
import { indexOf as legalIndex } from "/static/kit/choice.js";
import { activatable, dominoLabel, drawDominoH, drawKing, keyOf, liftControlText, nameOf } from "./domino_draw.js";


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

