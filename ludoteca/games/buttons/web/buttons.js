// Buttons renderer (ludoteca/games/buttons; the contract: /static/RENDERERS.md). Every choice
// is one click: roll / stop / decline are <button>s, and each legal cell of your board (placing
// a marker, or turning a marker into a star) is a focusable SVG cell (buttons_board.js); all
// carry data-action-index. The dice and patches carry data-key/data-sig (last-move marks).

import { ensureCss, h as el, svg } from "/static/dom.js";
import { die as drawDie, statusLine, zoomControl } from "/static/kit.js";
import { partText } from "/static/parts.js";
import { board, button, key, SHAPE, star, swatch } from "./buttons_board.js";
import { describeButtons, messages } from "./buttons_messages.js";
const show = new URL("./buttons_show.js", import.meta.url).href; // loaded by the host when needed

const LOOK = {
  white: { face: "#fafafa", pip: "#b8860b", stroke: "#333", strokeWidth: 1.5 },
  gold: { face: "#1d1d1d", pip: "#e6b422", stroke: "#e6b422", strokeWidth: 3 },
  black: { face: "#1d1d1d", pip: "#ffffff", stroke: "#333", strokeWidth: 1.5 },
};

// A die: face colour + pip colour + a symbol/word under it (white ◯ row, gold ★, black ●).
function die(kind, n, t, i = 0) {
  const mark = kind === "white" ? "◯" : kind === "gold" ? "★" : "●";
  const word = t(kind === "white" ? "die.row" : kind === "gold" ? "die.gold_short" : "die.col");
  const fig = drawDie({ n, look: LOOK[kind], label: t("die." + kind, { n }), cls: `bt-die bt-die-${kind}`,
    caption: [el("strong", { text: String(n) }), " " + mark, el("span", { class: "bt-die-word", text: " " + word })] });
  fig.setAttribute("data-key", `die:${kind}:${i}`);
  fig.setAttribute("data-sig", String(n));
  return fig;
}

// A bonus card: the colour's swatch and name.
const bonusCard = (c, t, k) => el("span", { class: "bt-card", "data-key": k, "data-sig": c }, swatch(c), t("colour." + c));

