// Where an action of the Kingdomino family stands on the board, for the analysis's played and
// best moves (ctx.show, RENDERERS.md; /static/show.js draws them): a placement's two squares
// and a knight's or a building's square in the deciding seat's kingdom, a claim's domino in
// the next line, a building's board space, a dragon's. Discards and passes have no place:
// show.js says them in words.
import { markMoves } from "/static/show.js";

const STEP = { E: [1, 0], S: [0, 1], W: [-1, 0], N: [0, -1] }; // the second half's square

export function targets(root, action, ctx) {
  const seat = ctx.show?.seat ?? 0;
  const side = ctx.view?.sides ? ctx.view.sides[seat] : seat;
  const kingdom = root.querySelector(`[data-testid="kingdom-${side}"]`);
  const cell = (x, y) => kingdom?.querySelector(`[data-x="${x}"][data-y="${y}"]`);
  switch (action.type) {
    case "place": {
      const [dx, dy] = STEP[action.dir] || [0, 0];
      return [cell(action.x, action.y), cell(action.x + dx, action.y + dy)];
    }
    case "knight":
      return [cell(action.x, action.y)];
    case "build":
      return [cell(action.x, action.y), root.querySelector(`[data-testid="space-${action.space}"]`)];
    case "dragon":
      return [root.querySelector(`[data-testid="space-${action.space}"]`)];
    case "claim":
      return [root.querySelector(`[data-testid="line-next"] [data-domino="${action.domino}"]`)];
    default:
      return [];
  }
}

export const show = (root, ctx) => markMoves(root, ctx, targets);
