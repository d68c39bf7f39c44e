// Queendomino renderer (the contract: /static/RENDERERS.md). Kingdoms, lines, placement and the
// tile list come from the Kingdomino family's modules (domino_kingdom.js documents placing). Own
// clicks:
//   knight (step B): one click on [data-testid="cell-X-Y"] of [data-testid="my-kingdom"]; it
//     carries data-action-index when no building is selected.
//   build (step C): click [data-testid="build-space-S"] (selects the tile on board space S; click
//     again or [data-testid="build-cancel"] to unselect), then click [data-testid="cell-X-Y"],
//     which then carries the data-action-index of {"type":"build","space":S,"x":X,"y":Y}.
//   dragon (step D): one click on [data-testid="dragon-S"].
//   pass (last round): one click on [data-testid="pass"]. Claims are on the next line.
import { ensureCss, h, svg as s } from "/static/dom.js";
import { createChoice, indexOf as legalIndex } from "/static/kit.js";
import { destroyUi, nameOf, partLines, renderDominoGame, uiState } from "../kingdomino/domino.js";
import { crownRow, icon, piece, seatColor } from "../kingdomino/domino_draw.js";
import { describeDomino } from "../kingdomino/domino_messages.js";
import { bname, messages } from "./queendomino_messages.js";
const show = "/static/games/kingdomino/domino_show.js"; // Kingdomino's; loaded by the host when needed

/** Building is a compound choice: the board space, then the town square. */
const BUILD = { space: (a) => a.space, cell: (a) => `${a.x},${a.y}` };

