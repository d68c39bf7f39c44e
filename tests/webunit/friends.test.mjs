// The player page's parts of issue 36 mounted alone (friends.js through player.js): the numbers
// per game and the rating chart, follow / block / challenge on another's page, and on one's own
// page the friends (online, a watch link only for public tables) and the challenges to answer.
// (No catalog is loaded: t() answers with its key.)
import assert from "node:assert/strict";
import test from "node:test";

import { optionsText, ratingChart } from "/static/friends.js";
import { mount as mountPlayer } from "/static/player.js";

import { by, fakeFetch, main, submit, until } from "./page_harness.mjs";

globalThis.FormData = window.FormData;

const GAME = { name: "toy", title: "Toy", min_players: 2, max_players: 3, bots: ["random"], labels: {}, options: [] };
const STATS = [{ game: "toy", matches: 3, wins: 2, mean_score: 41.33, best_score: 50,
  rating: [["2026-12-01T10:00:00+00:00", 1510], ["2026-12-02T10:00:00+00:00", 1490], ["2026-12-03T10:00:00+00:00", 1530]],
  favourite_options: [{ options: {}, matches: 2 }, { options: { fast: true }, matches: 1 }] }];

function fakeShell(me) {
  const asked = [];
  const listeners = new Set();
  return {
    asked, listeners, me, games: [GAME], waiting: new Set(),
    on(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    navigate(hash) { asked.push(["navigate", hash]); },
    async refreshMe() { asked.push(["refreshMe"]); },
  };
}

const bea = (extra) => ({ name: "bea", display_name: "Bea", guest: false, ratings: [], matches: [], stats: STATS,
  following: false, blocked: false, ...extra });

test("the rating chart draws one point per rated match, lowest and highest marked, and nothing without matches", () => {
  const chart = ratingChart(STATS[0].rating, "Rating");
  assert.equal(chart.querySelectorAll("circle").length, 3);
  const ys = [...chart.querySelectorAll("circle")].map((c) => Number(c.getAttribute("cy")));
  assert.ok(ys[1] > ys[0] && ys[0] > ys[2]); // 1490 lowest on screen-down, 1530 highest
  assert.deepEqual([...chart.querySelectorAll("text")].map((x) => x.textContent), ["1530", "1490"]);
  assert.equal(ratingChart([], "Rating"), null);
  assert.equal(ratingChart([["2026-12-01T10:00:00+00:00", 1500]], "R").querySelectorAll("circle").length, 1);
  assert.equal(optionsText({}), "—");
  assert.equal(optionsText({ fast: true, size: 7 }), "fast: common.yes, size: 7");
  // in the game's own words where its labels have them (the player page's favourite options)
  const game = { labels: { en: { fast: "Fast play", "mode.long": "The long game" } } };
  assert.equal(optionsText({ fast: false, mode: "long", size: 7 }, game),
    "Fast play: common.no, mode: The long game, size: 7");
});

test("another player's page shows their numbers and lets you follow, block and challenge them", async () => {
  let following = false;
  const requests = fakeFetch({
    "GET /api/users/bea": () => bea({ following }),
    "PUT /api/users/bea/follow": () => { following = true; return { following: true }; },
    "POST /api/users/bea/challenge": { id: "c1", table: "T1", status: "open" },
  });
  const shell = fakeShell({ name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mountPlayer(root, { id: "bea" }, shell);
  await until(() => by(root, "player-stats"));
  const stats = by(root, "stats-toy");
  assert.equal(by(stats, "stat-matches").textContent, "3");
  assert.equal(by(stats, "stat-wins").textContent, "2");
  assert.equal(by(stats, "stat-mean").textContent, "41.33");
  assert.equal(by(stats, "stat-best").textContent, "50");
  assert.ok(by(stats, "rating-chart"));
  assert.match(stats.textContent, /— \(2\) · fast: common.yes \(1\)/);
  assert.equal(by(root, "follow").textContent, "friends.follow");
  by(root, "follow").click();
  await until(() => by(root, "follow")?.textContent === "friends.unfollow");
  assert.ok(requests.some((r) => r.key === "PUT /api/users/bea/follow"));
  const form = by(root, "challenge-form");
  by(form, "challenge-mode").value = "turn";
  by(form, "challenge-rated").checked = true;
  submit(form);
  await until(() => shell.asked.length === 1);
  assert.deepEqual(shell.asked, [["navigate", "#/table/T1"]]);
  assert.deepEqual(requests.find((r) => r.key === "POST /api/users/bea/challenge").body,
    { game: "toy", mode: "turn", rated: true });
});

test("a blocked player's page offers no challenge; a guest sees no buttons", async () => {
  fakeFetch({ "GET /api/users/bea": bea({ blocked: true }) });
  let root = main();
  mountPlayer(root, { id: "bea" }, fakeShell({ name: "ana", display_name: "Ana", guest: false }));
  await until(() => by(root, "social"));
  assert.equal(by(root, "block").textContent, "friends.unblock");
  assert.equal(by(root, "challenge-form"), null);
  root = main();
  mountPlayer(root, { id: "bea" }, fakeShell({ name: "guest-1", display_name: "Guest 1", guest: true }));
  await until(() => by(root, "player-stats"));
  assert.equal(by(root, "social"), null);
});

test("your own page lists friends (watch only public tables) and answers a challenge, read again when one changes", async () => {
  let challenges = [{ id: "c1", status: "open", table: "T9", challenger: "bea", challenger_name: "Bea",
    challenged: "ana", challenged_name: "Ana", game: "toy", rated: false, mode: "live" }];
  const requests = fakeFetch({
    "GET /api/users/ana": { ...bea(), name: "ana", display_name: "Ana", following: undefined, blocked: undefined },
    "GET /api/me/friends": [
      { name: "bea", display_name: "Bea", mutual: true, online: true, playing: [{ table: "T2", game: "toy", private: false }] },
      { name: "cai", display_name: "Cai", mutual: false, online: false, playing: [{ table: null, game: "toy", private: true }] }],
    "GET /api/me/challenges": () => challenges,
    "POST /api/challenges/c1/accept": { id: "c1", status: "accepted", table: "T9" },
  });
  const shell = fakeShell({ name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mountPlayer(root, { id: "ana" }, shell);
  await until(() => by(root, "friends"));
  assert.equal(by(root, "social"), null);
  assert.equal(by(by(root, "friend-bea"), "watch").getAttribute("href"), "#/table/T2");
  assert.equal(by(by(root, "friend-cai"), "watch"), null);
  assert.match(by(root, "friend-cai").textContent, /friends.offline/);
  assert.equal(by(root, "friends-settings-link").getAttribute("href"), "#/settings");
  assert.ok(root.querySelector("#account"));
  by(by(root, "challenge-c1"), "accept").click();
  await until(() => shell.asked.length === 1);
  assert.deepEqual(shell.asked, [["navigate", "#/table/T9"]]);
  // a challenge event reads the list again
  challenges = [];
  const before = requests.filter((r) => r.key === "GET /api/me/challenges").length;
  for (const fn of shell.listeners) fn({ type: "challenge", challenge: { id: "c1", status: "expired" } });
  await until(() => by(root, "challenges") === null);
  assert.equal(requests.filter((r) => r.key === "GET /api/me/challenges").length, before + 1);
});
