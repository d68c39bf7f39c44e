// Where a Kami (and Goita) action stands on the table, for the analysis's played and best moves
// (ctx.show, RENDERERS.md; /static/show.js draws them): a play's defence and attack pieces in
// the deciding seat's hand when the view shows it (its own view, or a finished deal). A pass,
// a declaration, a redeal, or a hand the view hides: show.js says it in words.
import { markMoves } from "/static/show.js";

const piece = (root, src) => src == null ? null
  : root.querySelector(`[data-source="${CSS.escape(src)}"]`) || root.querySelector(`[data-testid="kami-hand-${CSS.escape(src)}"]`);

export function targets(root, action) {
  if (action.type !== "play") return [];
  return [piece(root, action.defense), piece(root, action.attack)];
}

export const show = (root, ctx) => markMoves(root, ctx, targets);
