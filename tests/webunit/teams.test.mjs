// The end of a team game (score.js): one row and one bar per side, ranks counted over sides,
// the team's points once, its members named, in English and Spanish; tied teams share a rank;
// seats without partners stay one row each. The shell's catalogs are read from disk (fetch is the file's).
import assert from "node:assert/strict";
import fs from "node:fs";
import test from "node:test";

import { setLang } from "/static/i18n.js";
import { renderResult, winnersText } from "/static/score.js";

globalThis.fetch = async (url) => ({ json: async () => JSON.parse(fs.readFileSync(new URL(url), "utf8")) });

const names = ["Ana", "Bot 2", "Ben", "Bot 4"];
const partA = [{ id: "out", text: "Deal 1, Ana: last attack: the Empress", points: 5 },
  { id: "out", text: "Deal 3, Ben: last attack: the Horseman", points: 9 }];
const partB = [{ id: "out", text: "Deal 2, Bot 2: last attack: the King", points: 18 }];
const kami = {
  scores: [14, 18, 14, 18], ranks: [3, 1, 3, 1], winners: [1, 3], teams: [[0, 2], [1, 3]],
  sides: [{ seats: [0, 2], score: 14, rank: 2 }, { seats: [1, 3], score: 18, rank: 1 }],
  parts: [partA, partB, partA, partB],
  tiebreak: [[{ id: "won", text: "did not win", value: 0 }], [{ id: "won", text: "won", value: 1 }],
    [{ id: "won", text: "did not win", value: 0 }], [{ id: "won", text: "won", value: 1 }]],
  tie_broken: [],
};

/** Each row of the score table as [rank, who, parts listed, score], best first. */
function rows(section) {
  return [...section.querySelectorAll(".score-table tbody tr")].map((tr) => [
    tr.children[0].textContent, tr.children[1].textContent, tr.querySelectorAll(".parts li").length,
    tr.children[3].textContent]);
}

test("a 4-player Kami ends as two teams: ranked 1st and 2nd, points once, members named", async () => {
  await setLang("en", false);
  const section = renderResult(kami, names);
  assert.deepEqual(rows(section), [["1", "Team B: Bot 2 and Bot 4", 1, "18"], ["2", "Team A: Ana and Ben", 2, "14"]]);
  assert.equal(section.querySelector(".winners").textContent, "Winner: Team B (Bot 2 and Bot 4)");
  assert.equal(section.querySelector(".score-table thead").textContent, "RankTeamPoints fromScore");
  assert.deepEqual([...section.querySelectorAll(".chart-label")].map((e) => e.textContent), ["Team A", "Team B"]);
  assert.deepEqual([...section.querySelectorAll(".chart-value")].map((e) => e.textContent), ["14", "18"]);
  assert.equal(section.querySelectorAll(".score-chart rect").length, 3); // the team's parts once, not per seat
  assert.equal(section.querySelector('[data-testid="result-side-1"]').dataset.seats, "1 3");
});

test("the same in Spanish", async () => {
  await setLang("es", false);
  const section = renderResult(kami, names);
  assert.deepEqual(rows(section), [["1", "Equipo B: Bot 2 y Bot 4", 1, "18"], ["2", "Equipo A: Ana y Ben", 2, "14"]]);
  assert.equal(section.querySelector(".winners").textContent, "Gana: Equipo B (Bot 2 y Bot 4)");
  assert.equal(section.querySelector(".score-table thead").textContent, "PuestoEquipoPuntos porPuntos");
  await setLang("en", false);
});

test("three teams with a tie: ranks over sides are 1, 1, 3", async () => {
  await setLang("en", false);
  const six = { scores: [20, 20, 9, 20, 20, 9], ranks: [1, 1, 5, 1, 1, 5], winners: [0, 1, 3, 4],
    teams: [[0, 3], [1, 4], [2, 5]], parts: [], tiebreak: [], tie_broken: [],
    sides: [{ seats: [0, 3], score: 20, rank: 1 }, { seats: [1, 4], score: 20, rank: 1 },
      { seats: [2, 5], score: 9, rank: 3 }] };
  const sixNames = ["P1", "P2", "P3", "P4", "P5", "P6"];
  assert.deepEqual(rows(renderResult(six, sixNames)).map((r) => [r[0], r[1], r[3]]),
    [["1", "Team A: P1 and P4", "20"], ["1", "Team B: P2 and P5", "20"], ["3", "Team C: P3 and P6", "9"]]);
  assert.equal(winnersText(six, sixNames), "Winners: Team A (P1 and P4), Team B (P2 and P5)");
});

test("without partners every seat is its own row, named as at the table", async () => {
  await setLang("en", false);
  const solo = { scores: [30, 30, 12], ranks: [1, 2, 3], winners: [0], teams: [[0], [1], [2]],
    sides: [{ seats: [0], score: 30, rank: 1 }, { seats: [1], score: 30, rank: 2 }, { seats: [2], score: 12, rank: 3 }],
    parts: [[{ id: "crowns", text: "Crowns", points: 30 }], [{ id: "crowns", text: "Crowns", points: 30 }], []],
    tiebreak: [], tie_broken: [] };
  const section = renderResult(solo, ["Ana", "Ben", "Bot 3"]);
  assert.deepEqual(rows(section), [["1", "Ana", 1, "30"], ["2", "Ben", 1, "30"], ["3", "Bot 3", 0, "12"]]);
  assert.equal(section.querySelector(".score-table thead").textContent, "RankPlayerPoints fromScore");
  assert.equal(section.querySelector(".winners").textContent, "Winner: Ana");
});
