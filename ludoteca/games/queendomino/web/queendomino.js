// Queendomino renderer (contract: notes/web_contract.md). Kingdoms, lines, placement and the
// tile list come from domino.js (click sequences documented at its top). Own clicks:
//   knight (step B): one click on [data-testid="cell-X-Y"] of [data-testid="my-kingdom"]; it
//     carries data-action-index when no building is selected.
//   build (step C): click [data-testid="build-space-S"] (selects the tile on board space S; click
//     again or [data-testid="build-cancel"] to unselect), then click [data-testid="cell-X-Y"],
//     which then carries the data-action-index of {"type":"build","space":S,"x":X,"y":Y}.
//   dragon (step D): one click on [data-testid="dragon-S"].
//   pass (last round): one click on [data-testid="pass"]. Claims are on the next line.
import { ensureCss, h, svg as s } from "/static/dom.js";
import {
  DOMINO_MESSAGES, destroyUi, legalIndex, nameOf, partLines, renderDominoGame, uiState,
} from "../kingdomino/domino.js";

const BUILDINGS_ES = {
  "Bakery": "Panadería", "Big Tavern": "Taberna grande", "Church": "Iglesia",
  "Fishmonger's": "Pescadería", "Fortified Castle": "Castillo fortificado", "Foundry": "Fundición",
  "Guardtower": "Torre de guardia", "Magic School": "Escuela de magia",
  "Queen's Tower": "Torre de la Reina", "Safe (knight variant)": "Caja fuerte (con caballero)",
  "Safe (tower variant)": "Caja fuerte (con torre)", "Sawmill": "Aserradero",
  "Small Tavern": "Taberna pequeña", "Statue": "Estatua", "Training Camp": "Campo de entrenamiento",
  "Travelling Castle": "Castillo itinerante", "Weaving Shop": "Taller de tejidos",
};
const bkey = (name) => "b_" + name.replace(/[^A-Za-z]+/g, "_");

