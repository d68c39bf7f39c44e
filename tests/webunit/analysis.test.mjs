// The analysis's browser modules (issue 25): the advantage chart (one line per seat, judged
// moves as marks in shape and colour that jump the replay), the per-seat summary, the moves in
// words, and ctx.show drawn on the games' boards by their *_show.js.
import assert from "node:assert/strict";
import test from "node:test";

import { MARKS, advantageChart, legend, marked, series } from "/static/analysis/chart.js";
import { lessons } from "/static/analysis/learn.js";
import { judgedList, summaryRows, summaryTable } from "/static/analysis/summary.js";
import { describe, moveLine } from "/static/analysis/words.js";
import { translator } from "/static/i18n.js";
import { click, draw, showOf } from "./render.mjs";
import fs from "node:fs";

const catalog = (lang) => JSON.parse(fs.readFileSync(new URL(`../../ludoteca/web/static/i18n/${lang}.json`, import.meta.url), "utf8"));
const t = translator({ en: catalog("en"), es: catalog("es") }, "en");
const tes = translator({ en: catalog("en"), es: catalog("es") }, "es");
const names = ["Ana", "Bea"];

function move(ply, seat, judgement, before, after, loss, extra = {}) {
  return { ply, seat, action: { type: "claim", domino: 10 + ply }, legal: 4, forced: judgement === null,
    before: { win: before, score: [0, 0] }, after: { win: after, score: [0, 0] },
    best: { type: "claim", domino: 40 + ply }, loss: { win: loss, score: 0 }, stake: 10, judgement,
    accuracy: judgement === null ? null : 90, candidates: [], ...extra };
}

const analysis = {
  format: "ludoteca-analysis", version: 1, game: "kingdomino", players: 2, budget: 8, seed: 0,
  moves: [
    move(0, 0, "best", [50, 50], [52, 48], 0),
    move(1, 1, "inaccuracy", [48, 52], [55, 45], 7),
    move(2, 0, null, [55, 45], [55, 45], 0),
    move(3, 0, "blunder", [60, 40], [30, 70], 30),
    move(4, 1, "mistake", [70, 30], [59, 41], 11),
  ],
  seats: [
    { seat: 0, name: "Ana", moves: 2, accuracy: 71.25, judgements: { best: 1, good: 0, inaccuracy: 0, mistake: 0, blunder: 1 },
      start: { win: 50, score: 22 }, skill: { win: -30, score: -3 }, luck: { win: 4.5, score: 1 },
      others: { win: -24.5, score: 0 }, result: { win: 0, score: 20, rank: 2 } },
    { seat: 1, name: "Bea", moves: 2, accuracy: null, judgements: { best: 0, good: 0, inaccuracy: 1, mistake: 1, blunder: 0 },
      start: { win: 50, score: 22 }, skill: { win: 42.5, score: 9 }, luck: { win: -4.5, score: -1 },
      others: { win: 12, score: 0 }, result: { win: 100, score: 30, rank: 1 } },
  ],
};

test("the chart has one line per seat through every move's value after it", () => {
  assert.deepEqual(series(analysis)[0], [[0, 50], [1, 52], [2, 55], [3, 55], [4, 30], [5, 59]]);
  const chart = advantageChart(analysis, { t, names });
  const lines = chart.querySelectorAll("polyline");
  assert.equal(lines.length, 2);
  assert.equal(lines[0].getAttribute("points").split(" ").length, 6);
  assert.notEqual(lines[0].getAttribute("stroke-dasharray"), lines[1].getAttribute("stroke-dasharray")); // not colour alone
});