// The legend: the colours and their shapes, a button, a star, a patch you may choose.
function legend(t) {
  const mini = (...children) => svg("svg", { class: "bt-swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, ...children);
  const item = (icon, text) => el("li", {}, icon, el("span", { text }));
  return el("details", { class: "bt-legend", "data-testid": "buttons-legend", open: true },
    el("summary", { text: t("legend") }),
    el("ul", {},
      ...["red", "yellow", "green", "blue"].map((c) => item(swatch(c), `${SHAPE[c]} ${t("colour." + c)}`)),
      item(mini(svg("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.5, class: "bt-legend-cloth" }), button(5, 5, 3.4)), t("legend.button")),
      item(mini(svg("rect", { x: 0.5, y: 0.5, width: 9, height: 9, rx: 1.5, class: "bt-legend-cloth" }), star(5, 5, 3.8, "bt-star")), t("legend.star")),
      item(mini(svg("rect", { x: 1, y: 1, width: 8, height: 8, rx: 1.4, fill: "none", stroke: "#000", "stroke-width": 1.1 }),
        svg("rect", { x: 1, y: 1, width: 8, height: 8, rx: 1.4, fill: "none", stroke: "#fff", "stroke-width": 0.5, "stroke-dasharray": "1.2 1.2" })), t("legend.choice")),
    ));
}

// Per root: the seats whose boards the viewer folded away.
const foldedBoards = new WeakMap();

function render(root, ctx) {
  ensureCss(new URL("buttons.css", import.meta.url));
  if (!foldedBoards.has(root)) foldedBoards.set(root, new Set());
  const folded = foldedBoards.get(root);
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

  const wrap = el("div", { class: "bt-table", "data-testid": "buttons-root" });

  // Header and scores.
  const result = v.result;
  const head = el("header", { class: "bt-head" }, el("strong", { text: t("title") }), el("span", { text: t("round", { n: v.round }) }));
  if (v.removed_card) head.append(el("span", { text: t("removed_card", { colour: colourWord(v.removed_card) }) }));
  // The status, choices, dice and legend beside the boards on a wide screen (buttons.css).
  const side = el("div", { class: "bt-side" });
  wrap.append(side);
  side.append(head);

  // Status and action buttons.
  const bar = el("div", { class: "bt-bar", "data-testid": "buttons-actions" });
  const status = statusLine("p", { class: "bt-status", "data-testid": "buttons-status" });
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
      if (idx("stop") >= 0) bar.append(btn(idx("stop"), "■ " + t("stop")));
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
  side.append(bar);

  // Dice.
  if (v.dice) {
    const dice = el("section", { class: `bt-dice ${v.phase === "place" ? "" : "bt-old"}`, "data-testid": "buttons-dice" },
      el("h3", { text: v.phase === "place" ? t("dice") : t("last_roll") }));
    const row = el("div", { class: "bt-dice-row" }, die("white", v.dice.white, t), die("gold", v.dice.gold, t), ...v.dice.black.map((n, i) => die("black", n, t, i)));
    dice.append(row, el("p", { class: "bt-note", text: t("free_dice", { n: v.free_dice }) }));
    side.append(dice);
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
      el("span", { class: "bt-stars", "data-key": `stars:${s}`, "data-sig": String(p.star_count), text: t("stars", { n: p.star_count }) }),
      el("span", { class: `bt-st bt-st-${p.status}`, "data-key": `status:${s}`, "data-sig": p.status, text: (p.status === "busted" ? "✗ " : p.status === "stopped" ? "■ " : "● ") + t("status." + p.status) }),
      el("span", { text: t("markers", { n: p.markers.length }) }),
      el("span", { class: "bt-bonus" }, t("bonus") + ": ", ...p.cards.map((c, i) => bonusCard(c, t, `bonus:${s}:${i}`))),
      p.stars_to_place ? el("span", { text: t("to_place", { n: p.stars_to_place }) }) : null,
      winner ? el("span", { class: "bt-win", text: "✓ " + t("winner") }) : null,
    );
    if (result) {
      const why = (result.parts?.[s] || []).map((p) => `${partText(p, ctx.names)}: ${p.points}`).join(" · ");
      info.append(el("span", { class: "bt-score", text: t("score", { n: result.scores[s] }) + " · " + why }));
    }
    const drawn = board(ctx, s, { mine, actions: mine ? cellActions : new Map(), rowHi: place ? v.dice.white : null, colHi });
    const cls = `bt-player ${mine ? "bt-mine" : "bt-other"} ${isActive ? "bt-active" : ""}`;
    if (mine) {
      const zoom = zoomControl(root, "buttons", { group: t("zoom_group"), zoomIn: t("zoom_in"), zoomOut: t("zoom_out"), fit: t("zoom_fit") });
      boards.append(el("div", { class: cls, "data-testid": `buttons-board-${s}`, "data-own": "1" },
        el("div", { class: "bt-board-head" }, el("h3", { text: t("your_board") }), zoom), info, el("div", { class: "bt-zoom-box" }, drawn)));
      continue;
    }
    // Another's board folds away (a phone shows your board and the dice first); it stays
    // folded across views until opened again.
    const panel = el("details", { class: cls, "data-testid": `buttons-board-${s}`, open: !folded.has(s),
      ontoggle: (e) => (e.target.open ? folded.delete(s) : folded.add(s)) },
      el("summary", {}, el("h3", { text: t("board_of", { name: ctx.names[s] }) })), info, drawn);
    boards.append(panel);
  }
  wrap.append(boards);

  side.append(legend(t));

  root.replaceChildren(wrap);
}

// show: the analysis's moves (ctx.show)
export default { name: "buttons", messages, render, show, describe: describeButtons, destroy: (root) => foldedBoards.delete(root) };
