// Buttons renderer (ludoteca/games/buttons). Plain ES module, no build step.
// Every choice is one click: roll / stop / decline are <button>s, and each legal cell of your
// board (placing a marker, or turning a marker into a star) is a focusable SVG cell; all carry
// data-action-index.

import { ensureCss, h as el, svg } from "/static/dom.js";
import { partText } from "/static/parts.js";

const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
const FILL = { red: "#d64541", yellow: "#f2c230", green: "#3f9b4b", blue: "#3a6fc4" };
// A shape per colour, so colour-blind players (and greyscale screens) can tell them apart.
const SHAPE = { red: "▲", yellow: "●", green: "■", blue: "◆" };

const messages = {
  en: {
    title: "Buttons",
    round: "Round {n}",
    "colour.red": "red",
    "colour.yellow": "yellow",
    "colour.green": "green",
    "colour.blue": "blue",
    you: "you",
    roll: "Roll",
    stop: "Stop",
    decline: "Don't place",
    "status.roll": "Your turn: roll the dice.",
    "status.roll_stop": "Your turn: roll again, or stop and keep your {n} markers.",
    "status.turn": "{name}'s turn.",
    "status.place": "Place a marker: row {row} (white die), in the column of one black die.",
    "status.gold": "{name} rolled. You may place a marker on row {row}, column {col} (gold die), or not.",
    "status.pending": "You chose row {row}, column {col}. Waiting for {names}.",
    "status.answered": "Waiting for {names}.",
    "status.stars": "Choose {n} more of your markers to become stars.",
    "status.stars_wait": "Waiting for {names} to place their stars.",
    "status.over": "Game over. Winner: {names}.",
    "status.over_you": "Game over. You won!",
    dice: "Dice",
    last_roll: "Last roll",
    "die.white": "White die (row): {n}",
    "die.gold": "Gold-pip black die (column, everyone): {n}",
    "die.black": "Black die (column, active player): {n}",
    "die.row": "row",
    "die.gold_short": "gold",
    "die.col": "col.",
    free_dice: "{n} white-pip dice left",
    your_board: "Your board",
    board_of: "{name}'s board",
    "status.in": "in the round",
    "status.stopped": "stopped",
    "status.busted": "busted",
    stars: "★ {n}",
    markers: "Markers: {n}",
    bonus: "Bonus: {colours}",
    to_place: "Stars to place: {n}",
    cell: "Row {row}, column {col}, {colour}",
    "cell.marker": "marker",
    "cell.star": "star",
    "cell.place": "Place a marker on row {row}, column {col} ({colour})",
    "cell.star_pick": "Turn the marker on row {row}, column {col} ({colour}) into a star",
    "cell.pending": "your answer",
    legend: "Colours",
    removed_card: "Card out of play: {colour}",
    score: "Score: {n}",
    winner: "winner",
  },
  es: {
    title: "Buttons",
    round: "Ronda {n}",
    "colour.red": "rojo",
    "colour.yellow": "amarillo",
    "colour.green": "verde",
    "colour.blue": "azul",
    you: "tú",
    roll: "Tirar",
    stop: "Salirse",
    decline: "No colocar",
    "status.roll": "Te toca: tira los dados.",
    "status.roll_stop": "Te toca: vuelve a tirar o sal de la ronda con tus {n} botones.",
    "status.turn": "Turno de {name}.",
    "status.place": "Coloca un botón: fila {row} (dado blanco), en la columna de un dado negro.",
    "status.gold": "{name} ha tirado. Puedes colocar un botón en la fila {row}, columna {col} (dado dorado), o no.",
    "status.pending": "Has elegido la fila {row}, columna {col}. Esperando a {names}.",
    "status.answered": "Esperando a {names}.",
    "status.stars": "Elige {n} botones más para convertirlos en estrellas.",
    "status.stars_wait": "Esperando a que {names} coloquen sus estrellas.",
    "status.over": "Fin de la partida. Gana: {names}.",
    "status.over_you": "Fin de la partida. ¡Has ganado!",
    dice: "Dados",
    last_roll: "Última tirada",
    "die.white": "Dado blanco (fila): {n}",
    "die.gold": "Dado negro de puntos dorados (columna, para todos): {n}",
    "die.black": "Dado negro (columna, jugador activo): {n}",
    "die.row": "fila",
    "die.gold_short": "dorado",
    "die.col": "col.",
    free_dice: "Quedan {n} dados de puntos blancos",
    your_board: "Tu tablero",
    board_of: "Tablero de {name}",
    "status.in": "en la ronda",
    "status.stopped": "se ha salido",
    "status.busted": "se ha pasado",
    stars: "★ {n}",
    markers: "Botones: {n}",
    bonus: "Bonificación: {colours}",
    to_place: "Estrellas por colocar: {n}",
    cell: "Fila {row}, columna {col}, {colour}",
    "cell.marker": "botón",
    "cell.star": "estrella",
    "cell.place": "Colocar un botón en la fila {row}, columna {col} ({colour})",
    "cell.star_pick": "Convertir en estrella el botón de la fila {row}, columna {col} ({colour})",
    "cell.pending": "tu respuesta",
    legend: "Colores",
    removed_card: "Carta fuera de juego: {colour}",
    score: "Puntos: {n}",
    winner: "ganador",
  },
};

