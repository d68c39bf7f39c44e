// The end-of-deal recap: what the view's `last_round` says (view.py; nothing computed here):
// who went out and with what, the points, every side's total toward the target, and each
// seat's table as the deal ended (a card played face down stays a back unless the view names it).
// When a deal went out and the next ended at once (Goita, 6+ Shi), `last_round.earlier` holds
// the first: both are told, oldest first, each with the totals right after it. It is shown from
// the end of a deal until a card of the next deal is played or the player closes it; it never
// blocks a decision (it is not a modal) and a bot match goes on under it.
import { h as el } from "/static/dom.js";
import { back, face } from "./kami_cards.js";

/** Whether the recap belongs on screen now: from the end of a deal until a card of the next
 * one is played, and for a player until their first decision after it is made (so the player
 * sees it at least once, even when the bots play on). `seen`: {id, ply} kept per root by the
 * renderer, the ply of the player's first decision under this recap. */
export function recapDue(v, you, seen) {
  const last = v.last_round;
  if (!last) return false;
  if (v.phase === "over" || v.attack_lines.every((line) => line.length === 0)) return true;
  if (you === null || you === undefined) return false;
  if (seen.id !== recapId(v)) return true; // no decision of the player under this recap yet
  return seen.ply === null || v.ply <= seen.ply;
}

/** An identity for this recap, to remember that the player closed it. */
export const recapId = (v) => `${v.last_round.round}:${v.history.length}`;

/** The sentence saying how the deal ended (the history's own words). */
export function recapSentence(kit, last) {
  const { t } = kit;
  const p = { round: last.round, name: last.seat >= 0 ? kit.seatName(last.seat) : "", card: last.card ? kit.cardName(last.card) : "", points: last.points };
  let key = "hist.out";
  if (last.kind === "redeal") key = "hist.redeal";
  else if (last.kind === "shi5x2") key = "hist.shi5x2";
  else if (last.kind.startsWith("shi")) {
    key = "hist.shi";
    p.n = Number(last.kind.slice(3));
    p.card = kit.cardName("soldier");
  } else if (last.master_strike) key = "hist.master";
  return t(key, p);
}

/** The recap panel; `close` hides it. Every deal the view's recap tells, oldest first (a deal
 * that went out, then a Goita hand of 6+ Shi that ended the next deal at once): each its own
 * title, sentence, totals after it and, for a deal that was played, its table. */
export function recap(kit, ctx, close) {
  const { v, t } = kit;
  const ends = [...(v.last_round.earlier || []), v.last_round];
  const ids = ends.map((last) => `kc-recap-title-${last.round}`);
  const panel = el("section", { class: "kc-recap", "data-testid": "kami-recap", "aria-labelledby": ids.join(" ") });
  ends.forEach((last, i) => {
    const part = el("div", { class: "kc-recap-end", "data-testid": "kami-recap-end", "data-round": String(last.round) },
      el("div", { class: "kc-recap-head" },
        el("h3", { id: ids[i], text: t("recap.title", { n: last.round }) }),
        i === 0 ? el("button", { type: "button", class: "kc-btn kc-recap-close", "data-testid": "kami-recap-close", onclick: close }, "✕ " + t("recap.close")) : null),
      el("p", { class: "kc-recap-what", "data-testid": "kami-recap-what", text: recapSentence(kit, last) }));
    part.append(...recapEnd(kit, ctx, last));
    panel.append(part);
  });
  return panel;
}

/** One deal's totals and, if it was played, each seat's table as it ended. */
function recapEnd(kit, ctx, last) {
  const { v, t } = kit;
  const totals = el("ul", { class: "kc-recap-totals", "data-testid": "kami-recap-totals" });
  last.scores.forEach((pts, side) => {
    const gained = last.side === side && last.points ? ` (+${last.points})` : "";
    totals.append(el("li", { "data-testid": `kami-recap-total-${side}`, "data-points": String(pts) },
      t("recap.total", { who: kit.sideName(side), points: pts, target: last.target }) + gained));
  });
  if (!last.defense.length) return [totals];
  const seats = el("div", { class: "kc-recap-seats" });
  const n = v.players;
  const start = ctx.you === null || ctx.you === undefined ? 0 : ctx.you;
  for (let j = 0; j < n; j++) {
    const s = (start + j) % n;
    const out = s === last.seat;
    const row = el("div", { class: `kc-recap-seat ${out ? "kc-recap-out" : ""}`, "data-testid": `kami-recap-seat-${s}` },
      el("strong", { text: (out ? "★ " : "") + kit.seatName(s) }),
      el("span", { class: "kc-note", text: out ? t("recap.went_out") : t("hand_count", { n: last.hand_sizes[s] }) }));
    const cards = el("div", { class: "kc-row" });
    for (const d of last.defense[s]) {
      if (d.card === null) { cards.append(back(kit, { extra: "kc-was-down" })); continue; } // still hidden
      const label = kit.cardName(d.card) + (d.face_down ? ` (${t("recap.was_down")})` : "");
      cards.append(face(kit, d.card, { small: true, extra: d.face_down ? "kc-was-down" : "", label }));
    }
    if (!last.defense[s].length) cards.append(el("span", { class: "kc-muted", text: "—" }));
    cards.append(el("span", { class: "kc-recap-sep", "aria-hidden": "true", text: "⚔" }));
    last.attack_lines[s].forEach((a, i, all) => {
      const final = out && i === all.length - 1;
      const label = kit.cardName(a.card) + (final ? ` (${t("recap.final")})` : "");
      cards.append(face(kit, a.card, { small: true, extra: final ? "kc-current" : "", label }));
    });
    row.append(cards);
    seats.append(row);
  }
  return [totals, seats];
}
