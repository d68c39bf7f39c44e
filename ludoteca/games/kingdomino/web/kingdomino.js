// Kingdomino renderer (the contract: /static/RENDERERS.md). Drawing and the placement interaction
// are in domino.js and its modules (domino_kingdom.js documents the click sequence).
import { ensureCss } from "/static/dom.js";
import { DOMINO_MESSAGES, destroyUi, partLines, renderDominoGame } from "./domino.js";
import { describeDomino } from "./domino_messages.js";
const show = new URL("./domino_show.js", import.meta.url).href; // loaded by the host when needed

const OWN = {
  en: { past_games: "Earlier games: {scores}" },
  es: { past_games: "Partidas anteriores: {scores}" },
};

const messages = {
  en: { ...DOMINO_MESSAGES.en, ...OWN.en },
  es: { ...DOMINO_MESSAGES.es, ...OWN.es },
};

/** Score lines for one kingdom: its parts and tie-break values as the engine sent them, and
 * the scores of the earlier games of a Dynasty. */
function scoreLines(ctx, kingdom, index) {
  const { view, t } = ctx;
  const lines = partLines(ctx, kingdom);
  if (view.past_games && view.past_games.length) {
    lines.push(t("past_games", { scores: view.past_games.map((g) => g[index].score).join(", ") }));
  }
  return lines;
}

function render(root, ctx) {
  ensureCss(new URL("kingdomino.css", import.meta.url));
  const { view } = ctx;
  const ids = [];
  for (let n = 1; n <= 48; n++) ids.push(n);
  renderDominoGame(root, ctx, {
    cls: "game-kingdomino",
    game: "kingdomino",
    sideOf: (seat) => seat,
    seatsOf: (i) => [i],
    dominoLabel: (n) => String(n),
    actingDomino: () =>
      view.phase === "play" && view.acting_domino != null
        ? view.current_line.find((d) => d.number === view.acting_domino) || null
        : null,
    placementAllowed: () => view.step === "place",
    scoreLines: (k, i) => scoreLines(ctx, k, i),
    tileIds: ids,
  });
}

export default {
  name: "kingdomino",
  messages,
  render,
  show, // the analysis's moves on the board (ctx.show)
  describe: describeDomino, // an action in words (the analysis, the coach)
  destroy(root) { destroyUi(root); },
};
