// Kami and Goita cards: names, our own SVG art (a tile per rank: Kami's cards are rounded
// cards, Goita's pieces are pentagons as on a shogi board; each rank has its own icon shape, so
// they differ by shape and not by colour only), face-down backs, and the words a renderer needs
// about cards, seats and sides. The points printed on a card come from the view's card_values.
import { h as el, svg } from "/static/dom.js";

export const NAMES = ["soldier", "spear", "horseman", "silver", "gold", "tower", "fool", "empress"];
const KANJI = ["し", "香", "馬", "銀", "金", "飛", "角", "王"];
const GOITA = ["Shi", "Gon", "Bakko", "Gin", "Kin", "Hisha", "Kaku", "Ou"];

// One icon per rank on a 40 x 40 box: a pawn, a spear, a horseshoe, a diamond (silver), a
// hexagonal coin (gold), a tower, a crescent (the fool) and a crown (the empress).
const ICONS = [
  "M20 7a5.5 5.5 0 1 1 0 11a5.5 5.5 0 1 1 0-11ZM16 19h8l4 14H12Z",
  "M20 4l6 11h-4.5v19h-3V15H14Z",
  "M11 34V20a9 9 0 0 1 18 0v14h-5.5V20a3.5 3.5 0 0 0-7 0v14Z",
  "M20 4l12 16-12 16L8 20ZM20 11l-6.5 9 6.5 9 6.5-9Z",
  "M20 4l14 8v16l-14 8-14-8V12ZM20 13a7 7 0 1 0 0 14a7 7 0 1 0 0-14Z",
  "M9 35V11h5v5h4v-5h4v5h4v-5h5v24h-8v-7a3 3 0 0 0-6 0v7Z",
  "M26 6.2A15 15 0 1 0 26 33.8A16 16 0 0 1 26 6.2Z",
  "M7 31l2-20 7 9 4-13 4 13 7-9 2 20ZM7 33h26v3H7Z",
];
const KAMI_SHAPE = "M4 1h32a3 3 0 0 1 3 3v48a3 3 0 0 1-3 3H4a3 3 0 0 1-3-3V4a3 3 0 0 1 3-3Z";
const GOITA_SHAPE = "M20 1L35 8l4 47H1L5 8Z";

/** An action in words for the analysis and the coach (RENDERERS.md `describe`): a play's pieces
 * by name ("merc:2" is mercenary stack 3), a pass, the Demoralized declaration and the partner's
 * decision; null for any other action (the shell says it as it is). */
export function describePlay(action, t, goita = false) {
  if (action?.type === "pass") return t("say.pass");
  if (action?.type === "declare") return t(action.reveal ? "say.reveal" : "say.quiet");
  if (action?.type === "decide") return t(action.redeal ? "say.redeal" : "say.play_on");
  if (action?.type !== "play") return null;
  const name = (src) => (src.startsWith("merc:") ? t("say.merc", { k: Number(src.slice(5)) + 1 })
    : goita ? GOITA[NAMES.indexOf(src)] : t("card." + src));
  return action.defense == null ? t("say.attack", { attack: name(action.attack) })
    : t("say.play", { defense: name(action.defense), attack: name(action.attack) });
}

export function makeKit(ctx) {
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

// Goita's kanji need a CJK font; without one (tofu) the card shows its icon and name only.
let kanjiOk = null;
function hasKanji() {
  if (kanjiOk !== null) return kanjiOk;
  kanjiOk = false;
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
    kanjiOk = false;
  }
  return kanjiOk;
}

/** The drawing of a card of rank `i` (or a back when i < 0), behind the card's text. */
export function tile(goita, i) {
  const shape = goita ? GOITA_SHAPE : KAMI_SHAPE;
  const art = svg("svg", { class: "kc-art", viewBox: "0 0 40 56", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: shape, class: "kc-bg" }));
  if (i < 0) {
    // the back: a lattice and a four-pointed star of our own
    art.append(svg("path", { d: "M8 12h24M8 20h24M8 28h24M8 36h24M8 44h24M12 8v42M20 8v42M28 8v42", class: "kc-lattice" }),
      svg("path", { d: "M20 17l3 8 8 3-8 3-3 8-3-8-8-3 8-3Z", class: "kc-emblem" }));
    return art;
  }
  art.append(svg("path", { d: ICONS[i], class: "kc-icon", transform: "translate(6 11) scale(.7)" }));
  return art;
}

/** A card face: its drawing, points and name (and Goita's kanji when the font has them). */
export function face(kit, card, { small = false, extra = "", label = null } = {}) {
  const i = NAMES.indexOf(card);
  const name = kit.cardName(card);
  const tag = label || name;
  return el("span", { class: `kc-card kc-t${i} ${small ? "kc-small" : ""} ${extra}`, role: "img", "aria-label": tag, title: tag },
    tile(kit.goita, i),
    el("span", { class: "kc-pts", "aria-hidden": "true", text: String(kit.points(card)) }),
    kit.goita && hasKanji() ? el("span", { class: "kc-kanji", "aria-hidden": "true", text: KANJI[i] }) : null,
    el("span", { class: "kc-name", "aria-hidden": "true", text: name }));
}

/** A face-down card: nothing shown but that it is there. */
export function back(kit, { small = true, label = null, extra = "" } = {}) {
  const tag = label || kit.t("facedown");
  return el("span", { class: `kc-card kc-back ${small ? "kc-small" : ""} ${extra}`, role: "img", "aria-label": tag, title: tag },
    tile(kit.goita, -1));
}

/** The legend: every rank's card and its points, in the view's values. */
export function legend(kit) {
  const { t } = kit;
  const list = el("ul", { class: "kc-legend-list" });
  for (const card of NAMES) {
    list.append(el("li", {}, face(kit, card, { small: true }),
      el("span", { text: t("legend.card", { card: kit.cardName(card), points: kit.points(card) }) })));
  }
  return el("details", { class: "kc-legend", "data-testid": "kami-legend" },
    el("summary", { text: t("legend") }), list,
    el("p", { class: "kc-note" }, back(kit), " " + t("legend.back")));
}
