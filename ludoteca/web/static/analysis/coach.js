// The coach at a live table (issue 25): at a table that allows hints, a "Hint" button while it
// is this person's decision sends {type: "hint", seq}; the server's `hint` message (to this
// socket only) is shown as the move and the one-sentence reason, and the move is drawn on the
// board as the best one (ctx.show). A hint belongs to its decision: it goes when the legal moves
// change (the hint's own public note moves `seq` on by one, and the decision stays open).
import { ensureCss, h } from "../dom.js";
import { t } from "../i18n.js";
import { canAct } from "../store.js";
import { describe, useRendererWords } from "./words.js";

/** options: {send(message), redraw(), words(action) (the renderer's words for a move, or null)};
 * table.js calls view(state) with its views, hear(message) for every server message, and
 * show(state) when it draws the game. */
export function coachView({ send, redraw, words = null }) {
  ensureCss(new URL("analysis.css", import.meta.url));
  useRendererWords(words);
  let hint = null, asked = null, state = null;
  const decision = (s) => JSON.stringify(s?.legal ?? []); // asked and hint keep the decision they belong to
  const text = h("p", { class: "coach-hint", "aria-live": "polite", "data-testid": "coach-hint" });
  const button = h("button", { type: "button", "data-testid": "hint", onclick: ask }, t("coach.ask"));
  const el = h("div", { class: "coach row", hidden: true, "data-testid": "coach" }, button, text);

  function ask() {
    if (!state || !canAct(state)) return;
    asked = decision(state);
    button.disabled = true;
    text.textContent = t("coach.thinking");
    if (!send({ type: "hint", seq: state.seq })) { asked = null; button.disabled = false; text.textContent = ""; }
  }

  return {
    el,
    view(now) {
      state = now;
      el.hidden = !now.table?.hints || now.you === null || now.status !== "playing";
      const open = canAct(now);
      if (hint && hint.decision !== decision(now)) { hint = null; text.textContent = ""; }
      if (asked !== null && asked !== decision(now)) asked = null;
      button.disabled = !open || asked !== null;
    },
    hear(message) {
      if (message.type === "error" && asked !== null) { asked = null; text.textContent = ""; button.disabled = !state || !canAct(state); }
      if (message.type !== "hint" || asked === null || asked !== decision(state)) return;
      hint = { ...message, decision: asked };
      asked = null;
      button.disabled = false;
      text.textContent = t("coach.said", { move: describe(message.action), why: message.why });
      redraw();
    },
    show(now) {
      if (!hint || hint.decision !== decision(now) || now.you === null) return null;
      return { seat: now.you, played: null, best: hint.action,
        words: { played: t("analysis.played_word"), best: t("coach.best_word") }, text: { best: describe(hint.action) } };
    },
  };
}
