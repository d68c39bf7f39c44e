// Panels beside the boards: the current and next lines (kings on them, the acting domino
// marked, the legal claims in the next line as targets carrying data-action-index), the score
// badge with its parts as the engine sent them, the tile list (every domino of the set and
// where it is), the status line; and the board's tools (the legend, the zoom control).
import { h, svg as s } from "/static/dom.js";
import { indexOf as legalIndex, statusLine as status, zoomControl } from "/static/kit.js";
import { partText } from "/static/parts.js";
import {
  TERRAINS, activatable, dominoLabel, drawDominoH, drawKing, drawSquare, icon, keyOf, liftControlText, nameOf, terrainFill,
  tileOf,
} from "./domino_draw.js";

// ---- lines ------------------------------------------------------------------------------

/**
 * Both lines. `opts.claimable` true for the next line (claims). Returns an element.
 * The acting domino of the current line gets a marker. The current line is empty only in the
 * first draft: it is left out then (an empty heading would only push the next line aside).
 */
export function drawLines(ctx, opts = {}) {
  const { view, legal, t } = ctx;
  const wrap = h("div", { class: "kd-lines" });
  const acting = view.phase === "play" ? view.acting : -1;
  if (view.current_line.length) wrap.append(drawLine(ctx, view.current_line, "current", t("current_line"), acting, opts));
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
    // data-key/sig: the last-move marks (a domino entering a line, moving to the current one, claimed)
    const g = s("g", { class: "kd-line-domino" + (i === acting ? " kd-acting" : ""), "data-domino": key,
      "data-key": `domino:${key}`, "data-sig": `${which}-${i}-${d.king ?? ""}` });
    g.append(s("text", { x: x + 17, y: y + S * 0.65, "text-anchor": "middle", "font-size": 15, "font-weight": "bold", fill: "currentColor" }, label));
    g.append(drawDominoH(t, d, x + 36, y, S));
    const king = d.king != null ? t("king_label", { name: nameOf(ctx, d.king), seat: d.king + 1 }) : null;
    if (king) g.append(drawKing(x + 36 + S * 2 + 16, y + S / 2, 15, d.king, king));
    if (i === acting) {
      g.append(s("rect", { x: x + 34, y: y - 2, width: S * 2 + 4, height: S + 4, fill: "none", stroke: "#d00", "stroke-width": 3, "stroke-dasharray": "6 3" }));
      g.append(s("text", { x: x + 36 + S * 2 + 33, y: y + S * 0.65, "font-size": 16, fill: "#d00" }, "◀"));
    }
    let desc = dominoLabel(t, d, label);
    if (king) desc += ", " + king;
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
      // a discard changes nothing else on the table: a discarded tile is keyed, so it is marked
      // (only those: 48 keyed tiles would cost every move's marks a few ms)
      "data-key": st === "discarded" ? `tile:${id}` : null,
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
  const el = status("div", { class: "kd-status", "data-testid": "status" });
  el.append(h("span", { class: "kd-round" }, bits.join(" · ")));
  if (turn) el.append(h("strong", { class: "kd-turn" }, turn));
  if (ctx.you == null) el.append(h("span", { class: "kd-note" }, t("spectating")));
  return el;
}

// ---- the board's tools --------------------------------------------------------------------------

// The board's tools for the Kingdomino family: the legend (each terrain's swatch, the same
// pattern the squares use, and its name; the pieces' icons and names), shown and hidden by its
// summary, and the zoom control (/static/kit.js) of the viewer's kingdom.

/** The legend: `terrains` (names) and `pieces` ([icon name, message key]). */
export function legend(ctx, terrains, pieces) {
  const { t } = ctx;
  const list = h("ul", { class: "kd-legend-list", "data-testid": "legend-list" });
  for (const ter of terrains) {
    const sw = s("svg", { viewBox: "0 0 20 20", class: "kd-legend-swatch", "aria-hidden": "true", focusable: "false" },
      s("rect", { width: 20, height: 20, fill: terrainFill(ter), class: "kd-sq-rect", "stroke-width": 0.8 }));
    list.append(h("li", { "data-terrain": ter }, sw, t("ter_" + ter)));
  }
  for (const [name, key] of pieces) list.append(h("li", { "data-piece": name }, icon(name, `kd-legend-icon kd-icon-${name}`), t(key)));
  return h("details", { class: "kd-legend", "data-testid": "legend" }, h("summary", {}, t("legend")), list);
}

/** The zoom control of this game's boards: it sets --zoom on the renderer's root. */
export function zoom(root, ctx, game) {
  const { t } = ctx;
  return zoomControl(root, game, { group: t("zoom_group"), zoomIn: t("zoom_in"), zoomOut: t("zoom_out"), fit: t("zoom_fit") });
}

/** The other kingdoms in a box that folds (folded at first on a narrow screen); its summary
 * names them. `st` keeps the reader's choice across views. */
export function othersBox(ctx, st, names, children) {
  const narrow = !!globalThis.matchMedia?.("(max-width: 700px)").matches;
  const open = st.othersOpen ?? !narrow;
  const box = h("details", { class: "kd-others-box", "data-testid": "others", open },
    h("summary", { "data-testid": "others-toggle" }, ctx.t("others", { names })), h("div", { class: "kd-others" }, children));
  box.addEventListener("toggle", () => { st.othersOpen = box.open; });
  return box;
}
