// Where a Buttons action stands on the board, for the analysis's played and best moves
// (ctx.show, RENDERERS.md; /static/show.js draws them): a placed marker's or a star's cell on
// the deciding seat's board. A roll, a stop or a decline has no place: show.js says it in words.
import { markMoves } from "/static/show.js";

export function targets(root, action, ctx) {
  if (action.type !== "place" && action.type !== "star") return [];
  const board = root.querySelector(`[data-testid="buttons-board-${ctx.show?.seat ?? 0}"]`);
  return [board?.querySelector(`[data-row="${action.row}"][data-col="${action.col}"]`)];
}

export const show = (root, ctx) => markMoves(root, ctx, targets);
