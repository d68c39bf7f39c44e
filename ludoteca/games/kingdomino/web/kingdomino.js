// Kingdomino renderer (contract: notes/web_contract.md). Drawing and the placement interaction
// are in domino.js (see the comment at its top for the click sequences).
import { ensureCss } from "/static/dom.js";
import {
  DOMINO_MESSAGES, bounds, destroyUi, renderDominoGame, territories, territoryLines,
} from "./domino.js";

const OWN = {
  en: {
    bonus_harmony: "Harmony: +{points}",
    bonus_harmony_no: "Harmony: not complete (0)",
    bonus_middle: "Middle Kingdom: +{points}",
    bonus_middle_no: "Middle Kingdom: castle not centred (0)",
    engine_total: "Total from the engine: {score}",
    past_games: "Earlier games: {scores}",
    largest: "Largest territory: {n} squares; crowns: {c}",
  },
  es: {
    bonus_harmony: "Armonía: +{points}",
    bonus_harmony_no: "Armonía: reino incompleto (0)",
    bonus_middle: "Reino Medio: +{points}",
    bonus_middle_no: "Reino Medio: castillo no centrado (0)",
    engine_total: "Total según el motor: {score}",
    past_games: "Partidas anteriores: {scores}",
    largest: "Territorio mayor: {n} casillas; coronas: {c}",
  },
};

const messages = {
  en: { ...DOMINO_MESSAGES.en, ...OWN.en },
  es: { ...DOMINO_MESSAGES.es, ...OWN.es },
};

/** Score lines for one kingdom: territories, the optional bonuses, tie-break values. */
function scoreLines(ctx, kingdom, index) {
  const { view, t } = ctx;
  const terrs = territories(kingdom);
  const lines = territoryLines(t, terrs);
  let total = terrs.reduce((a, tr) => a + tr.points, 0);
  const f = view.frame;
  const b = bounds(kingdom);
  const full = b.x1 - b.x0 + 1 === f && b.y1 - b.y0 + 1 === f;
  if (view.options.harmony) {
    const ok = full && kingdom.squares.length + 1 === f * f;
    lines.push(ok ? t("bonus_harmony", { points: 5 }) : t("bonus_harmony_no"));
    if (ok) total += 5;
  }
  if (view.options.middle_kingdom) {
    const half = (f - 1) / 2;
    const ok = full && kingdom.castle[0] - b.x0 === half && kingdom.castle[1] - b.y0 === half;
    lines.push(ok ? t("bonus_middle", { points: 10 }) : t("bonus_middle_no"));
    if (ok) total += 10;
  }
  const largest = terrs.reduce((a, tr) => Math.max(a, tr.squares), 0);
  const crowns = kingdom.squares.reduce((a, q) => a + q.crowns, 0);
  lines.push(t("largest", { n: largest, c: crowns }));
  if (total !== kingdom.score) lines.push(t("engine_total", { score: kingdom.score }));
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
  destroy(root) { destroyUi(root); },
};
