// Kami and Goita renderer (one engine, ludoteca/games/kami). Plain ES module, no build step.
//
// Click sequence for a play (lead or counter), a compound choice:
//   1. click a source: a hand card [data-testid="kami-hand-<card>"] or a mercenary stack
//      [data-testid="kami-merc-<k>"]. If that source starts exactly one legal play, the source
//      itself carries data-action-index and the click sends it.
//   2. otherwise the source is selected (the first card of the play: the defense, or the lone
//      attack of ruling C1) and a chooser [data-testid="kami-chooser"] lists every legal play
//      starting with it as buttons with data-action-index; one click sends it. Escape or a second
//      click on the source cancels.
// Pass, declare and decide are plain buttons with data-action-index.

import { ensureCss, h as el } from "/static/dom.js";

const NAMES = ["soldier", "spear", "horseman", "silver", "gold", "tower", "fool", "empress"];
const KANJI = ["し", "香", "馬", "銀", "金", "飛", "角", "王"];
const SYMBOL = ["♟", "↟", "♞", "Ag", "Au", "♜", "☾", "♛"];
const GOITA = ["Shi", "Gon", "Bakko", "Gin", "Kin", "Hisha", "Kaku", "Ou"];

const messages = {
  en: {
    "title.kami": "Kami",
    "title.goita": "Goita",
    "card.soldier": "Soldier",
    "card.spear": "Spear",
    "card.horseman": "Horseman",
    "card.silver": "Silver Dragon",
    "card.gold": "Gold Dragon",
    "card.tower": "Tower",
    "card.fool": "Fool",
    "card.empress": "Empress",
    round: "Round {n}",
    target: "Target {n}",
    "dir.clockwise": "Clockwise ↻",
    "dir.counter-clockwise": "Counter-clockwise ↺",
    team: "Team {t}",
    "score.side": "{who}: {points}",
    you: "you",
    turn: "Turn: {names}",
    "status.lead": "Your lead: choose the card to play face down, then your attack.",
    "status.lead_mercs": "Your lead: choose the card to play face down (hand or mercenary), then your attack.",
    "status.lone": "Your last card: attack with it.",
    "status.counter": "{name} attacks with {card}. Counter with an identical card, or pass.",
    "status.cannot": "{name} attacks with {card}. You cannot counter: pass.",
    "status.chosen_lead": "Face down: {card}. Now choose your attack.",
    "status.chosen_counter": "Counter with {card}. Now choose your attack.",
    "status.wait": "Waiting for {names}.",
    "status.declare": "You hold {n} Soldiers. Reveal them so your partner may cancel the deal?",
    "status.declare_wait": "Waiting for {names}: Soldier check after the deal.",
    "status.decide": "{name} revealed {n} Soldiers. Redeal, or play this deal?",
    "status.over": "Game over. {who} won.",
    "status.over_you": "Game over. You won!",
    pass: "Pass",
    cancel: "Cancel",
    reveal: "Reveal Soldiers",
    quiet: "Keep quiet",
    redeal: "Redeal",
    play_on: "Play on",
    "choose.attack": "Attack with:",
    "choose.lone": "Attack alone",
    "play.label": "{def} then attack {att}",
    "play.lone": "Attack with {att} (no defense)",
    "src.merc": "Mercenary {k}: {card}",
    "src.hand": "{card} ×{n}",
    "your_hand": "Your hand",
    hand_count: "{n} cards in hand",
    defense: "Defense",
    attack: "Attack",
    facedown: "Face-down card",
    hidden_own: "{card}, face down (only you see it)",
    merc_mark: "mercenary",
    merc_down: "{card}, face down (a mercenary: it was seen face up)",
    mercenaries: "Mercenary stacks",
    "merc.empty": "Empty stack {k}",
    "merc.below": "a face-down card below",
    unused: "{n} cards out of play",
    looked: "You looked at: {card}",
    revealed: "revealed {n} Soldiers",
    unlocked: "The Empress may attack",
    "unlocked.goita": "Ou may attack",
    current_attack: "current attack",
    attacker: "attacker",
    history: "Results",
    "hist.out": "Round {round}: {name} went out with {card}, +{points}",
    "hist.master": "Round {round}: {name} went out with {card}, Master Strike ×2, +{points}",
    "hist.shi": "Round {round}: {name} held {n} {card}, +{points}",
    "hist.shi5x2": "Round {round}: both partners held five {card}, +{points}",
    "hist.redeal": "Round {round}: redeal",
    "nothing": "No cards",
    "need_select": "Choose a highlighted card first.",
  },
  es: {
    "title.kami": "Kami",
    "title.goita": "Goita",
    "card.soldier": "Soldado",
    "card.spear": "Lanza",
    "card.horseman": "Jinete",
    "card.silver": "Dragón de Plata",
    "card.gold": "Dragón de Oro",
    "card.tower": "Torre",
    "card.fool": "Loco",
    "card.empress": "Emperatriz",
    round: "Ronda {n}",
    target: "Objetivo {n}",
    "dir.clockwise": "Sentido horario ↻",
    "dir.counter-clockwise": "Sentido antihorario ↺",
    team: "Equipo {t}",
    "score.side": "{who}: {points}",
    you: "tú",
    turn: "Turno: {names}",
    "status.lead": "Te toca salir: elige la carta que juegas boca abajo y luego tu ataque.",
    "status.lead_mercs": "Te toca salir: elige la carta boca abajo (de la mano o un mercenario) y luego tu ataque.",
    "status.lone": "Tu última carta: ataca con ella.",
    "status.counter": "{name} ataca con {card}. Contraataca con una carta idéntica o pasa.",
    "status.cannot": "{name} ataca con {card}. No puedes contraatacar: pasa.",
    "status.chosen_lead": "Boca abajo: {card}. Ahora elige tu ataque.",
    "status.chosen_counter": "Contraataque con {card}. Ahora elige tu ataque.",
    "status.wait": "Esperando a {names}.",
    "status.declare": "Tienes {n} Soldados. ¿Los enseñas para que tu compañero pueda anular el reparto?",
    "status.declare_wait": "Esperando a {names}: revisión de Soldados tras el reparto.",
    "status.decide": "{name} ha enseñado {n} Soldados. ¿Repartir de nuevo o jugar este reparto?",
    "status.over": "Fin de la partida. Ha ganado {who}.",
    "status.over_you": "Fin de la partida. ¡Has ganado!",
    pass: "Pasar",
    cancel: "Cancelar",
    reveal: "Enseñar Soldados",
    quiet: "Callar",
    redeal: "Repartir de nuevo",
    play_on: "Seguir jugando",
    "choose.attack": "Atacar con:",
    "choose.lone": "Atacar sin defensa",
    "play.label": "{def} y ataque con {att}",
    "play.lone": "Atacar con {att} (sin defensa)",
    "src.merc": "Mercenario {k}: {card}",
    "src.hand": "{card} ×{n}",
    "your_hand": "Tu mano",
    hand_count: "{n} cartas en la mano",
    defense: "Defensa",
    attack: "Ataque",
    facedown: "Carta boca abajo",
    hidden_own: "{card}, boca abajo (solo tú la ves)",
    merc_mark: "mercenario",
    merc_down: "{card}, boca abajo (un mercenario: se vio boca arriba)",
    mercenaries: "Mercenarios",
    "merc.empty": "Mercenario {k} vacío",
    "merc.below": "una carta boca abajo debajo",
    unused: "{n} cartas fuera de juego",
    looked: "Has mirado: {card}",
    revealed: "ha enseñado {n} Soldados",
    unlocked: "La Emperatriz puede atacar",
    "unlocked.goita": "Ou puede atacar",
    current_attack: "ataque actual",
    attacker: "atacante",
    history: "Resultados",
    "hist.out": "Ronda {round}: {name} se queda sin cartas con {card}, +{points}",
    "hist.master": "Ronda {round}: {name} se queda sin cartas con {card}, golpe maestro ×2, +{points}",
    "hist.shi": "Ronda {round}: {name} tenía {n} {card}, +{points}",
    "hist.shi5x2": "Ronda {round}: los dos compañeros tenían cinco {card}, +{points}",
    "hist.redeal": "Ronda {round}: nuevo reparto",
    "nothing": "Sin cartas",
    "need_select": "Elige primero una carta resaltada.",
  },
};