const PIPS = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

// A die: face colour + pip colour + a symbol/word under it (white ◯ row, gold ★, black ●).
function die(kind, n, t) {
  const face = kind === "white" ? "#fafafa" : "#1d1d1d";
  const pip = kind === "white" ? "#b8860b" : kind === "gold" ? "#e6b422" : "#ffffff";
  const label = t("die." + kind, { n });
  const pips = PIPS[n].map(([x, y]) => svg("circle", { cx: 20 + x * 9, cy: 20 + y * 9, r: 3.6, fill: pip }));
  const badge = kind === "white" ? "◯ " + t("die.row") : kind === "gold" ? "★ " + t("die.gold_short") : "● " + t("die.col");
  return el(
    "figure",
    { class: `bt-die bt-die-${kind}`, "aria-label": label, title: label, role: "img" },
    svg("svg", { viewBox: "0 0 40 40", "aria-hidden": "true" },
      svg("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7, fill: face, stroke: kind === "gold" ? "#e6b422" : "#333", "stroke-width": kind === "gold" ? 3 : 1.5 }),
      ...pips),
    el("figcaption", { "aria-hidden": "true" }, el("strong", { text: String(n) }), " " + badge),
  );
}

const key = (r, c) => `${r},${c}`;

function board(ctx, seat, { mine, actions, rowHi, colHi }) {
  const v = ctx.view;
  const t = ctx.t;
  const p = v.seats[seat];
  const markers = new Set(p.markers.map(([r, c]) => key(r, c)));
  const stars = new Set(p.stars.map(([r, c]) => key(r, c)));
  const picks = new Set(mine && v.you ? (v.you.picks || []).map(([r, c]) => key(r, c)) : []);
  const pending = mine && v.you && v.you.pending ? key(v.you.pending[0], v.you.pending[1]) : null;
  const last = p.last_placed ? key(p.last_placed[0], p.last_placed[1]) : null;
  const S = 10;
  const root = svg("svg", { viewBox: `0 0 ${7 * S} ${7 * S}`, class: "bt-board-svg", role: "group", "aria-label": mine ? t("your_board") : t("board_of", { name: ctx.names[seat] }) });
  // labels: columns on top (black die), rows on the left (white die)
  for (let i = 1; i <= 6; i++) {
    const colOn = colHi.has(i);
    const rowOn = rowHi === i;
    root.append(
      svg("rect", { x: i * S, y: 0, width: S, height: S, fill: colOn ? "#222" : "none", rx: 1.5 }),
      svg("text", { x: i * S + S / 2, y: S * 0.7, "text-anchor": "middle", class: "bt-lab", fill: colOn ? "#fff" : "#333", text: String(i), "aria-hidden": "true" }),
      svg("rect", { x: 0, y: i * S, width: S, height: S, fill: rowOn ? "#fff" : "none", stroke: rowOn ? "#222" : "none", "stroke-width": 0.6, rx: 1.5 }),
      svg("text", { x: S / 2, y: i * S + S * 0.7, "text-anchor": "middle", class: "bt-lab", fill: "#333", text: String(i), "aria-hidden": "true" }),
    );
  }
  const focusables = [];
  for (let r = 1; r <= 6; r++) {
    for (let c = 1; c <= 6; c++) {
      const colour = COLOURS[p.board[r - 1][c - 1]];
      const x = c * S;
      const y = r * S;
      const k = key(r, c);
      const act = actions.get(k);
      const parts = [t("cell", { row: r, col: c, colour: t("colour." + colour) })];
      if (markers.has(k)) parts.push(t("cell.marker"));
      if (stars.has(k)) parts.push(t("cell.star"));
      if (pending === k) parts.push(t("cell.pending"));
      const g = svg("g", { class: `bt-cell ${act !== undefined ? "bt-legal" : ""}` });
      g.append(
        svg("rect", { x: x + 0.4, y: y + 0.4, width: S - 0.8, height: S - 0.8, rx: 1.6, fill: FILL[colour], stroke: "#fff", "stroke-width": 0.4 }),
      );
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
      if (act !== undefined) {
        const a = ctx.legal[act];
        const label = t(a.type === "star" ? "cell.star_pick" : "cell.place", { row: r, col: c, colour: t("colour." + colour) });
        g.setAttribute("data-action-index", act);
        g.setAttribute("tabindex", "0");
        g.setAttribute("role", "button");
        g.setAttribute("aria-label", label);
        g.append(
          svg("rect", { x: x + 0.9, y: y + 0.9, width: S - 1.8, height: S - 1.8, rx: 1.4, fill: "none", stroke: "#000", "stroke-width": 1.1, class: "bt-ring" }),
          svg("rect", { x: x + 0.9, y: y + 0.9, width: S - 1.8, height: S - 1.8, rx: 1.4, fill: "none", stroke: "#fff", "stroke-width": 0.5, "stroke-dasharray": "1.2 1.2", class: "bt-ring" }),
          svg("title", { text: label }),
        );
        const go = () => ctx.act(a);
        g.addEventListener("click", go);
        g.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            go();
          }
        });
        focusables.push(g);
      } else {
        g.setAttribute("aria-label", parts.join(", "));
        g.setAttribute("role", "img");
      }
      root.append(g);
    }
  }
  return root;
}