const OWN = {
  en: {
    coins: "● {n} coins", knights_free: "♞ {n} knights to place", knights_placed: "{n} placed",
    towers: "♜ {n} towers", queen_here: "♛ hosts the Queen",
    board_title: "Builders' board", price: "Price {n}", price_q: "Price {n} (−1 with the Queen: {m})",
    empty_space: "empty", dragon_here: "♨ the Dragon burnt this space",
    build_select: "⌂ Build…", build_selected: "⌂ Selected", burn: "♨ Burn (1 coin)",
    pile: "Pile: {n} tiles", burnt: "Burnt: {list}",
    queen_at: "♛ The Queen: with {name}", queen_none: "♛ The Queen: beside the board",
    dragon_cave: "♨ The Dragon: in its cave", dragon_out: "♨ The Dragon: on space {n} this round",
    steps_hint: "Optional: put knights on the domino you just placed (squares marked ♞), build, use the Dragon; then choose a domino in the next line.",
    steps_hint_last: "Optional: put knights on the domino you just placed (squares marked ♞), build, use the Dragon; then end your turn.",
    build_pick_cell: "Choose a town square (marked ⌂) for {name}.",
    build_cancel: "✗ Cancel building",
    pass: "» End my turn",
    knight_on: "Put a knight on {x}, {y}",
    build_on: "Build {name} on {x}, {y}",
    build_label: "Choose {name} from space {space} to build",
    burn_label: "Burn {name} on space {space} with the Dragon (1 coin)",
    eff_knights: "+{n} ♞", eff_towers: "+{n} ♜", eff_coin_knight: "+{n} coin per knight at each tax",
    eff_coin_tower: "+{n} coin per tower at each tax", eff_crowns: "{n} ♔ crowns",
    eff_points: "{n} points", eff_per_territory: "{n} points per {terrain} territory",
    eff_per_tower: "{n} points per tower", eff_per_knight: "{n} points per knight",
    eff_inferred: "* effects inferred, not read off the tile",
    building_at: "{name} (building)", knight_mark: "knight", towns_hint: "Squares marked ♞ take a knight.",
  },
  es: {
    coins: "● {n} monedas", knights_free: "♞ {n} caballeros por colocar", knights_placed: "{n} colocados",
    towers: "♜ {n} torres", queen_here: "♛ acoge a la Reina",
    board_title: "Tablero de constructores", price: "Precio {n}", price_q: "Precio {n} (−1 con la Reina: {m})",
    empty_space: "vacío", dragon_here: "♨ el Dragón quemó este espacio",
    build_select: "⌂ Construir…", build_selected: "⌂ Elegido", burn: "♨ Quemar (1 moneda)",
    pile: "Pila: {n} losetas", burnt: "Quemadas: {list}",
    queen_at: "♛ La Reina: con {name}", queen_none: "♛ La Reina: junto al tablero",
    dragon_cave: "♨ El Dragón: en su cueva", dragon_out: "♨ El Dragón: en el espacio {n} esta ronda",
    steps_hint: "Opcional: pon caballeros en la ficha que acabas de colocar (casillas con ♞), construye, usa el Dragón; después elige una ficha de la fila siguiente.",
    steps_hint_last: "Opcional: pon caballeros en la ficha que acabas de colocar (casillas con ♞), construye, usa el Dragón; después termina tu turno.",
    build_pick_cell: "Elige una casilla de pueblo (marcada ⌂) para {name}.",
    build_cancel: "✗ Cancelar la construcción",
    pass: "» Terminar mi turno",
    knight_on: "Poner un caballero en {x}, {y}",
    build_on: "Construir {name} en {x}, {y}",
    build_label: "Elegir {name} del espacio {space} para construir",
    burn_label: "Quemar {name} del espacio {space} con el Dragón (1 moneda)",
    eff_knights: "+{n} ♞", eff_towers: "+{n} ♜", eff_coin_knight: "+{n} moneda por caballero en cada impuesto",
    eff_coin_tower: "+{n} moneda por torre en cada impuesto", eff_crowns: "{n} ♔ coronas",
    eff_points: "{n} puntos", eff_per_territory: "{n} puntos por territorio de {terrain}",
    eff_per_tower: "{n} puntos por torre", eff_per_knight: "{n} puntos por caballero",
    eff_inferred: "* efectos deducidos, no leídos de la loseta",
    building_at: "{name} (edificio)", knight_mark: "caballero", towns_hint: "Las casillas con ♞ admiten un caballero.",
  },
};
for (const [en, es] of Object.entries(BUILDINGS_ES)) { OWN.en[bkey(en)] = en; OWN.es[bkey(en)] = es; }

const messages = {
  en: { ...DOMINO_MESSAGES.en, ...OWN.en },
  es: { ...DOMINO_MESSAGES.es, ...OWN.es },
};

const bname = (t, b) => (OWN.en[bkey(b.name)] ? t(bkey(b.name)) : b.name);

function effects(t, b) {
  const out = [];
  if (b.knights) out.push(t("eff_knights", { n: b.knights }));
  if (b.towers) out.push(t("eff_towers", { n: b.towers }));
  if (b.coin_per_knight) out.push(t("eff_coin_knight", { n: b.coin_per_knight }));
  if (b.coin_per_tower) out.push(t("eff_coin_tower", { n: b.coin_per_tower }));
  if (b.crowns) out.push(t("eff_crowns", { n: b.crowns }));
  if (b.points) out.push(t("eff_points", { n: b.points }));
  if (b.per_territory) out.push(t("eff_per_territory", { n: b.per_territory, terrain: t("ter_" + b.terrain) }));
  if (b.per_tower) out.push(t("eff_per_tower", { n: b.per_tower }));
  if (b.per_knight) out.push(t("eff_per_knight", { n: b.per_knight }));
  return out;
}