// Transient UI state per root: the selected first source of a play, valid for one ply.
const ui = new WeakMap();
const keyHandlers = new WeakMap();
const lastCtx = new WeakMap();

function makeKit(root, ctx) {
  const v = ctx.view;
  const goita = v.game === "goita";
  const t = (k, p) => ctx.t(k, p);
  const cardName = (c) => (goita ? GOITA[NAMES.indexOf(c)] : t("card." + c));
  const points = (c) => v.card_values[c];
  const seatName = (s) => (s === ctx.you ? `${ctx.names[s]} (${t("you")})` : ctx.names[s]);
  const teams = v.teams.some((team) => team.length > 1);
  const sideName = (side) => {
    if (!teams) return seatName(v.teams[side][0]);
    const members = v.teams[side].map((i) => ctx.names[i]);
    return `${t("team", { t: "AB"[side] })} (${members.join(" & ")})`;
  };
  const srcName = (src) => {
    if (src === null) return "";
    if (src.startsWith("merc:")) {
      const k = Number(src.slice(5));
      return t("src.merc", { k: k + 1, card: cardName(v.mercenaries[k].top) });
    }
    return cardName(src);
  };
  const srcCard = (src) => (src && src.startsWith("merc:") ? v.mercenaries[Number(src.slice(5))].top : src);
  return { v, goita, t, cardName, points, seatName, sideName, srcName, srcCard, teams };
}

