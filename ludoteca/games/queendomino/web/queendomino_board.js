// The builders' board: each space's price (and the Queen's host's, as the view says), its
// building and effects, and the legal choices on it: pick the building to build (the first
// step of the build choice), or burn it with the Dragon. Then the pile, Queen and Dragon.
import { h } from "/static/dom.js";
import { indexOf as legalIndex } from "/static/kit/choice.js";
import { nameOf } from "../kingdomino/domino_draw.js";
import { bname, effects } from "./queendomino_messages.js";

/** builds: the build choice (the kit's, steps space and cell); st.buildSpace: the space picked. */
export function boardPanel(ctx, st, builds, mySide, redraw) {
  const { view, legal, t } = ctx;
  const box = h("section", { class: "qd-board", "data-testid": "builders-board" });
  box.append(h("h4", {}, t("board_title")));
  const ul = h("ul", { class: "qd-spaces" });
  const hostsQueen = mySide != null && view.kingdoms[mySide] && view.kingdoms[mySide].queen;
  for (const sp of view.board) {
    const b = sp.building;
    const li = h("li", { class: "qd-space" + (st.buildSpace === sp.space ? " qd-selected" : ""), "data-testid": `space-${sp.space}` });
    li.append(h("div", { class: "qd-price" }, hostsQueen ? t("price_q", { n: sp.price, m: sp.queen_price }) : t("price", { n: sp.price })));
    if (sp.dragon) li.append(h("div", {}, t("dragon_here")));
    if (b) {
      li.append(h("div", {}, h("strong", {}, `#${b.id} ${bname(t, b)}${b.inferred ? " *" : ""}`)));
      li.append(h("div", { class: "qd-effects" }, effects(t, b).join(" · ")));
      if (b.inferred) li.append(h("div", { class: "kd-note" }, t("eff_inferred")));
      if (builds.options("space").has(sp.space)) {
        const sel = st.buildSpace === sp.space;
        li.append(h("button", { type: "button", class: "kd-btn" + (sel ? " kd-primary" : ""), "data-testid": `build-space-${sp.space}`,
          "aria-pressed": String(sel), "aria-label": t("build_label", { name: bname(t, b), space: sp.space }),
          onclick: () => { st.buildSpace = sel ? null : sp.space; redraw(); } }, t(sel ? "build_selected" : "build_select")));
      }
      const di = legalIndex(legal, (a) => a.type === "dragon" && a.space === sp.space);
      if (di >= 0) {
        li.append(h("button", { type: "button", class: "kd-btn kd-danger", "data-testid": `dragon-${sp.space}`, "data-action-index": di,
          "aria-label": t("burn_label", { name: bname(t, b), space: sp.space }), onclick: () => ctx.act(legal[di]) }, t("burn")));
      }
    } else {
      li.append(h("div", { class: "kd-note" }, t("empty_space")));
    }
    ul.append(li);
  }
  box.append(ul);
  const seatsOfSide = (side) => (view.sides || []).map((sd, seat) => (sd === side ? seat : -1)).filter((x) => x >= 0);
  const queenName = view.queen != null ? (seatsOfSide(view.queen).map((sx) => nameOf(ctx, sx)).join(" + ") || nameOf(ctx, view.queen)) : null;
  box.append(h("p", { class: "kd-note" },
    [t("pile", { n: view.building_pile }),
      queenName ? t("queen_at", { name: queenName }) : t("queen_none"),
      view.dragon != null ? t("dragon_out", { n: view.dragon }) : t("dragon_cave")].join(" · ")));
  if (view.burnt.length) box.append(h("p", { class: "kd-note" }, t("burnt", { list: view.burnt.map((b) => bname(t, b)).join(", ") })));
  return box;
}
