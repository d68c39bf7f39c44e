// Kami and Goita renderer (one engine, ludoteca/games/kami; the contract: /static/RENDERERS.md).
//
// Click sequence for a play (lead or counter), a compound choice (the kit's, over `legal`):
//   1. click a source: a hand card [data-testid="kami-hand-<card>"] or a mercenary stack
//      [data-testid="kami-merc-<k>"]. If that source starts exactly one legal play, the source
//      itself carries data-action-index and the click sends it.
//   2. otherwise the source is selected (the first card of the play: the defense, or the lone
//      attack of ruling C1) and a chooser [data-testid="kami-chooser"] lists every legal play
//      starting with it as buttons with data-action-index; one click sends it. Escape or a second
//      click on the source cancels.
// Pass, declare and decide are plain buttons with data-action-index.

import { ensureCss, h as el } from "/static/dom.js";
import { createChoice, statusLine } from "/static/kit.js";
import { describePlay, face, legend, makeKit } from "./kami_cards.js";
import { messages } from "./kami_messages.js";
import { recap, recapDue, recapId } from "./kami_recap.js";
import { history, seatsTable } from "./kami_table.js";
const show = new URL("./kami_show.js", import.meta.url).href; // loaded by the host when needed

// Transient UI state per root: the selected first source of a play, valid for one ply.
const ui = new WeakMap();
const closed = new WeakMap(); // root -> the recap the player closed (recapId)
const decided = new WeakMap(); // root -> {id, ply}: the player's first decision under a recap
const foldedSeats = new WeakMap(); // root -> the seats whose panels the viewer folded away
const keyHandlers = new WeakMap();
const lastCtx = new WeakMap();

/** The legal plays as a choice by their first card (the defense, or the lone attack of C1). */
function plays(legal, first) {
  return createChoice(legal, { first: (a) => (a.defense === null ? a.attack : a.defense) },
    { only: (a) => a.type === "play", picks: first === null ? {} : { first } });
}