// Goita's kanji need a CJK font; without one (tofu), fall back to Kami's symbols.
let kanjiOk = null;
function hasKanji() {
  if (kanjiOk !== null) return kanjiOk;
  kanjiOk = true;
  try {
    const c = document.createElement("canvas");
    c.width = c.height = 24;
    const g = c.getContext("2d");
    const draw = (ch) => {
      g.clearRect(0, 0, 24, 24);
      g.font = "20px sans-serif";
      g.fillText(ch, 0, 20);
      return g.getImageData(0, 0, 24, 24).data.join(",");
    };
    const missing = draw("\u{10FFFD}");
    kanjiOk = KANJI.every((k) => draw(k) !== missing);
  } catch (e) {
    kanjiOk = true;
  }
  return kanjiOk;
}

// A card face. `small` for table lines; `extra` adds classes.
function face(kit, card, { small = false, extra = "", label = null } = {}) {
  const i = NAMES.indexOf(card);
  const name = kit.cardName(card);
  return el(
    "span",
    { class: `kc-card kc-t${i} ${small ? "kc-small" : ""} ${extra}`, title: label || name, "aria-label": label || name, role: "img" },
    el("span", { class: "kc-pts", "aria-hidden": "true", text: String(kit.points(card)) }),
    el("span", { class: "kc-glyph", "aria-hidden": "true", text: kit.goita && hasKanji() ? KANJI[i] : SYMBOL[i] }),
    el("span", { class: "kc-name", "aria-hidden": "true", text: name }),
  );
}

function back(kit, { small = true, label = null, extra = "" } = {}) {
  return el("span", {
    class: `kc-card kc-back ${small ? "kc-small" : ""} ${extra}`,
    role: "img",
    "aria-label": label || kit.t("facedown"),
    title: label || kit.t("facedown"),
  });
}

// Legal plays grouped by the source clicked first (defense, or the lone attack of C1).
function groupPlays(legal) {
  const groups = new Map();
  legal.forEach((a, i) => {
    if (a.type !== "play") return;
    const first = a.defense === null ? a.attack : a.defense;
    if (!groups.has(first)) groups.set(first, []);
    groups.get(first).push(i);
  });
  return groups;
}

function render(root, ctx) {
  ensureCss(new URL("kami.css", import.meta.url));
  lastCtx.set(root, ctx);
  const kit = makeKit(root, ctx);
  const { v, t } = kit;
  const legal = ctx.legal || [];
  const groups = groupPlays(legal);
  let state = ui.get(root);
  if (!state || state.ply !== v.ply || (state.sel !== null && !groups.has(state.sel))) {
    state = { ply: v.ply, sel: null };
    ui.set(root, state);
  }
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
  const status = el("p", { class: "kc-status", role: "status", "data-testid": "kami-status" });
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
      for (const i of groups.get(state.sel)) {
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

  // Your hand, identical cards grouped.
  if (Array.isArray(v.hand)) {
    const hand = el("section", { class: "kc-hand", "aria-label": t("your_hand"), "data-testid": "kami-hand" }, el("h3", { text: t("your_hand") }));
    const row = el("div", { class: "kc-row" });
    const counts = new Map();
    for (const c of v.hand) counts.set(c, (counts.get(c) || 0) + 1);
    if (!counts.size) row.append(el("span", { class: "kc-muted", text: t("nothing") }));
    for (const [c, n] of counts) {
      const label = n > 1 ? t("src.hand", { card: kit.cardName(c), n }) : kit.cardName(c);
      const s = sourceAttrs(c);
      const slot = el("span", { class: `kc-slot ${s.on ? "kc-legal" : legal.length && v.phase === "play" ? "kc-off" : ""} ${s.selected ? "kc-sel" : ""}`, "data-testid": `kami-hand-${c}`, ...s.attrs },
        face(kit, c, { label }),
        n > 1 ? el("span", { class: "kc-count", "aria-hidden": "true", text: "×" + n }) : null,
      );
      row.append(wire(slot, s));
    }
    hand.append(row);
    if (v.looked) hand.append(el("p", { class: "kc-note", text: "👁 " + t("looked", { card: kit.cardName(v.looked) }) }));
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
      const slot = el("span", { class: `kc-slot kc-stack ${m.below ? "kc-below" : ""} ${s.on ? "kc-legal" : ""} ${s.selected ? "kc-sel" : ""}`, "data-testid": `kami-merc-${k}`, ...s.attrs },
        face(kit, m.top, { small: true, label }),
        el("span", { class: "kc-m", "aria-hidden": "true", text: "M" + (k + 1) }),
      );
      row.append(wire(slot, s));
    });
    sec.append(row);
    wrap.append(sec);
  }

  // The table: each seat's lines, starting from you.
  const table = el("section", { class: "kc-table", "data-testid": "kami-table" });
  const n = v.players;
  const start = ctx.you === null || ctx.you === undefined ? 0 : ctx.you;
  for (let j = 0; j < n; j++) {
    const s = (start + j) % n;
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
    table.append(panel);
  }
  wrap.append(table);
  if (v.unused) wrap.append(el("p", { class: "kc-note", text: t("unused", { n: v.unused }) }));

  // Results of earlier rounds, newest first.
  if (v.history.length) {
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
    wrap.append(hist);
  }

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
  lastCtx.delete(root);
}

export default { name: "kami", messages, render, destroy };
