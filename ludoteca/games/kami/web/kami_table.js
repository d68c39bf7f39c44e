// The Kami and Goita table: each seat's defence and attack lines starting from the viewer (hidden
// cards as backs, the viewer's own face-down cards marked), and the results of earlier rounds.
import { h as el } from "/static/dom.js";
import { back, face } from "./kami_cards.js";

/** One seat's panel: name, badges, hand size, and its two lines. */
function seatPanel(kit, ctx, s) {
  const { v, t } = kit;
  const turn = v.to_act.includes(s);
  const panel = el("div", { class: `kc-seat ${turn ? "kc-turn" : ""} kc-side${v.sides[s]}`, "data-testid": `kami-seat-${s}` });
  const badges = [];
  if (kit.teams) badges.push(el("span", { class: "kc-team", text: t("team", { t: "AB"[v.sides[s]] }) }));
  if (turn) badges.push(el("span", { class: "kc-badge", text: "▶" }));
  if (v.phase === "play" && v.attacker === s && v.attack !== null) badges.push(el("span", { class: "kc-badge kc-att", text: "⚔ " + t("attacker") }));
  if (v.revealed[s]) badges.push(el("span", { class: "kc-badge", text: t("revealed", { n: v.revealed[s] }) }));
  panel.append(
    el("div", { class: "kc-seat-head" },
      el("strong", { text: kit.seatName(s) }),
      ...badges,
      el("span", { class: "kc-hc", title: t("hand_count", { n: v.hand_sizes[s] }), "aria-label": t("hand_count", { n: v.hand_sizes[s] }) }, "🂠 " + v.hand_sizes[s]),
    ),
  );
  const def = el("div", { class: "kc-line" }, el("span", { class: "kc-line-label", text: t("defense") }));
  for (const d of v.defense[s]) {
    if (d.card === null) def.append(back(kit));
    else {
      const own = !d.face_up;
      const label = own
        ? t(d.mercenary ? "merc_down" : "hidden_own", { card: kit.cardName(d.card) })
        : kit.cardName(d.card) + (d.mercenary ? ` (${t("merc_mark")})` : "");
      def.append(el("span", { class: "kc-wrapc" }, face(kit, d.card, { small: true, extra: own ? "kc-down" : "", label }), d.mercenary ? el("span", { class: "kc-m", "aria-hidden": "true", text: "M" }) : null));
    }
  }
  const att = el("div", { class: "kc-line" }, el("span", { class: "kc-line-label", text: t("attack") }));
  v.attack_lines[s].forEach((a, idx, arr) => {
    const current = v.phase === "play" && s === v.attacker && idx === arr.length - 1 && v.attack !== null;
    const label = kit.cardName(a.card) + (a.mercenary ? ` (${t("merc_mark")})` : "") + (current ? ` (${t("current_attack")})` : "");
    att.append(el("span", { class: "kc-wrapc" }, face(kit, a.card, { small: true, extra: current ? "kc-current" : "", label }), a.mercenary ? el("span", { class: "kc-m", "aria-hidden": "true", text: "M" }) : null));
  });
  panel.append(def, att);
  return panel;
}

/** Every seat's panel, the viewer's first. */
export function seatsTable(kit, ctx) {
  const table = el("section", { class: "kc-table", "data-testid": "kami-table" });
  const n = kit.v.players;
  const start = ctx.you === null || ctx.you === undefined ? 0 : ctx.you;
  for (let j = 0; j < n; j++) table.append(seatPanel(kit, ctx, (start + j) % n));
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
