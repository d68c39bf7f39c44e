// Buttons renderer (ludoteca/games/buttons; the contract: /static/RENDERERS.md). Every choice
// is one click: roll / stop / decline are <button>s, and each legal cell of your board (placing
// a marker, or turning a marker into a star) is a focusable SVG cell (buttons_board.js); all
// carry data-action-index.

import { ensureCss, h as el } from "/static/dom.js";
import { die as drawDie, statusLine } from "/static/kit.js";
import { partText } from "/static/parts.js";
import { board, key, SHAPE } from "./buttons_board.js";
import { messages } from "./buttons_messages.js";

const LOOK = {
  white: { face: "#fafafa", pip: "#b8860b", stroke: "#333", strokeWidth: 1.5 },
  gold: { face: "#1d1d1d", pip: "#e6b422", stroke: "#e6b422", strokeWidth: 3 },
  black: { face: "#1d1d1d", pip: "#ffffff", stroke: "#333", strokeWidth: 1.5 },
};

// A die: face colour + pip colour + a symbol/word under it (white ◯ row, gold ★, black ●).
function die(kind, n, t) {
  const badge = kind === "white" ? "◯ " + t("die.row") : kind === "gold" ? "★ " + t("die.gold_short") : "● " + t("die.col");
  return drawDie({ n, look: LOOK[kind], label: t("die." + kind, { n }), cls: `bt-die bt-die-${kind}`,
    caption: [el("strong", { text: String(n) }), " " + badge] });
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
