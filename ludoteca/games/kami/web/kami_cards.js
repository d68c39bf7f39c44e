// Kami and Goita cards: names, symbols (Goita's kanji when the font has them), faces and backs
// (the kit's cards), and the words a renderer needs about cards, seats and sides.
import { cardBack, cardFace } from "/static/kit.js";

export const NAMES = ["soldier", "spear", "horseman", "silver", "gold", "tower", "fool", "empress"];
const KANJI = ["し", "香", "馬", "銀", "金", "飛", "角", "王"];
const SYMBOL = ["♟", "↟", "♞", "Ag", "Au", "♜", "☾", "♛"];
const GOITA = ["Shi", "Gon", "Bakko", "Gin", "Kin", "Hisha", "Kaku", "Ou"];

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
export function face(kit, card, { small = false, extra = "", label = null } = {}) {
  const i = NAMES.indexOf(card);
  const name = kit.cardName(card);
  return cardFace({ cls: `kc-card kc-t${i} ${small ? "kc-small" : ""} ${extra}`, label: label || name,
    corner: kit.points(card), glyph: kit.goita && hasKanji() ? KANJI[i] : SYMBOL[i], name });
}

export function back(kit, { small = true, label = null, extra = "" } = {}) {
  return cardBack({ cls: `kc-card kc-back ${small ? "kc-small" : ""} ${extra}`, label: label || kit.t("facedown") });
}

