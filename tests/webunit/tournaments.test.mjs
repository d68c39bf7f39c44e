// The tournament pages mounted alone with a fake shell and a fake fetch (issue 35): the lobby's
// Tournaments tab lists by status and follows `tournament` events; the new-tournament form
// sends what the API takes; the tournament page shows rules, standings with the tie-breaks
// named, pairings linked to their tables, "go to your table", register / withdraw / a host's
// bot, and reads the tournament again on its events; a finished one shows podium and
// crosstable. (No catalog is loaded: t() answers with its key.)
import assert from "node:assert/strict";
import test from "node:test";

import { clockLine, crosstable, entrantName, mount as mountTournament, namesOf, statusWords } from "/static/tournament.js";
import { listOf, mount as mountTournaments, progressWords, timeLeft } from "/static/tournaments.js";

import { by, fakeFetch, main, settle, submit, until } from "./page_harness.mjs";

const GAME = { name: "toy", title: "Toy", min_players: 2, max_players: 3, bots: ["random", "greedy"], labels: {},
  options: [{ name: "fast", type: "bool", default: false, choices: [], players: [], description: "Shorter." }] };

function fakeShell(me) {
  const asked = [];
  const listeners = new Set();
  return {
    asked, listeners, me, games: [GAME], waiting: new Set(),
    on(fn) { listeners.add(fn); return () => listeners.delete(fn); },
    navigate(hash) { asked.push(["navigate", hash]); },
  };
}
const emit = (shell, event) => { for (const fn of shell.listeners) fn(event); };


const SUMMARY = { id: "TA", name: "Friday", game: "toy", players: 2, options: {}, format: { kind: "swiss", rounds: 1 },
  rated: false, mode: "live", bank_seconds: 300, increment_seconds: 5, turn_hours: 0, starts_at: null,
  min_entrants: 2, max_entrants: 4, invite_only: false, status: "registering", round: 0, entrants: 1,
  host: "ana", created_at: "2025-01-01T10:00:00Z" };

const ANA = { participant: "user:1", name: "Ana", rating: 0, withdrawn: false };
const BOT = { participant: "bot:random@3#1", name: "random bot", rating: 0, withdrawn: false };
const TIEBREAKS = [{ key: "buchholz", name: "Buchholz", rule: "Opponents' points added up." }];
const RESULT = { round: 1, board: 1, seats: ["user:1", "bot:random@3#1"], places: [1, 2], scores: [30, 20], forfeits: [false, false] };

function detail(over = {}) {
  return { ...SUMMARY, rules: ["Swiss: the rule.", "Ties are broken by Buchholz."], entrants: [ANA],
    rounds: [], standings: { tiebreaks: TIEBREAKS, rows: [
      { rank: 1, entrant: "user:1", name: "Ana", points: 0, tiebreaks: { buchholz: 0 }, games: 0, byes: 0 }] },
    registered: false, your_table: null, ...over };
}

test("the Tournaments tab lists each status in its own list and follows the stream", async () => {
  fakeFetch({
    "GET /api/tournaments?status=upcoming": [SUMMARY],
    "GET /api/tournaments?status=running": [{ ...SUMMARY, id: "TB", status: "running", round: 2 }],
    "GET /api/tournaments?status=finished": [],
  });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  const off = mountTournaments(root, {}, shell);
  await until(() => by(root, "tournaments-upcoming").querySelector('[data-tournament="TA"]'));
  assert.ok(by(root, "tournaments-running").querySelector('[data-tournament="TB"]'));
  assert.match(by(root, "tournaments-finished").textContent, /tournaments\.none_finished/);
  assert.equal(root.querySelector('[aria-current="page"]').dataset.testid, "tab-tournaments");
  emit(shell, { type: "tournament", tournament: { ...SUMMARY, status: "running", round: 1 } }); // TA started
  assert.equal(by(root, "tournaments-upcoming").querySelector("[data-tournament]"), null);
  assert.deepEqual([...by(root, "tournaments-running").querySelectorAll("[data-tournament]")].map((li) => li.dataset.tournament).sort(), ["TA", "TB"]);
  emit(shell, { type: "tournament", tournament: { ...SUMMARY, id: "TX", invite_only: true } }); // not for the list
  assert.equal(root.querySelector('[data-tournament="TX"]'), null);
  off();
  assert.equal(shell.listeners.size, 0);
  assert.deepEqual(["registering", "running", "finished", "cancelled"].map(listOf), ["upcoming", "running", "finished", "finished"]);
});