function render(root, ctx) {
  ensureCss(new URL("buttons.css", import.meta.url));
  const v = ctx.view;
  const t = ctx.t;
  const legal = ctx.legal || [];
  const you = ctx.you === null || ctx.you === undefined ? null : ctx.you;
  const name = (s) => (s === you ? `${ctx.names[s]} (${t("you")})` : ctx.names[s]);
  const colourWord = (c) => `${SHAPE[c]} ${t("colour." + c)}`;
  const idx = (type) => legal.findIndex((a) => a.type === type);
  const cellActions = new Map();
  legal.forEach((a, i) => {
    if (a.type === "place" || a.type === "star") cellActions.set(key(a.row, a.col), i);
  });
  const waiting = (v.deciders && v.deciders.length ? v.deciders : [v.active]).filter((s) => s !== you);
  const waitNames = (waiting.length ? waiting : v.deciders).map(name).join(", ");

  const wrap = el("div", { class: "game-buttons", "data-testid": "buttons-root" });

  // Header and scores.
  const result = v.result;
  const head = el("header", { class: "bt-head" }, el("strong", { text: t("title") }), el("span", { text: t("round", { n: v.round }) }));
  if (v.removed_card) head.append(el("span", { text: t("removed_card", { colour: colourWord(v.removed_card) }) }));
  wrap.append(head);

  // Status and action buttons.
  const bar = el("div", { class: "bt-bar", "data-testid": "buttons-actions" });
  const status = el("p", { class: "bt-status", role: "status", "data-testid": "buttons-status" });
  bar.append(status);
  const btn = (i, label, cls = "") => el("button", { type: "button", class: `bt-btn ${cls}`, "data-action-index": i, onclick: () => ctx.act(legal[i]) }, label);
  const myMarkers = you !== null ? v.seats[you].markers.length : 0;
  if (v.phase === "over") {
    const winners = result ? result.winners : [];
    status.textContent = winners.includes(you) ? t("status.over_you") : t("status.over", { names: winners.map(name).join(", ") });
  } else if (v.phase === "turn") {
    if (legal.length) {
      status.textContent = idx("stop") >= 0 ? t("status.roll_stop", { n: myMarkers }) : t("status.roll");
      if (idx("roll") >= 0) bar.append(btn(idx("roll"), "⚄ " + t("roll"), "bt-primary"));
      if (idx("stop") >= 0) bar.append(btn(idx("stop"), "✋ " + t("stop")));
    } else status.textContent = t("status.turn", { name: name(v.active) });
  } else if (v.phase === "place") {
    if (legal.length && idx("decline") >= 0) {
      const a = legal.find((x) => x.type === "place");
      status.textContent = t("status.gold", { name: name(v.active), row: v.dice.white, col: a ? a.col : v.dice.gold });
      bar.append(btn(idx("decline"), "✕ " + t("decline")));
    } else if (legal.length) {
      status.textContent = t("status.place", { row: v.dice.white });
    } else if (v.you && v.you.pending) {
      status.textContent = t("status.pending", { row: v.you.pending[0], col: v.you.pending[1], names: waitNames });
    } else status.textContent = t("status.answered", { names: waitNames });
  } else if (v.phase === "stars") {
    if (legal.length) {
      const left = v.seats[you].stars_to_place - (v.you.picks || []).length;
      status.textContent = t("status.stars", { n: left });
    } else status.textContent = t("status.stars_wait", { names: waitNames });
  }
  wrap.append(bar);

  // Dice.
  if (v.dice) {
    const dice = el("section", { class: `bt-dice ${v.phase === "place" ? "" : "bt-old"}`, "data-testid": "buttons-dice" },
      el("h3", { text: v.phase === "place" ? t("dice") : t("last_roll") }));
    const row = el("div", { class: "bt-dice-row" }, die("white", v.dice.white, t), die("gold", v.dice.gold, t), ...v.dice.black.map((n) => die("black", n, t)));
    dice.append(row, el("p", { class: "bt-note", text: t("free_dice", { n: v.free_dice }) }));
    wrap.append(dice);
  }

  // Boards: yours big, then the others smaller.
  const order = [];
  const n = v.players;
  const start = you ?? 0;
  for (let j = 0; j < n; j++) order.push((start + j) % n);
  const boards = el("section", { class: "bt-boards" });
  const place = v.phase === "place" && v.dice;
  for (const s of order) {
    const p = v.seats[s];
    const mine = s === you;
    const isActive = s === v.active && v.phase !== "over" && v.phase !== "stars";
    let colHi = new Set();
    if (place) colHi = new Set(s === v.active ? [v.dice.gold, ...v.dice.black] : [v.dice.gold]);
    const winner = result && result.winners.includes(s);
    const info = el("div", { class: "bt-info" },
      el("strong", { text: (isActive ? "▶ " : "") + name(s) }),
      el("span", { class: "bt-stars", text: t("stars", { n: p.star_count }) }),
      el("span", { class: `bt-st bt-st-${p.status}`, text: (p.status === "busted" ? "✗ " : p.status === "stopped" ? "■ " : "● ") + t("status." + p.status) }),
      el("span", { text: t("markers", { n: p.markers.length }) }),
      el("span", { class: "bt-bonus", text: t("bonus", { colours: p.cards.map(colourWord).join(", ") }) }),
      p.stars_to_place ? el("span", { text: t("to_place", { n: p.stars_to_place }) }) : null,
      winner ? el("span", { class: "bt-win", text: "✓ " + t("winner") }) : null,
    );
    if (result) {
      const why = (result.parts?.[s] || []).map((p) => `${partText(p, ctx.names)}: ${p.points}`).join(" · ");
      info.append(el("span", { class: "bt-score", text: t("score", { n: result.scores[s] }) + " · " + why }));
    }
    const panel = el("div", { class: `bt-player ${mine ? "bt-mine" : "bt-other"} ${isActive ? "bt-active" : ""}`, "data-testid": `buttons-board-${s}` },
      el("h3", { text: mine ? t("your_board") : t("board_of", { name: ctx.names[s] }) }),
      info,
      board(ctx, s, { mine, actions: mine ? cellActions : new Map(), rowHi: place ? v.dice.white : null, colHi }),
    );
    boards.append(panel);
  }
  wrap.append(boards);

  // Legend: colour = shape.
  wrap.append(el("p", { class: "bt-legend", "aria-label": t("legend") },
    el("span", { text: t("legend") + ": " }),
    ...["red", "yellow", "green", "blue"].map((c) => el("span", { class: `bt-key bt-key-${c}`, text: colourWord(c) }))));

  root.replaceChildren(wrap);
}

export default { name: "buttons", messages, render };
