// Shared drawing for the Kingdomino family (kingdomino.js, ../queendomino/queendomino.js; the
// contract: /static/RENDERERS.md): the page's layout of kingdoms, lines and panels, and the
// root's UI state kept across redraws. The pieces are in domino_draw.js, a kingdom and placing
// a domino in it in domino_kingdom.js (its click sequence is documented there), the lines and
// the other panels in domino_panels.js.
//
// A CLAIM is one click on [data-testid="claim-N"] (N: the domino's number, or its id in
// Queendomino) in the next line; only legal ones are focusable and carry data-action-index.
import { h, svg as s } from "/static/dom.js";
import { TERRAINS, drawKing, ensureSprite, keyOf, nameOf } from "./domino_draw.js";
import { drawKingdom, placementControls, placementModel } from "./domino_kingdom.js";
import { drawLines, legend, othersBox, scoreBadge, statusLine, tileList, zoom } from "./domino_panels.js";

export { DOMINO_MESSAGES } from "./domino_messages.js";
export { indexOf as legalIndex } from "/static/kit.js";
export { nameOf } from "./domino_draw.js";
export { partLines } from "./domino_panels.js";

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

// ---- the whole table --------------------------------------------------------------------

/**
 * Render a Kingdomino-family game. spec: {
 *   cls: "game-kingdomino", sideOf(seat) -> kingdom index, seatsOf(kingdom index) -> seats,
 *   dominoLabel(key) -> printed label, actingDomino() -> line entry or null,
 *   scoreLines(kingdom, index) -> strings, kingdomInfo(kingdom, index) -> element|null,
 *   overlay(kingdom, index) -> fn(svg, pos, S)|null, targets(kingdom, index) -> Map|null,
 *   placementAllowed() -> bool, panels() -> elements (after the lines), tileIds -> ids,
 *   game (its name: the zoom level is remembered per game), terrains (the legend's, default the
 *   six of Kingdomino), pieces ([[icon, message key]] of the legend) }
 */
export function renderDominoGame(root, ctx, spec) {
  const st = uiState(root);
  st.ctx = ctx;
  ensureSprite();
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
    pl = placementModel(st, ctx, acting, actingLabel);
  } else {
    st.key = null;
  }
  const main = h("div", { class: "kd-main" });
  const left = h("section", { class: "kd-mine" });
  left.append(kingdomBlock(ctx, spec, view.kingdoms[mine], mine, true, pl, root));
  if (pl) left.append(placementControls(ctx, pl));
  for (const el of spec.underMine ? spec.underMine() : []) left.append(el);
  const right = h("section", { class: "kd-side" });
  right.append(drawLines(ctx));
  for (const el of spec.panels ? spec.panels() : []) right.append(el);
  main.append(left, right);
  top.append(main);
  const others = [], otherNames = [];
  view.kingdoms.forEach((k, i) => {
    if (i === mine) return;
    others.push(kingdomBlock(ctx, spec, k, i, false, null));
    otherNames.push(spec.seatsOf(i).map((sx) => nameOf(ctx, sx)).join(" + "));
  });
  if (others.length) top.append(othersBox(ctx, st, otherNames.join(", "), others));
  top.append(tileList(ctx, spec.tileIds, spec.dominoLabel));
  return top;
}

/** One kingdom with its heading and score; the large one (the viewer's) also has the board's
 * tools (zoom, legend) and scrolls when zoomed past its place. */
function kingdomBlock(ctx, spec, kingdom, index, large, pl, root = null) {
  const { t, view } = ctx;
  const seats = spec.seatsOf(index);
  const names = seats.map((sx) => nameOf(ctx, sx)).join(" + ");
  const isYou = ctx.you != null && seats.includes(ctx.you);
  const title = isYou ? t("your_kingdom", { name: names }) : t("kingdom_of", { name: names });
  const turn = seats.some((sx) => view.to_act.includes(sx));
  const box = h("div", { class: "kd-kingdom" + (large ? " kd-large" : " kd-small") + (turn ? " kd-turn-now" : ""),
    "data-testid": `kingdom-${index}`, "data-own": isYou && large ? "1" : null });
  const head = h("div", { class: "kd-khead" });
  for (const sx of seats) {
    const sw = s("svg", { viewBox: "0 0 24 24", class: "kd-seat-dot", "aria-hidden": "true" });
    sw.append(drawKing(12, 12, 12, sx, t("king_label", { name: nameOf(ctx, sx), seat: sx + 1 })));
    head.append(sw);
  }
  head.append(h("h3", {}, title));
  const badge = scoreBadge(ctx, names, kingdom.score, spec.scoreLines(kingdom, index), `score-${index}`);
  badge.dataset.key = `score:${index}`;
  badge.dataset.sig = String(kingdom.score);
  head.append(badge);
  if (large) {
    const terrains = spec.terrains || TERRAINS.filter((ter) => ter !== "town");
    head.append(h("div", { class: "kd-tools" }, zoom(root, ctx, spec.game),
      legend(ctx, terrains, spec.pieces || [["crown", "legend_crown"], ["castle", "legend_castle"], ["king", "legend_king"]])));
  }
  box.append(head);
  const info = spec.kingdomInfo ? spec.kingdomInfo(kingdom, index) : null;
  if (info) box.append(info);
  const board = drawKingdom(ctx, kingdom, {
    index,
    testid: large ? "my-kingdom" : null,
    label: title,
    placement: pl,
    targets: large && ctx.you != null ? spec.targets && spec.targets(kingdom, index) : null,
    overlay: spec.overlay ? spec.overlay(kingdom, index) : null,
  });
  box.append(large ? h("div", { class: "kd-board-scroll" }, board) : board);
  return box;
}