function render(root, ctx) {
  ensureCss(new URL("../kingdomino/kingdomino.css", import.meta.url)); // its own rules live there too
  const { view, legal, t } = ctx;
  const st = uiState(root);
  const sides = view.sides || view.kingdoms.map((_, i) => i);
  const mySide = ctx.you != null ? sides[ctx.you] : null;
  const builds = createChoice(legal, BUILD, { only: (a) => a.type === "build",
    picks: st.buildSpace != null ? { space: st.buildSpace } : {} });
  st.buildSpace = builds.has("space") ? builds.value("space") : null;
  const redraw = () => st.redraw && st.redraw();
  const last = MAXID(view);
  const ids = [];
  for (let n = 1; n <= last; n++) ids.push(n);

  const spec = {
    cls: "game-queendomino",
    game: "queendomino",
    terrains: ["wheat", "forest", "lake", "grassland", "swamp", "mine", "town"],
    pieces: [["crown", "legend_crown"], ["castle", "legend_castle"], ["king", "legend_king"], ["building", "legend_building"], ["knight", "legend_knight"],
      ["tower", "legend_tower"], ["queen", "legend_queen"], ["dragon", "legend_dragon"]],
    sideOf: (seat) => sides[seat],
    seatsOf: (i) => sides.map((sd, seat) => (sd === i ? seat : -1)).filter((x) => x >= 0),
    dominoLabel: (id) => (id <= 48 ? String(id) : "K" + (id - 48)),
    actingDomino: () =>
      view.phase === "play" && view.acting_domino != null
        ? view.current_line.find((d) => d.id === view.acting_domino) || null
        : null,
    placementAllowed: () => view.step === "place",
    scoreLines: (k) => partLines(ctx, k),
    tileIds: ids,
    kingdomInfo: (k, i) => h("div", { class: "qd-info" },
      h("span", { "data-key": `coins:${i}`, "data-sig": String(k.coins) }, icon("coin"), t("coins", { n: k.coins })),
      h("span", { "data-key": `knights:${i}`, "data-sig": `${k.knights}-${k.knight_squares.length}` },
        icon("knight"), t("knights_free", { n: k.knights }), " · ", t("knights_placed", { n: k.knight_squares.length })),
      h("span", { "data-key": `towers:${i}`, "data-sig": String(k.towers) }, icon("tower"), t("towers", { n: k.towers })),
      k.queen ? h("strong", { "data-key": `queen:${i}` }, icon("queen"), t("queen_here")) : null),
    overlay: (k, i) => (svg, pos, S) => {
      const owner = sides.indexOf(i); // a knight stands on a disc of its kingdom's (first) seat colour, as a king does
      for (const [x, y] of k.knight_squares) {
        const [X, Y] = pos(x, y);
        svg.append(s("g", { "pointer-events": "none", "data-key": `knight:${i}:${x},${y}`, class: "qd-knight" },
          s("circle", { cx: X + S * 0.24, cy: Y + S * 0.74, r: S * 0.21, fill: seatColor(owner), class: "qd-knight-disc" }),
          piece("knight", X + S * 0.06, Y + S * 0.56, S * 0.36)));
      }
      for (const b of k.buildings) { // the building on its square: a house with its number, and its crowns
        const [X, Y] = pos(b.x, b.y);
        const g = s("g", { "pointer-events": "none", "data-key": `building:${i}:${b.id}`, "data-sig": `${b.x},${b.y}`, class: "qd-building" });
        g.append(s("rect", { x: X + S * 0.5, y: Y + S * 0.04, width: S * 0.46, height: S * 0.5, rx: S * 0.06, class: "qd-token" }));
        g.append(piece("building", X + S * 0.52, Y + S * 0.04, S * 0.42));
        g.append(s("text", { x: X + S * 0.73, y: Y + S * 0.47, "text-anchor": "middle", "font-size": S * 0.17, "font-weight": "bold", class: "qd-building-n" }, String(b.id)));
        if (b.crowns) g.append(crownRow(X + S * 0.55, Y + S * 0.56, S * 0.16, b.crowns));
        svg.append(g);
        svg.append(s("rect", { x: X, y: Y, width: S, height: S, fill: "transparent", "pointer-events": "none" }, s("title", {}, t("building_at", { name: bname(t, b) }))));
      }
      if (i === mySide && view.turn && view.to_act.includes(ctx.you)) {
        for (const [x, y] of view.turn.domino_squares) {
          const [X, Y] = pos(x, y);
          svg.append(s("rect", { x: X + 1, y: Y + 1, width: S - 2, height: S - 2, fill: "none", stroke: "#1a5fd0", "stroke-width": 2, "stroke-dasharray": "4 2", "pointer-events": "none" }));
        }
      }
    },
    targets: (k, i) => {
      if (i !== mySide) return null;
      const m = new Map();
      if (st.buildSpace != null) {
        const tile = view.board[st.buildSpace].building;
        for (const [cell, [idx]] of builds.options("cell")) {
          const a = legal[idx];
          m.set(cell, { index: idx, label: t("build_on", { name: bname(t, tile), x: a.x, y: a.y }), mark: "⌂" });
        }
      } else {
        legal.forEach((a, idx) => { if (a.type === "knight") m.set(a.x + "," + a.y, { index: idx, label: t("knight_on", { x: a.x, y: a.y }), mark: "♞" }); });
      }
      return m;
    },
    underMine: () => {
      const out = [];
      const kinds = new Set(legal.map((a) => a.type));
      if (!(kinds.has("knight") || kinds.has("build") || kinds.has("dragon") || kinds.has("pass"))) return out;
      const box = h("div", { class: "qd-turn-actions", "data-testid": "turn-actions" });
      // only the steps open now, and how the turn ends (the claim, or the end-turn button)
      const steps = ["knight", "build", "dragon"].filter((k) => kinds.has(k)).map((k) => t(`step_${k}`));
      const end = t(kinds.has("pass") ? "end_pass" : "end_claim");
      box.append(h("p", {}, steps.length ? t("steps_hint", { steps: steps.join(", "), end }) : t("steps_none", { end })));
      if (st.buildSpace != null) {
        const tile = view.board[st.buildSpace].building;
        box.append(h("p", { role: "status" }, h("strong", {}, t("build_pick_cell", { name: bname(t, tile) }))));
        box.append(h("button", { type: "button", class: "kd-btn", "data-testid": "build-cancel",
          onclick: () => { st.buildSpace = null; redraw(); } }, t("build_cancel")));
      }
      const pi = legalIndex(legal, (a) => a.type === "pass");
      if (pi >= 0) {
        box.append(h("button", { type: "button", class: "kd-btn kd-primary", "data-testid": "pass", "data-action-index": pi,
          onclick: () => ctx.act(legal[pi]) }, t("pass")));
      }
      out.push(box);
      return out;
    },
    panels: () => [boardPanel(ctx, st, builds, mySide, redraw)],
  };
  renderDominoGame(root, ctx, spec);
}