test("judged moves are marks of their own shape and colour, labelled, that jump to their move", () => {
  const picked = [];
  const chart = advantageChart(analysis, { t, names, pick: (ply) => picked.push(ply) });
  const points = [...chart.querySelectorAll(".chart-point")];
  assert.deepEqual(points.map((p) => p.dataset.ply), ["1", "3", "4"]); // not "best", not forced
  assert.deepEqual(marked(analysis).map((m) => m.judgement), ["inaccuracy", "blunder", "mistake"]);
  const shapes = points.map((p) => p.lastElementChild.tagName.toLowerCase());
  assert.deepEqual(shapes, ["circle", "polygon", "rect"]);
  assert.deepEqual(points.map((p) => p.lastElementChild.getAttribute("fill")),
    [MARKS.inaccuracy.colour, MARKS.blunder.colour, MARKS.mistake.colour]);
  assert.equal(points[1].getAttribute("aria-label"), "Move 4, Ana: blunder, −30.0 win-chance points");
  assert.equal(points[1].getAttribute("tabindex"), "0");
  click(points[1]);
  points[2].dispatchEvent(new window.KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  assert.deepEqual(picked, [3, 4]);
  assert.equal(legend(analysis, { t, names }).map(([, word]) => word).join("|"), "Ana|Bea|inaccuracy (?!)|mistake (?)|blunder (??)");
});

test("the replay's position is drawn on the chart, and the moves chosen after a hint", () => {
  const chart = advantageChart(analysis, { t, names, at: 3, hints: [[1, 1]] });
  assert.ok(chart.querySelector('[data-testid="chart-at"]'));
  assert.equal(chart.querySelector('[data-testid="chart-hint-1"]').getAttribute("aria-label"), "Move 2: Bea used a hint");
  assert.equal(legend(analysis, { t, names, hints: [[1, 1]] }).at(-1)[1], "a hint was used");
  assert.equal(advantageChart(analysis, { t, names }).querySelector(".chart-hint"), null);
});

test("the summary gives each seat's accuracy, judgements, and start, luck, skill and the others' moves adding up to its result", () => {
  assert.deepEqual(summaryRows(analysis, { t, names }), [
    ["Ana", "71.3", "0", "0", "1", "50.0", "+4.5", "−30.0", "−24.5", "0.0"],
    ["Bea", "—", "1", "1", "0", "50.0", "−4.5", "+42.5", "+12.0", "100.0"],
  ]);
  assert.deepEqual(summaryRows(analysis, { t: tes, names, lang: "es" })[0],
    ["Ana", "71,3", "0", "0", "1", "50,0", "+4,5", "−30,0", "−24,5", "0,0"]);
  const table = summaryTable(analysis, { t: tes, names });
  assert.match(table.textContent, /Precisión.*Errores graves.*Inicio.*Suerte.*Habilidad.*Jugadas de los demás.*Resultado/);
  // an analysis kept from before version 2 (no start, no others' moves) still reads
  const kept = { ...analysis, seats: analysis.seats.map(({ start, others, ...s }) => s) };
  assert.deepEqual(summaryRows(kept, { t, names })[0],
    ["Ana", "71.3", "0", "0", "1", "—", "+4.5", "−30.0", "—", "0.0"]);
});

test("moves in words: played and best, what was lost, the judgement; in Spanish too", async () => {
  const { useRendererWords } = await import("/static/analysis/words.js");
  const { default: kingdomino } = await import("/static/games/kingdomino/kingdomino.js");
  const { default: buttons } = await import("/static/games/buttons/buttons.js");
  // with no renderer's words the shell says an action as it is, in any language
  assert.equal(moveLine(analysis.moves[3], { t, names }),
    "Move 4, Ana: played claim domino 13, best claim domino 43: −30.0 win-chance points, blunder");
  assert.equal(moveLine(analysis.moves[0], { t, names }), "Move 1, Ana: played claim domino 10, the best move found");
  assert.equal(describe({ type: "place", x: 1, y: -2, dir: "N" }), "place x 1 y -2 dir N");
  // the game's renderer says them in its own words (RENDERERS.md `describe`)
  useRendererWords((a) => kingdomino.describe(a, translator(kingdomino.messages, "es")));
  try {
    assert.equal(moveLine(analysis.moves[4], { t: tes, names, lang: "es" }),
      "Jugada 5, Bea: jugó elegir el dominó 14, la mejor: elegir el dominó 44: −11,0 puntos de probabilidad de ganar, error");
  } finally {
    useRendererWords(null);
  }
  const en = translator(kingdomino.messages, "en");
  assert.equal(kingdomino.describe({ type: "place", x: 1, y: -2, dir: "N" }, en), "place the domino at 1, -2 towards the north");
  assert.equal(kingdomino.describe({ type: "roll" }, en), null); // not one of its actions: the shell's phrase
  assert.equal(buttons.describe({ type: "place", row: 2, col: 5 }, translator(buttons.messages, "es")), "marcar la fila 2, columna 5");
});

test("the judged list marks moves where a hint was used and jumps to them", () => {
  const picked = [];
  const list = judgedList(analysis, { t, names, pick: (p) => picked.push(p), hints: [[3, 0]] });
  const button = list.querySelector('[data-testid="judged-3"]');
  assert.match(button.textContent, /a hint was used/);
  click(button);
  assert.deepEqual(picked, [3]);
});

test("Learn from your mistakes steps through one's own mistakes and blunders", () => {
  assert.deepEqual(lessons(analysis, [0]).map((m) => m.ply), [3]);
  assert.deepEqual(lessons(analysis, [1]).map((m) => m.ply), [4]);
  assert.deepEqual(lessons(analysis, [1], true).map((m) => m.ply), [1, 4]);
});

test("Kingdomino draws the played placement solid and the best claim dashed, labelled", async () => {
  const { root, ctx, renderer } = await draw("kingdomino-2p-place");
  ctx.show = { seat: 0, played: { type: "place", x: -1, y: -1, dir: "E" }, best: { type: "claim", domino: 30 },
    words: { played: "played", best: "best" } };
  (await showOf(renderer))(root, ctx);
  const played = root.querySelector('[data-testid="kingdom-0"] [data-testid="show-played"]');
  const best = root.querySelector('[data-testid="line-next"] [data-testid="show-best"]');
  assert.ok(played && best);
  assert.equal(played.querySelector("rect").getAttribute("stroke-dasharray"), null);
  assert.ok(best.querySelector("rect").getAttribute("stroke-dasharray"));
  assert.equal(played.textContent, "played");
  (await showOf(renderer))(root, { ...ctx, show: { ...ctx.show, played: { type: "discard" } } }); // drawn again: no double marks
  assert.equal(root.querySelectorAll('[data-testid="show-best"]').length, 1);
  assert.equal(root.querySelectorAll('[data-testid="show-played"]').length, 0);
  assert.match(root.querySelector('[data-testid="show-note"]').textContent, /^played: /);
});

test("Buttons outlines the cells of the played and the best marks", async () => {
  const { root, ctx, renderer } = await draw("buttons-2p-place");
  ctx.show = { seat: 0, played: { type: "place", row: 1, col: 1 }, best: { type: "place", row: 1, col: 2 },
    words: { played: "played", best: "best" } };
  (await showOf(renderer))(root, ctx);
  const board = root.querySelector('[data-testid="buttons-board-0"]');
  assert.ok(board.querySelector('[data-testid="show-played"]') && board.querySelector('[data-testid="show-best"]'));
});

test("Queendomino draws a building on its square and its board space, a claim in the next line", async () => {
  const { root, ctx, renderer } = await draw("queendomino-2p-build");
  ctx.show = { seat: 0, played: { type: "build", space: 1, x: 0, y: -1 }, best: { type: "claim", domino: 12 },
    words: { played: "played", best: "best" } };
  (await showOf(renderer))(root, ctx);
  assert.ok(root.querySelector('[data-testid="kingdom-0"] [data-testid="show-played"]'));
  assert.ok(root.querySelector('[data-testid="space-1"] [data-testid="show-played"]')); // the HTML board space
  assert.equal(root.querySelector('[data-testid="space-1"]').style.outlineStyle || "solid", "solid");
  assert.ok(root.querySelector('[data-testid="line-next"] [data-testid="show-best"]'));
});

test("Kami outlines a play's pieces in the seat's own hand, else says it in words", async () => {
  const { root, ctx, renderer } = await draw("kami-2p-lead");
  ctx.show = { seat: 0, played: { type: "play", defense: "soldier", attack: "horseman" }, best: { type: "pass" },
    words: { played: "played", best: "best" }, text: { played: "defend with soldier", best: "pass" } };
  (await showOf(renderer))(root, ctx);
  const marked = [...root.querySelectorAll('[data-show-mark="played"]')].map((e) => e.getAttribute("data-source"));
  assert.deepEqual(marked.sort(), ["horseman", "soldier"]);
  assert.equal(root.querySelector('[data-testid="show-note"]').textContent, "best: pass");
});

test("a renderer's own words name a Kami or Goita play; without them the shell's phrase", async () => {
  const { default: kami } = await import("/static/games/kami/kami.js");
  const { default: goita } = await import("/static/games/goita/goita.js");
  const { useRendererWords } = await import("/static/analysis/words.js");
  const play = { type: "play", defense: "soldier", attack: "merc:2" };
  const es = translator(kami.messages, "es");
  assert.equal(kami.describe(play, es), "defender con Soldado, atacar con mercenario 3");
  assert.equal(goita.describe({ type: "play", defense: null, attack: "gold" }, translator(goita.messages, "en")),
    "attack with Kin");
  assert.equal(kami.describe({ type: "pass" }, es), "pasar");
  assert.equal(kami.describe({ type: "declare", reveal: true }, es), "revelar y preguntar al compañero");
  assert.equal(kami.describe({ type: "roll" }, es), null); // not a Kami action: the shell says it
  useRendererWords((a) => kami.describe(a, translator(kami.messages, "en")));
  try {
    assert.equal(describe(play), "defend with Soldier, attack with mercenary 3");
    assert.equal(describe({ type: "decide", redeal: false }), "play the round on");
    assert.equal(describe({ type: "roll" }), "roll");
  } finally {
    useRendererWords(null);
  }
  assert.equal(describe(play), "play defense soldier attack merc:2"); // the generic phrase
});