function render(root, ctx) {
  ensureCss(new URL("../kingdomino/kingdomino.css", import.meta.url)); // its own rules live there too
  const { view, legal, t } = ctx;
  const st = uiState(root);
  const sides = view.sides || view.kingdoms.map((_, i) => i);
  const mySide = ctx.you != null ? sides[ctx.you] : null;
  const builds = legal.map((a, i) => [a, i]).filter(([a]) => a.type === "build");
  if (st.buildSpace != null && !builds.some(([a]) => a.space === st.buildSpace)) st.buildSpace = null;
  const redraw = () => st.redraw && st.redraw();
  const last = MAXID(view);
  const ids = [];
  for (let n = 1; n <= last; n++) ids.push(n);

  const spec = {
    cls: "game-queendomino",
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
    kingdomInfo: (k) => h("div", { class: "qd-info" },
      h("span", {}, t("coins", { n: k.coins })),
      h("span", {}, t("knights_free", { n: k.knights }), " · ", t("knights_placed", { n: k.knight_squares.length })),
      h("span", {}, t("towers", { n: k.towers })),
      k.queen ? h("strong", {}, t("queen_here")) : null),
    overlay: (k, i) => (svg, pos, S) => {
      for (const [x, y] of k.knight_squares) {
        const [X, Y] = pos(x, y);
        svg.append(s("g", { "pointer-events": "none" },
          s("circle", { cx: X + S * 0.22, cy: Y + S * 0.8, r: S * 0.17, fill: "#fff", stroke: "#000" }),
          s("text", { x: X + S * 0.22, y: Y + S * 0.88, "text-anchor": "middle", "font-size": S * 0.26 }, "♞")));
      }
      for (const b of k.buildings) {
        const [X, Y] = pos(b.x, b.y);
        const g = s("g", { "pointer-events": "none" });
        g.append(s("polygon", { points: `${X + S * 0.55},${Y + S * 0.3} ${X + S * 0.75},${Y + S * 0.1} ${X + S * 0.95},${Y + S * 0.3} ${X + S * 0.95},${Y + S * 0.5} ${X + S * 0.55},${Y + S * 0.5}`,
          fill: "#fff3c4", stroke: "#000", "stroke-width": 1.2 }));
        g.append(s("text", { x: X + S * 0.75, y: Y + S * 0.47, "text-anchor": "middle", "font-size": S * 0.17, "font-weight": "bold" }, String(b.id)));
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
        for (const [a, idx] of builds) if (a.space === st.buildSpace) {
          m.set(a.x + "," + a.y, { index: idx, label: t("build_on", { name: bname(t, tile), x: a.x, y: a.y }), mark: "⌂" });
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
      box.append(h("p", {}, t(kinds.has("pass") ? "steps_hint_last" : "steps_hint")));
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

function boardPanel(ctx, st, builds, mySide, redraw) {
  const { view, legal, t } = ctx;
  const box = h("section", { class: "qd-board", "data-testid": "builders-board" });
  box.append(h("h4", {}, t("board_title")));
  const ul = h("ul", { class: "qd-spaces" });
  const hostsQueen = mySide != null && view.kingdoms[mySide] && view.kingdoms[mySide].queen;
  for (const sp of view.board) {
    const b = sp.building;
    const li = h("li", { class: "qd-space" + (st.buildSpace === sp.space ? " qd-selected" : ""), "data-testid": `space-${sp.space}` });
    li.append(h("div", { class: "qd-price" }, hostsQueen ? t("price_q", { n: sp.price, m: Math.max(0, sp.price - 1) }) : t("price", { n: sp.price })));
    if (sp.dragon) li.append(h("div", {}, t("dragon_here")));
    if (b) {
      li.append(h("div", {}, h("strong", {}, `#${b.id} ${bname(t, b)}${b.inferred ? " *" : ""}`)));
      li.append(h("div", { class: "qd-effects" }, effects(t, b).join(" · ")));
      if (b.inferred) li.append(h("div", { class: "kd-note" }, t("eff_inferred")));
      if (builds.some(([a]) => a.space === sp.space)) {
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
  box.append(h("p", { class: "kd-note" },
    [t("pile", { n: view.building_pile }),
      queenName ? t("queen_at", { name: queenName }) : t("queen_none"),
      view.dragon != null ? t("dragon_out", { n: view.dragon }) : t("dragon_cave")].join(" · ")));
  if (view.burnt.length) box.append(h("p", { class: "kd-note" }, t("burnt", { list: view.burnt.map((b) => bname(t, b)).join(", ") })));
  return box;
}

export default {
  name: "queendomino",
  messages,
  render,
  destroy(root) { destroyUi(root); },
};