function MAXID(view) {
  return view.options && view.options.royal_wedding ? 96 : 48;
}

// ---- the builders' board ------------------------------------------------------------------

// The builders' board: each space's price (and the Queen's host's, as the view says), its
// building and effects, and the legal choices on it: pick the building to build (the first
// step of the build choice), or burn it with the Dragon. Then the pile, Queen and Dragon.

/** builds: the build choice (the kit's, steps space and cell); st.buildSpace: the space picked. */
function boardPanel(ctx, st, builds, mySide, redraw) {
  const { view, legal, t } = ctx;
  const box = h("section", { class: "qd-board", "data-testid": "builders-board" });
  box.append(h("h4", {}, t("board_title")));
  const ul = h("ul", { class: "qd-spaces" });
  const hostsQueen = mySide != null && view.kingdoms[mySide] && view.kingdoms[mySide].queen;
  for (const sp of view.board) {
    const b = sp.building;
    const li = h("li", { class: "qd-space" + (st.buildSpace === sp.space ? " qd-selected" : ""), "data-testid": `space-${sp.space}`,
      "data-key": `space:${sp.space}`, "data-sig": `${b ? b.id : ""}-${sp.dragon ? 1 : 0}` });
    li.append(h("div", { class: "qd-price" }, hostsQueen ? t("price_q", { n: sp.price, m: sp.queen_price }) : t("price", { n: sp.price })));
    if (sp.dragon) li.append(h("div", {}, icon("dragon"), t("dragon_here")));
    if (b) {
      li.append(h("div", {}, icon("building"), h("strong", {}, `#${b.id} ${bname(t, b)}`)));
      if (b.effect) li.append(h("div", { class: "qd-effects" }, b.effect.text)); // as the game applies it
      if (builds.options("space").has(sp.space)) {
        const sel = st.buildSpace === sp.space;
        li.append(h("button", { type: "button", class: "kd-btn" + (sel ? " kd-primary" : ""), "data-testid": `build-space-${sp.space}`,
          "aria-pressed": String(sel), "aria-label": t("build_label", { name: bname(t, b), space: sp.space }),
          onclick: () => { st.buildSpace = sel ? null : sp.space; redraw(); } }, t(sel ? "build_selected" : "build_select")));
      }
      const di = legalIndex(legal, (a) => a.type === "dragon" && a.space === sp.space);
      if (di >= 0) {
        li.append(h("button", { type: "button", class: "kd-btn kd-danger", "data-testid": `dragon-${sp.space}`, "data-action-index": di,
          "aria-label": t("burn_label", { name: bname(t, b), space: sp.space }), onclick: () => ctx.act(legal[di]) }, t("burn")));
      }
    } else {
      li.append(h("div", { class: "kd-note" }, t("empty_space")));
    }
    ul.append(li);
  }
  box.append(ul);
  const seatsOfSide = (side) => (view.sides || []).map((sd, seat) => (sd === side ? seat : -1)).filter((x) => x >= 0);
  const queenName = view.queen != null ? (seatsOfSide(view.queen).map((sx) => nameOf(ctx, sx)).join(" + ") || nameOf(ctx, view.queen)) : null;
  box.append(h("p", { class: "kd-note qd-pieces" },
    h("span", {}, t("pile", { n: view.building_pile })),
    h("span", { "data-key": "queen", "data-sig": String(view.queen) }, icon("queen"), queenName ? t("queen_at", { name: queenName }) : t("queen_none")),
    h("span", { "data-key": "dragon", "data-sig": String(view.dragon) }, icon("dragon"), view.dragon != null ? t("dragon_out", { n: view.dragon }) : t("dragon_cave"))));
  if (view.burnt.length) box.append(h("p", { class: "kd-note" }, t("burnt", { list: view.burnt.map((b) => bname(t, b)).join(", ") })));
  return box;
}

export default {
  name: "queendomino",
  messages,
  render,
  show, // the analysis's moves on the board (ctx.show)
  describe: describeDomino, // an action in words (the analysis, the coach)
  destroy(root) { destroyUi(root); },
};