test("the new-tournament form sends the game, its options, the format and the entry rules", async () => {
  const requests = fakeFetch({ "GET /api/tournaments?status=upcoming": [], "GET /api/tournaments?status=running": [],
    "GET /api/tournaments?status=finished": [], "POST /api/tournaments": { id: "TN" } });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mountTournaments(root, {}, shell);
  const form = by(root, "new-tournament");
  assert.deepEqual([...by(root, "tour-players").options].map((o) => o.value), ["2", "3"]);
  root.querySelector("#tour-opt-toy-fast").checked = true;
  by(root, "tour-rounds").value = "2";
  by(root, "tour-max").value = "2";
  submit(form);
  await until(() => shell.asked.length);
  assert.deepEqual(shell.asked, [["navigate", "#/tournament/TN"]]);
  const body = requests.find((r) => r.key === "POST /api/tournaments").body;
  assert.deepEqual([body.game, body.players, body.options, body.format, body.rounds, body.min_entrants, body.max_entrants],
    ["toy", 2, { fast: true }, "swiss", 2, 2, 2]);
  assert.deepEqual([body.mode, body.bank_seconds, body.increment_seconds, body.invite_only, body.starts_at], ["live", 300, 5, false, undefined]);
  // a round robin has no rounds to choose; a set start time is sent with its time zone
  const format = by(root, "tour-format");
  format.value = "round-robin";
  format.dispatchEvent(new window.Event("change"));
  const start = by(root, "tour-start");
  start.value = "time";
  start.dispatchEvent(new window.Event("change"));
  by(root, "tour-when").value = "2030-05-01T18:30";
  submit(form);
  await until(() => requests.filter((r) => r.key === "POST /api/tournaments").length === 2);
  const second = requests.filter((r) => r.key === "POST /api/tournaments")[1].body;
  assert.equal(second.rounds, undefined);
  assert.equal(second.starts_at, new Date("2030-05-01T18:30").toISOString());
});

test("a guest or a visitor gets no form: a guest is told why, a visitor to sign in", async () => {
  fakeFetch({ "GET /api/tournaments?status=upcoming": [], "GET /api/tournaments?status=running": [], "GET /api/tournaments?status=finished": [] });
  let root = main();
  mountTournaments(root, {}, fakeShell({ id: 2, name: "guest_1", display_name: "guest_1", guest: true }));
  assert.equal(by(root, "new-tournament"), null);
  assert.match(root.textContent, /tournaments\.guest/);
  root = main();
  mountTournaments(root, {}, fakeShell(null));
  assert.match(root.textContent, /tournaments\.signin/);
});

