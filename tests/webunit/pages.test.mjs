// The shell's pages mounted alone (issue 38): the lobby, the sign-in page and a player's page take
// everything they ask of the shell (navigate, refreshMe, afterSignIn, playAsGuest, the event
// stream) from mount's `shell` argument and import nothing from app.js, so a fake shell and a
// fake fetch are all they need here. (No catalog is loaded: t() answers with its key.)
import assert from "node:assert/strict";
import test from "node:test";

import { mount as mountLeaderboard } from "/static/leaderboard.js";
import { mountLobby, mountSignIn } from "/static/lobby.js";
import { mount as mountPlayer } from "/static/player.js";

import { by, fakeFetch, main, submit, until } from "./page_harness.mjs";

globalThis.FormData = window.FormData; // the pages read their forms with the DOM's FormData, not Node's

const GAME = { name: "toy", title: "Toy", min_players: 2, max_players: 3, bots: ["random"], labels: {},
  options: [{ name: "fast", type: "bool", default: false, choices: [], players: [], description: "Shorter." }] };

/** A shell as app.js passes it, recording what the page asked of it. */
function fakeShell(me) {
  const asked = [];
  const listeners = new Set();
  return {
    asked, listeners, me, games: [GAME], waiting: new Set(),
    on(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    navigate(hash) { asked.push(["navigate", hash]); },
    async refreshMe() { asked.push(["refreshMe"]); },
    async playAsGuest() { asked.push(["playAsGuest"]); },
    afterSignIn() { asked.push(["afterSignIn"]); },
  };
}


const TABLE = { id: "T1", title: "Toy", status: "open", mode: "live", bank_seconds: 600, increment_seconds: 10,
  seats: [{ name: "Ana", user: "ana" }, { name: null, user: null }], created_at: "2025-01-01" };

test("the lobby lists the tables, follows the event stream, and opens a new table through the shell", async () => {
  const requests = fakeFetch({ "GET /api/tables?status=all": [TABLE], "GET /api/me/tables": [], "POST /api/tables": { id: "T9" } });
  const shell = fakeShell({ name: "bea", display_name: "Bea" });
  const root = main();
  const off = mountLobby(root, {}, shell);
  await until(() => by(root, "lobby-list").querySelector('[data-table="T1"]'));
  assert.ok(by(root, "join-T1")); // a free seat, not mine
  assert.equal(shell.listeners.size, 1);
  for (const fn of shell.listeners) fn({ type: "lobby", table: { ...TABLE, id: "T2", created_at: "2025-01-02" } });
  assert.deepEqual([...by(root, "lobby-list").querySelectorAll("[data-table]")].map((li) => li.dataset.table), ["T2", "T1"]);
  // the new-table form: the game's players and options, then the shell goes to the new table
  assert.deepEqual([...by(root, "new-players").options].map((o) => o.value), ["2", "3"]);
  assert.ok(root.querySelector("#opt-toy-fast"));
  submit(by(root, "new-table"));
  await until(() => shell.asked.length);
  assert.deepEqual(shell.asked, [["navigate", "#/table/T9"]]);
  const made = requests.find((r) => r.key === "POST /api/tables").body;
  assert.equal(made.game, "toy");
  assert.deepEqual(made.options, { fast: false });
  off();
  assert.equal(shell.listeners.size, 0);
});

test("a rated table takes the bots the game's ladder rates at that player count, and no other", async () => {
  const requests = fakeFetch({ "GET /api/tables?status=all": [], "GET /api/me/tables": [], "POST /api/tables": { id: "T8" } });
  const shell = fakeShell({ name: "bea", display_name: "Bea" });
  shell.games = [{ ...GAME, bots: ["random", "hard"], rated_bots: { 2: ["hard"] } }];
  const root = main();
  mountLobby(root, {}, shell);
  await until(() => by(root, "new-seat-1"));
  const rated = root.querySelector('input[name="rated"]');
  const seat = by(root, "new-seat-1");
  const choose = (level) => { seat.value = level; seat.dispatchEvent(new window.Event("change")); };
  choose("random");
  assert.ok(rated.disabled && !by(root, "rated-why").hidden); // random has no ladder rating
  choose("hard");
  assert.ok(!rated.disabled && by(root, "rated-why").hidden);
  rated.checked = true;
  submit(by(root, "new-table"));
  await until(() => shell.asked.length);
  const made = requests.find((r) => r.key === "POST /api/tables").body;
  assert.deepEqual([made.rated, made.bots], [true, ["hard"]]);
  const players = by(root, "new-players"); // at 3 players the ladder rates nobody
  players.value = "3";
  players.dispatchEvent(new window.Event("change"));
  by(root, "new-seat-1").value = "hard";
  by(root, "new-seat-1").dispatchEvent(new window.Event("change"));
  assert.ok(rated.disabled && !rated.checked);
});

test("the lobby of a visitor offers the shell's guest play", async () => {
  fakeFetch({ "GET /api/tables?status=all": [] });
  const shell = fakeShell(null);
  const root = main();
  mountLobby(root, {}, shell);
  by(root, "lobby-guest").click();
  assert.deepEqual(shell.asked, [["playAsGuest"]]);
  assert.equal(by(root, "new-table"), null);
});

test("signing in asks the shell to read the account again, then to go on", async () => {
  const requests = fakeFetch({ "POST /api/signin": { name: "ana" } });
  const shell = fakeShell(null);
  const root = main();
  mountSignIn(root, {}, shell);
  const form = by(root, "signin-form");
  form.querySelector('[name="name"]').value = "ana";
  form.querySelector('[name="password"]').value = "secret-words";
  submit(form);
  await until(() => shell.asked.length === 2);
  assert.deepEqual(shell.asked, [["refreshMe"], ["afterSignIn"]]);
  assert.deepEqual(requests[0].body, { name: "ana", password: "secret-words" });
});

test("a guest keeps the account from their own page: the shell reads it again and goes to the new name", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] }); // the toast's few seconds pass in no time
  const guest = { name: "guest-1", display_name: "Guest 1", guest: true };
  fakeFetch({ "GET /api/users/guest-1": { ...guest, ratings: [], matches: [] }, "POST /api/claim": { name: "ana" } });
  const shell = fakeShell(guest);
  const root = main();
  mountPlayer(root, { id: "guest-1" }, shell);
  await until(() => by(root, "claim-form"));
  const form = by(root, "claim-form");
  form.querySelector('[name="name"]').value = "ana";
  form.querySelector('[name="password"]').value = "secret-words";
  submit(form);
  await until(() => shell.asked.length === 2);
  assert.deepEqual(shell.asked, [["refreshMe"], ["navigate", "#/player/ana"]]);
});

