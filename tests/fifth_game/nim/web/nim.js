// Nim's browser renderer: draws the pile and offers the legal actions the server sent (it
// computes no rule). Served from this folder at the URL /api/games gives.
import { h } from "/static/dom.js";

const messages = {
  en: { pile: "Stones left: {n}", take: "Take {n}", turn: "{name} to play", over: "{name} took the last stone" },
  es: { pile: "Quedan {n} piedras", take: "Coger {n}", turn: "Juega {name}", over: "{name} se llevó la última piedra" },
};

function render(root, ctx) {
  const { view, legal, t, names } = ctx;
  const status = view.winner >= 0
    ? t("over", { name: names[view.winner] })
    : t("turn", { name: names[view.turn] });
  // nothing in Nim is one seat's own: the pile the viewer takes from is their area (data-own)
  root.replaceChildren(h("section", { class: "nim", "data-testid": "nim", "data-own": "1" },
    h("p", { "data-testid": "nim-pile", role: "img", "aria-label": t("pile", { n: view.pile }) }, "● ".repeat(view.pile)),
    h("p", { role: "status" }, status),
    h("div", { class: "actions" }, legal.map((action, i) => h("button", {
      type: "button", "data-action-index": i, onclick: () => ctx.act(action),
    }, t("take", { n: action.count }))))));
}

export default { name: "nim", messages, render };
