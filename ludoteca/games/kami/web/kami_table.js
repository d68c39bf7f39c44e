// The Kami and Goita table: each seat's defence and attack lines laid out as around a table (the
// viewer at the bottom, a partner across, opponents to the sides; hidden cards as backs, the
// viewer's own face-down cards marked), and the results of earlier rounds. Every card carries
// data-key/data-sig (RENDERERS.md, last-move marks): a card just played is marked.
import { h as el } from "/static/dom.js";
import { back, face } from "./kami_cards.js";

// Where each seat sits, by its distance from the viewer (2, 3 and 4 players).
const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"] };
// (seat s + 1 is the clockwise neighbour: on the left of a player looking at the table)

const keyed = (node, key, sig) => {
  node.setAttribute("data-key", key);
  node.setAttribute("data-sig", sig);
  return node;
};

/** One seat's panel: name, badges, hand size, and its two lines. Another player's panel folds
 * away (a phone shows the hand and choices first) and stays folded across views (`folded`). */
function seatPanel(kit, ctx, s, place, folded) {
  const { v, t } = kit;
  const turn = v.to_act.includes(s);
  const mine = s === ctx.you;
  const panel = el(mine ? "div" : "details", { class: `kc-seat kc-at-${place} ${turn ? "kc-turn" : ""} kc-side${v.sides[s]}`, "data-testid": `kami-seat-${s}`,
    open: !mine && !folded.has(s), ontoggle: mine ? null : (e) => (e.target.open ? folded.delete(s) : folded.add(s)) });
  const badges = [];
  if (kit.teams) badges.push(el("span", { class: "kc-team", text: t("team", { t: "AB"[v.sides[s]] }) }));
  if (turn) badges.push(el("span", { class: "kc-badge", text: "▶" }));
  if (v.phase === "play" && v.attacker === s && v.attack !== null) badges.push(el("span", { class: "kc-badge kc-att", text: "⚔ " + t("attacker") }));
  if (v.revealed[s]) badges.push(el("span", { class: "kc-badge", text: t("revealed", { n: v.revealed[s] }) }));
  panel.append(
    el(mine ? "div" : "summary", { class: "kc-seat-head" },
      el("strong", { text: kit.seatName(s) }),
      ...badges,
      el("span", { class: "kc-hc", "data-key": `hand-size:${s}`, "data-sig": String(v.hand_sizes[s]), title: t("hand_count", { n: v.hand_sizes[s] }), "aria-label": t("hand_count", { n: v.hand_sizes[s] }) }, "🂠 " + v.hand_sizes[s]),
    ),
  );
  const def = el("div", { class: "kc-line" }, el("span", { class: "kc-line-label", text: t("defense") }));
  v.defense[s].forEach((d, i) => {
    const key = `card:def:${s}:${i}`;
    if (d.card === null) def.append(keyed(el("span", { class: "kc-wrapc" }, back(kit)), key, "back"));
    else {
      const down = !d.face_up; // and yet named: only its seat's view holds it
      const card = kit.cardName(d.card);
      let label;
      if (!down) label = card + (d.mercenary ? ` (${t("merc_mark")})` : "");
      else if (d.mercenary) label = t("merc_down", { card });
      else if (s === ctx.own) label = t("hidden_own", { card }); // the reader's own
      else label = t("hidden_seat", { card, name: kit.seatName(s) }); // a replay's "Seen by" another seat
      def.append(keyed(el("span", { class: "kc-wrapc" }, face(kit, d.card, { small: true, extra: down ? "kc-down" : "", label }), d.mercenary ? el("span", { class: "kc-m", "aria-hidden": "true", text: "M" }) : null), key, d.card));
    }
  });
  const att = el("div", { class: "kc-line" }, el("span", { class: "kc-line-label", text: t("attack") }));
  v.attack_lines[s].forEach((a, idx, arr) => {
    const current = v.phase === "play" && s === v.attacker && idx === arr.length - 1 && v.attack !== null;
    const label = kit.cardName(a.card) + (a.mercenary ? ` (${t("merc_mark")})` : "") + (current ? ` (${t("current_attack")})` : "");
    att.append(keyed(el("span", { class: "kc-wrapc" }, face(kit, a.card, { small: true, extra: current ? "kc-current" : "", label }), a.mercenary ? el("span", { class: "kc-m", "aria-hidden": "true", text: "M" }) : null), `card:att:${s}:${idx}`, a.card));
  });
  panel.append(def, att);
  return panel;
}

/** Every seat's panel around the table, the viewer's at the bottom (first in reading order;
 * the others follow in turn order, so a screen reader goes round the table). */
export function seatsTable(kit, ctx, folded = new Set()) {
  const n = kit.v.players;
  const table = el("section", { class: `kc-table kc-table-${n}`, "data-testid": "kami-table", "aria-label": kit.t("table") });
  const start = ctx.you === null || ctx.you === undefined ? 0 : ctx.you;
  for (let j = 0; j < n; j++) table.append(seatPanel(kit, ctx, (start + j) % n, PLACES[n][j], folded));
  return table;
}

/** The results of the last rounds, newest first, as the view records them. */
export function history(kit) {
  const { v, t } = kit;
  const hist = el("section", { class: "kc-hist", "data-testid": "kami-history" }, el("h3", { text: t("history") }));
  const list = el("ul");
  for (const h of v.history.slice(-6).reverse()) {
    const p = { round: h.round, name: h.seat >= 0 ? kit.seatName(h.seat) : "", card: h.card ? kit.cardName(h.card) : "", points: h.points };
    let key = "hist.out";
    if (h.kind === "redeal") key = "hist.redeal";
    else if (h.kind === "shi5x2") key = "hist.shi5x2";
    else if (h.kind.startsWith("shi")) { key = "hist.shi"; p.n = Number(h.kind.slice(3)); p.card = kit.cardName("soldier"); }
    else if (h.master_strike) key = "hist.master";
    list.append(el("li", { text: t(key, p) }));
  }
  hist.append(list);
  return hist;
}