test("the tournament page: rules, standings with tie-breaks named, register, then its table once the stream says", async () => {
  let answer = detail();
  const requests = fakeFetch({ "GET /api/tournaments/TA?lang=en": () => answer, "POST /api/tournaments/TA/register": {},
    "POST /api/tournaments/TA/bots": {} });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  const off = mountTournament(root, { id: "TA", query: new URLSearchParams() }, shell);
  await until(() => by(root, "standings"));
  assert.deepEqual([...by(root, "rules").querySelectorAll("li")].map((li) => li.textContent), answer.rules);
  assert.deepEqual([...by(root, "standings").querySelectorAll("thead th")].map((th) => th.textContent),
    ["#", "result.player", "tournament.points_col", "Buchholz"]);
  assert.match(by(root, "tiebreaks").textContent, /Opponents' points added up\./);
  // the host enters a bot; anyone signed in registers
  by(root, "bot-level").value = "greedy";
  answer = detail({ entrants: [ANA, BOT], entrants_count: 2 });
  by(root, "add-bot").click();
  await until(() => requests.some((r) => r.key === "POST /api/tournaments/TA/bots"));
  assert.deepEqual(requests.find((r) => r.key === "POST /api/tournaments/TA/bots").body, { level: "greedy" });
  await until(() => /tournament\.bot_name/.test(by(root, "entrants").textContent));
  answer = detail({ entrants: [ANA, BOT], registered: true });
  by(root, "register").click();
  await until(() => by(root, "withdraw"));
  assert.equal(by(root, "register"), null);
  // the director pairs and opens the table: the stream's events, no reload
  answer = detail({ status: "running", round: 1, entrants: [ANA, BOT], registered: true, your_table: "TA-1-1",
    rounds: [{ round: 1, byes: [], games: [{ board: 1, seats: RESULT.seats, names: ["Ana", "random bot"], table: "TA-1-1", result: null, decided_by: null }] }] });
  emit(shell, { type: "tournament_table", tournament: "TA", round: 1, board: 1, table: "TA-1-1" });
  await until(() => by(root, "your-table"));
  assert.equal(by(root, "your-table").getAttribute("href"), "#/table/TA-1-1");
  assert.doesNotMatch(root.textContent, /null|undefined|\[object/); // nothing left unsaid or said raw
  assert.equal(root.querySelector('[data-board="1"] a').getAttribute("href"), "#/table/TA-1-1");
  // another tournament's event is not this page's
  const before = requests.length;
  emit(shell, { type: "tournament", tournament: { ...SUMMARY, id: "OTHER" } });
  await settle();
  assert.equal(requests.length, before);
  off();
});

test("a finished tournament shows its podium and crosstable, and the points as they moved", async () => {
  const games = [{ board: 1, seats: RESULT.seats, names: ["Ana", "random bot"], table: "TA-1-1", result: RESULT, decided_by: "played" }];
  let answer = detail({ status: "running", round: 1, entrants: [ANA, BOT], registered: true,
    rounds: [{ round: 1, byes: [], games: [{ ...games[0], result: null, decided_by: null }] }] });
  fakeFetch({ "GET /api/tournaments/TA?lang=en": () => answer });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mountTournament(root, { id: "TA", query: new URLSearchParams() }, shell);
  await until(() => by(root, "standings"));
  assert.equal(by(root, "podium"), null);
  const rows = [{ rank: 1, entrant: "user:1", name: "Ana", points: 1, tiebreaks: { buchholz: 0 }, games: 1, byes: 0 },
    { rank: 2, entrant: "bot:random@3#1", name: "random bot", points: 0, tiebreaks: { buchholz: 1 }, games: 1, byes: 0 }];
  answer = detail({ status: "finished", round: 1, entrants: [ANA, BOT], registered: true, rounds: [{ round: 1, byes: [], games }],
    standings: { tiebreaks: TIEBREAKS, rows } });
  emit(shell, { type: "tournament", tournament: { ...SUMMARY, status: "finished" } });
  await until(() => by(root, "podium"));
  assert.deepEqual([...by(root, "standings").querySelectorAll('[data-testid="points"]')].map((td) => td.textContent), ["1", "0"]);
  assert.equal(by(root, "standings").querySelector("tr.mine").dataset.entrant, "user:1");
  assert.equal(by(root, "podium").querySelectorAll("li").length, 2);
  const cells = [...by(root, "crosstable").querySelectorAll("tbody td")].map((td) => td.textContent);
  assert.deepEqual(cells, ["tournament.cell", "tournament.cell"]); // keys: no catalog loaded
  const cross = crosstable(answer, namesOf(answer, new Set(["random"])));
  assert.deepEqual(cross.map((r) => r.entrant), ["user:1", "bot:random@3#1"]);
});

test("a bot entrant is named by its level and number; a person by the name sent", () => {
  const levels = new Set(["random"]);
  assert.equal(entrantName("bot:random@3#2", "random bot", levels), "tournament.bot_name");
  assert.equal(entrantName("user:4", "Bea", levels), "Bea");
  assert.equal(entrantName("bot:unknown@3#1", "unknown bot", levels), "unknown bot"); // no word for that level
});

test("the form offers an arena: its length in minutes, live only, starting at its minimum", async () => {
  const requests = fakeFetch({ "GET /api/tournaments?status=upcoming": [], "GET /api/tournaments?status=running": [],
    "GET /api/tournaments?status=finished": [], "POST /api/tournaments": { id: "TR" } });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  mountTournaments(root, {}, shell);
  const format = by(root, "tour-format");
  assert.ok([...format.options].some((o) => o.value === "arena"));
  const minutesBox = by(root, "tour-minutes").closest(".field") || by(root, "tour-minutes").parentElement;
  assert.equal(minutesBox.hidden, true);
  by(root, "tour-mode").value = "turn";
  format.value = "arena";
  format.dispatchEvent(new window.Event("change"));
  assert.equal(minutesBox.hidden, false);
  assert.equal(by(root, "tour-mode").value, "live");
  assert.equal(by(root, "tour-mode").disabled, true);
  assert.equal(by(root, "tour-start").options[0].textContent, "tournaments.when_min");
  by(root, "tour-minutes").value = "45";
  submit(by(root, "new-tournament"));
  await until(() => shell.asked.length);
  const body = requests.find((r) => r.key === "POST /api/tournaments").body;
  assert.deepEqual([body.format, body.minutes, body.rounds, body.mode], ["arena", 45, undefined, "live"]);
});

test("the time left, the running list's words and where you are in an arena", () => {
  const now = Date.parse("2030-01-01T12:00:00Z");
  assert.equal(timeLeft("2030-01-01T12:04:05Z", now), "4:05");
  assert.equal(timeLeft("2030-01-01T13:02:03Z", now), "1:02:03");
  assert.equal(timeLeft("2030-01-01T11:00:00Z", now), "0:00");
  const arena = { ...SUMMARY, format: { kind: "arena", minutes: 30 }, status: "running", ends_at: "2030-01-01T12:10:00Z" };
  assert.equal(progressWords(arena, now), "tournaments.minutes_left");
  assert.equal(progressWords({ ...SUMMARY, status: "running", round: 2 }, now), "tournament.round_n");
  assert.equal(clockLine(arena, now), "tournament.time_left");
  assert.equal(clockLine(arena, Date.parse("2030-01-01T12:11:00Z")), "tournament.time_up");
  assert.equal(clockLine({ ...arena, format: { kind: "swiss" } }, now), null);
  assert.equal(statusWords({ ...arena, your_status: "waiting" }), "tournament.waiting_opponent");
  assert.equal(statusWords({ ...SUMMARY, your_status: "waiting" }), "tournament.waiting_round");
  assert.equal(statusWords({ ...arena, your_status: "paused" }), "tournament.paused");
  assert.equal(statusWords({ ...arena, your_status: "playing" }), null);
});

test("an arena's page: time left, waiting, streaks on fire, pause and enter again, no crosstable", async () => {
  const ends = new Date(Date.now() + 5 * 60_000).toISOString();
  const rows = [{ rank: 1, entrant: "user:1", name: "Ana", points: 8, tiebreaks: { wins: 3 }, games: 3, byes: 0, streak: 3, on_fire: true },
    { rank: 2, entrant: "bot:random@3#1", name: "random bot", points: 0, tiebreaks: { wins: 0 }, games: 3, byes: 0, streak: 0, on_fire: false }];
  const base = { format: { kind: "arena", minutes: 30 }, status: "running", round: 3, ends_at: ends, entrants: [ANA, BOT],
    standings: { tiebreaks: [{ key: "wins", name: "Wins", rule: "Games won." }], rows } };
  let answer = detail({ ...base, registered: true, your_status: "waiting" });
  const requests = fakeFetch({ "GET /api/tournaments/TA?lang=en": () => answer, "POST /api/tournaments/TA/withdraw": {},
    "POST /api/tournaments/TA/register": {} });
  const shell = fakeShell({ id: 1, name: "ana", display_name: "Ana", guest: false });
  const root = main();
  const off = mountTournament(root, { id: "TA", query: new URLSearchParams() }, shell);
  await until(() => by(root, "standings"));
  assert.equal(by(root, "time-left").textContent, "tournament.time_left");
  assert.equal(by(root, "your-status").textContent, "tournament.waiting_opponent");
  assert.match(by(root, "tournament-facts").textContent, /tournament\.arena_minutes/);
  assert.deepEqual([...by(root, "standings").querySelectorAll("thead th")].map((th) => th.textContent),
    ["#", "result.player", "tournament.points_col", "tournament.streak_col", "Wins"]);
  assert.deepEqual([...by(root, "standings").querySelectorAll('[data-testid="streak"]')].map((td) => td.textContent),
    ["3 tournament.on_fire", "0"]);
  // pausing asks first, then the server says paused: the button enters again
  window.confirm = () => true;
  answer = detail({ ...base, registered: false, your_status: "paused" });
  assert.equal(by(root, "withdraw").textContent, "tournament.pause");
  by(root, "withdraw").click();
  await until(() => by(root, "register"));
  assert.ok(requests.some((r) => r.key === "POST /api/tournaments/TA/withdraw"));
  assert.equal(by(root, "register").textContent, "tournament.resume");
  assert.equal(by(root, "your-status").textContent, "tournament.paused");
  // it finishes: the podium, no crosstable of its many pairings
  answer = detail({ ...base, status: "finished", registered: true, your_status: null,
    rounds: [{ round: 1, byes: [], games: [{ board: 1, seats: RESULT.seats, names: ["Ana", "random bot"], table: "T1", result: RESULT, decided_by: "played" }] }] });
  emit(shell, { type: "tournament", tournament: { ...SUMMARY, status: "finished" } });
  await until(() => by(root, "podium"));
  assert.equal(by(root, "crosstable"), null);
  assert.equal(by(root, "time-left"), null);
  assert.match(root.querySelector('[data-round="1"] h3').textContent, /tournament\.wave_n/);
  off();
});