test("an option the rules fix at a player count is shown set and locked, and sent so", async () => {
  // Queendomino's Royal Wedding is always on at 5-8 players: the form must not offer it off
  // (the server would refuse the table).
  const requests = fakeFetch({ "GET /api/tables?status=all": [], "GET /api/me/tables": [], "POST /api/tables": { id: "T9" } });
  const shell = fakeShell({ name: "bea", display_name: "Bea" });
  shell.games = [{ ...GAME, max_players: 4, options: [{ name: "both", type: "bool", default: false, choices: [],
    players: [3, 4], fixed: { 4: true }, description: "Both boxes." }] }];
  const root = main();
  mountLobby(root, {}, shell);
  await until(() => by(root, "new-players"));
  const players = by(root, "new-players");
  const box = () => root.querySelector("#opt-toy-both");
  players.value = "3";
  players.dispatchEvent(new window.Event("change"));
  assert.equal(box().checked, false);
  assert.equal(box().disabled, false);
  players.value = "4";
  players.dispatchEvent(new window.Event("change"));
  assert.equal(box().checked, true);
  assert.equal(box().disabled, true);
  submit(by(root, "new-table"));
  await until(() => shell.asked.length);
  assert.deepEqual(requests.find((r) => r.key === "POST /api/tables").body.options, { both: true });
});

test("the leaderboard shows one pool, offers every season and bots, and puts the choice in the address", async () => {
  const season = { id: "2026Q4", pool: "season:2026Q4", start: "2026-10-01T00:00:00+00:00", end: "2027-01-01T00:00:00+00:00", current: true };
  const old = { ...season, id: "2026Q3", pool: "season:2026Q3", current: false };
  const row = { name: "ana", display_name: "Ana", rating: 1620, plus_minus: 90, mu: 29.2, sigma: 1.5, games: 12 };
  const requests = fakeFetch({ "GET /api/seasons/toy": [season, old],
    "GET /api/leaderboard/toy?pool=season%3A2026Q3": [row] });
  const root = main();
  location.hash = "";
  mountLeaderboard(root, { id: "toy", query: new URLSearchParams("pool=season:2026Q3") }, fakeShell(null));
  await until(() => root.querySelector("tbody tr"));
  await until(() => by(root, "leaderboard-pool").options.length === 4);
  const pools = by(root, "leaderboard-pool");
  assert.deepEqual([...pools.options].map((o) => [o.value, o.textContent]), [["all", "leaderboard.pool_all"],
    ["season:2026Q4", "leaderboard.pool_season_current"], ["season:2026Q3", "leaderboard.pool_season"], ["bots", "leaderboard.pool_bots"]]);
  assert.equal(pools.value, "season:2026Q3");
  assert.deepEqual([...root.querySelectorAll("tbody td")].map((td) => td.textContent), ["1", "1,620 ± 90", "12"]);
  assert.deepEqual(requests.map((r) => r.key).sort(), ["GET /api/leaderboard/toy?pool=season%3A2026Q3", "GET /api/seasons/toy"]);
  pools.value = "bots";
  pools.dispatchEvent(new window.Event("change"));
  assert.equal(location.hash, "#/leaderboard/toy?pool=bots");
});
