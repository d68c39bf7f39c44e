// The shell names no game (issue 38): the end-of-match chart marks each bar with its part and
// arguments and leaves the colours of a game's things to the game's stylesheet; the leaderboard
// opens on the first game the server lists. (No catalog is loaded: t() answers with its key.)
import assert from "node:assert/strict";
import fs from "node:fs";
import test from "node:test";

import { mount as mountLeaderboard } from "/static/leaderboard.js";
import { renderResult } from "/static/score.js";
import { TERRAINS } from "/static/games/kingdomino/domino_draw.js";

const part = (id, points, args = {}) => ({ id, msg: id, text: id, points, args });

test("the chart's bars say their part and one-word arguments; the game's stylesheet colours them", () => {
  const result = { scores: [9, 4], ranks: [1, 2], winners: [0], teams: [[0], [1]],
    sides: [{ seats: [0], score: 9, rank: 1 }, { seats: [1], score: 4, rank: 2 }],
    parts: [[part("territory", 6, { terrain: { msg: "wheat" }, squares: 3, square_count: { msg: "{n} squares", args: { n: 3 } } }),
      part("harmony", 3)], [part("territory", 4, { terrain: { msg: "lake" } })]] };
  const bars = [...renderResult(result, ["Ana", "Ben"]).querySelectorAll(".score-chart rect")];
  assert.deepEqual(bars.map((r) => [r.dataset.part, r.getAttribute("data-arg-terrain")]),
    [["territory", "wheat"], ["harmony", null], ["territory", "lake"]]);
  assert.equal(bars[0].getAttribute("data-arg-square_count"), null); // a sentence, not a word
  assert.equal(bars[0].getAttribute("fill"), bars[2].getAttribute("fill")); // one palette colour per part
  assert.notEqual(bars[0].getAttribute("fill"), bars[1].getAttribute("fill"));
  // the Kingdomino family colours every terrain's territory in its own colour (kingdomino.css)
  const css = fs.readFileSync(new URL("../../ludoteca/games/kingdomino/web/kingdomino.css", import.meta.url), "utf8");
  for (const terrain of TERRAINS) {
    assert.match(css, new RegExp(`\\.score-chart \\[data-part="territory"\\]\\[data-arg-terrain="${terrain}"\\] \\{ fill: var\\(--kd-${terrain}\\); \\}`));
  }
});

test("the leaderboard opens on the server's first game, and on none when there is none", async () => {
  const asked = [];
  globalThis.fetch = async (path) => { asked.push(path); return { ok: true, status: 200, json: async () => [] }; };
  const main = document.body.appendChild(document.createElement("main"));
  mountLeaderboard(main, {}, { games: [{ name: "toy", title: "Toy" }, { name: "other", title: "Other" }] });
  assert.deepEqual(asked, ["/api/seasons/toy", "/api/leaderboard/toy"]); // all-time first
  mountLeaderboard(main, {}, { games: [] });
  assert.equal(asked.length, 2);
  assert.match(main.textContent, /leaderboard\.empty/);
});
