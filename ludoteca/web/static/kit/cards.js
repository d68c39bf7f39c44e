// Cards as HTML: a face (corner value, glyph, name) or a back, each an image with a label.
// The renderer gives the classes (its stylesheet draws them) and the words.
import { h } from "../dom.js";

/** A card face. cls: its classes; label: what it is called (aria-label and tooltip);
 * corner, glyph, name: the three marks printed on it (hidden from assistive tech). */
export function cardFace({ cls, label, corner, glyph, name, prefix = "kc" }) {
  return h("span", { class: cls, title: label, "aria-label": label, role: "img" },
    h("span", { class: `${prefix}-pts`, "aria-hidden": "true", text: String(corner) }),
    h("span", { class: `${prefix}-glyph`, "aria-hidden": "true", text: glyph }),
    h("span", { class: `${prefix}-name`, "aria-hidden": "true", text: name }));
}

/** A card's back: nothing shown but that it is there. */
export function cardBack({ cls, label }) {
  return h("span", { class: cls, role: "img", "aria-label": label, title: label });
}

/** Identical cards grouped: [[card, count]] in first-seen order. */
export function grouped(cards) {
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts];
}