function render(root, ctx) {
  ensureCss(new URL("kami.css", import.meta.url));
  lastCtx.set(root, ctx);
  const kit = makeKit(ctx);
  const { v, t } = kit;
  const legal = ctx.legal || [];
  let state = ui.get(root);
  if (!state || state.ply !== v.ply) {
    state = { ply: v.ply, sel: null };
    ui.set(root, state);
  }
  const choice = plays(legal, state.sel);
  state.sel = choice.has("first") ? choice.value("first") : null;
  const groups = choice.options("first");
  const rerender = () => render(root, ctx);
  const send = (i) => {
    state.sel = null;
    ctx.act(legal[i]);
  };

  const wrap = el("div", { class: `game-kami ${kit.goita ? "kc-goita" : ""}`, "data-testid": "kami-root" });

  // Header: title, round, target, direction, scores.
  const bar = el("div", { class: "kc-bar", "data-testid": "kami-actions" });
  const scores = el("div", { class: "kc-scores", "data-testid": "kami-scores" });
  v.scores.forEach((pts, side) => {
    const win = v.winner === side;
    scores.append(
      el("span", { class: `kc-score ${win ? "kc-win" : ""}` }, (win ? "★ " : "") + t("score.side", { who: kit.sideName(side), points: pts })),
    );
  });
  wrap.append(
    el(
      "header",
      { class: "kc-head" },
      el("strong", { text: t("title." + (kit.goita ? "goita" : "kami")) }),
      el("span", { text: t("round", { n: v.round }) }),
      el("span", { text: t("target", { n: v.target }) }),
      el("span", { text: t("dir." + v.direction) }),
      v.empress_unlocked ? el("span", { class: "kc-unlock", text: "♛ " + t(kit.goita ? "unlocked.goita" : "unlocked") }) : null,
    ),
    scores,
    bar,
  );

  // Status and the action bar.
  const status = statusLine("p", { class: "kc-status", "data-testid": "kami-status" });
  bar.append(status);
  const waitNames = () => v.to_act.map((s) => kit.seatName(s)).join(", ");
  const button = (i, label, cls = "") =>
    el("button", { type: "button", class: `kc-btn ${cls}`, "data-action-index": i, onclick: () => send(i) }, label);

  if (v.phase === "over") {
    const won = ctx.you !== null && ctx.you !== undefined && v.sides[ctx.you] === v.winner;
    status.textContent = won ? t("status.over_you") : t("status.over", { who: kit.sideName(v.winner) });
  } else if (legal.length === 0) {
    status.textContent = v.phase === "declare" ? t("status.declare_wait", { names: waitNames() }) : t("status.wait", { names: waitNames() });
  } else if (v.phase === "declare") {
    const n = (v.hand || []).filter((c) => c === "soldier").length;
    status.textContent = t("status.declare", { n });
    legal.forEach((a, i) => bar.append(button(i, a.reveal ? "⚑ " + t("reveal") : "✕ " + t("quiet"))));
  } else if (v.phase === "decide") {
    const holder = v.revealed.findIndex((n, s) => n > 0 && s !== ctx.you && v.sides[s] === v.sides[ctx.you]);
    const h = holder >= 0 ? holder : v.revealed.findIndex((n) => n > 0);
    status.textContent = t("status.decide", { name: kit.seatName(h), n: v.revealed[h] });
    legal.forEach((a, i) => bar.append(button(i, a.redeal ? "↺ " + t("redeal") : "▶ " + t("play_on"))));
  } else {
    // play phase
    const passIdx = legal.findIndex((a) => a.type === "pass");
    if (state.sel !== null) {
      status.textContent = t(v.leading ? "status.chosen_lead" : "status.chosen_counter", { card: kit.srcName(state.sel) });
    } else if (v.leading) {
      const lone = legal.every((a) => a.type === "play" && a.defense === null);
      status.textContent = lone ? t("status.lone") : t(v.mercenaries.length ? "status.lead_mercs" : "status.lead");
    } else {
      status.textContent = t(groups.size ? "status.counter" : "status.cannot", {
        name: kit.seatName(v.attacker),
        card: kit.cardName(v.attack),
      });
    }
    if (state.sel !== null) {
      const chooser = el("div", { class: "kc-chooser", "data-testid": "kami-chooser", role: "group", "aria-label": t("choose.attack") });
      chooser.append(el("span", { class: "kc-chooser-label", text: t("choose.attack") }));
      for (const i of choice.matching()) {
        const a = legal[i];
        const lone = a.defense === null;
        const label = lone ? t("play.lone", { att: kit.srcName(a.attack) }) : t("play.label", { def: kit.srcName(a.defense), att: kit.srcName(a.attack) });
        const b = el("button", { type: "button", class: "kc-opt", "data-action-index": i, "aria-label": label, title: label, onclick: () => send(i) },
          face(kit, kit.srcCard(a.attack), { small: true }),
          a.attack.startsWith("merc:") ? el("span", { class: "kc-m", text: "M" + (Number(a.attack.slice(5)) + 1) }) : null,
          lone ? el("span", { class: "kc-opt-note", text: t("choose.lone") }) : null,
        );
        chooser.append(b);
      }
      chooser.append(el("button", { type: "button", class: "kc-btn kc-cancel", "data-testid": "kami-cancel", onclick: () => { state.sel = null; rerender(); } }, "✕ " + t("cancel")));
      bar.append(chooser);
    }
    if (passIdx >= 0) bar.append(button(passIdx, "» " + t("pass"), "kc-pass"));
  }

  // A clickable source (hand type or mercenary stack).
  const sourceAttrs = (src) => {
    const opts = groups.get(src);
    if (!opts) return { attrs: { "aria-disabled": "true" }, on: false };
    const selected = state.sel === src;
    const attrs = {
      tabindex: "0",
      role: "button", // named by its content: the card face's label (an aria-label here
      // would have to repeat the visible points and glyph, for voice control)
      "aria-pressed": selected ? "true" : "false",
      "data-source": src,
    };
    if (opts.length === 1) attrs["data-action-index"] = opts[0];
    const activate = () => {
      if (opts.length === 1) return send(opts[0]);
      state.sel = selected ? null : src;
      rerender();
      const again = root.querySelector(`[data-source="${CSS.escape(src)}"]`);
      const first = root.querySelector(".kc-chooser [data-action-index]");
      (state.sel !== null && first ? first : again)?.focus();
    };
    return { attrs, on: true, activate, selected };
  };
  const wire = (node, s) => {
    if (!s.on) return node;
    node.addEventListener("click", s.activate);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        s.activate();
      }
    });
    return node;
  };

  // The hand of the seat whose view this is (identical cards grouped): the viewer's own, or, in a
  // replay, any seat's (ctx.own: the viewer's seat even where ctx.you is null).
  if (Array.isArray(v.hand)) {
    const title = v.seat === ctx.own ? t("your_hand") : t("hand_of", { name: ctx.names[v.seat] });
    const hand = el("section", { class: "kc-hand", "aria-label": title, "data-testid": "kami-hand",
      "data-own": v.seat === ctx.you ? "1" : null }, el("h3", { text: title }));
    const row = el("div", { class: "kc-row" });
    const counts = new Map();
    for (const c of v.hand) counts.set(c, (counts.get(c) || 0) + 1);
    if (!counts.size) row.append(el("span", { class: "kc-muted", text: t("nothing") }));
    for (const [c, n] of counts) {
      const label = n > 1 ? t("src.hand", { card: kit.cardName(c), n }) : kit.cardName(c);
      const s = sourceAttrs(c);
      const slot = el("span", { class: `kc-slot ${s.on ? "kc-legal" : legal.length && v.phase === "play" ? "kc-off" : ""} ${s.selected ? "kc-sel" : ""}`, "data-testid": `kami-hand-${c}`, "data-key": `hand:${c}`, "data-sig": String(n), ...s.attrs },
        face(kit, c, { label }),
        n > 1 ? el("span", { class: "kc-count", "aria-hidden": "true", text: "×" + n }) : null,
      );
      row.append(wire(slot, s));
    }
    hand.append(row);
    if (v.looked) hand.append(el("p", { class: "kc-note", text: "◉ " + t("looked", { card: kit.cardName(v.looked) }) }));
    wrap.append(hand);
  }

  // Mercenary stacks (2 players).
  if (v.mercenaries.length) {
    const sec = el("section", { class: "kc-mercs", "data-testid": "kami-mercs" }, el("h3", { text: t("mercenaries") }));
    const row = el("div", { class: "kc-row" });
    v.mercenaries.forEach((m, k) => {
      const src = "merc:" + k;
      if (m.top === null) {
        row.append(el("span", { class: "kc-slot kc-empty", role: "img", "aria-label": t("merc.empty", { k: k + 1 }), title: t("merc.empty", { k: k + 1 }) }, el("span", { class: "kc-m", text: "M" + (k + 1) })));
        return;
      }
      const label = t("src.merc", { k: k + 1, card: kit.cardName(m.top) }) + (m.below ? ", " + t("merc.below") : "");
      const s = sourceAttrs(src);
      const slot = el("span", { class: `kc-slot kc-stack ${m.below ? "kc-below" : ""} ${s.on ? "kc-legal" : ""} ${s.selected ? "kc-sel" : ""}`, "data-testid": `kami-merc-${k}`, "data-key": `merc:${k}`, "data-sig": `${m.top}:${m.below}`, ...s.attrs },
        face(kit, m.top, { small: true, label }),
        el("span", { class: "kc-m", "aria-hidden": "true", text: "M" + (k + 1) }),
      );
      row.append(wire(slot, s));
    });
    sec.append(row);
    wrap.append(sec);
  }

  // The recap of the deal that just ended, under the hand: it never hides a decision.
  const seen = decided.get(root) || { id: null, ply: null };
  if (recapDue(v, ctx.you, seen) && closed.get(root) !== recapId(v)) {
    if (legal.length && seen.id !== recapId(v)) decided.set(root, { id: recapId(v), ply: v.ply });
    wrap.append(recap(kit, ctx, () => {
      closed.set(root, recapId(v));
      render(root, lastCtx.get(root));
    }));
  }

  if (!foldedSeats.has(root)) foldedSeats.set(root, new Set());
  wrap.append(seatsTable(kit, ctx, foldedSeats.get(root)));
  if (v.unused) wrap.append(el("p", { class: "kc-note", text: t("unused", { n: v.unused }) }));
  if (v.history.length) wrap.append(history(kit));
  wrap.append(legend(kit));

  root.replaceChildren(wrap);

  if (!keyHandlers.has(root)) {
    const onKey = (e) => {
      const st = ui.get(root);
      if (e.key === "Escape" && st && st.sel !== null) {
        st.sel = null;
        render(root, lastCtx.get(root));
      }
    };
    root.addEventListener("keydown", onKey);
    keyHandlers.set(root, onKey);
  }
}

function destroy(root) {
  const h = keyHandlers.get(root);
  if (h) root.removeEventListener("keydown", h);
  keyHandlers.delete(root);
  ui.delete(root);
  closed.delete(root);
  decided.delete(root);
  foldedSeats.delete(root);
  lastCtx.delete(root);
}

// show: the analysis's moves (ctx.show); describe: a play in words
export default { name: "kami", messages, render, destroy, show, describe: (action, t) => describePlay(action, t) };
