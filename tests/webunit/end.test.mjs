// The end of a match on the table page (views/result.js, score.js, views/log.js): the rematch
// offer as each person sees it, the decline, the ways on, the tie-break reasons only where a tie
// was broken, the rating rows by seat; and the live region hearing new log entries only. (No
// catalog is loaded here: t() answers with its key, so the tests look at structure.)
import assert from "node:assert/strict";
import test from "node:test";

import { liveRegion, logView } from "/static/views/log.js";
import { resultView } from "/static/views/result.js";

const seats = [{ seat: 0, name: "Ana" }, { seat: 1, name: "Ben" }, { seat: 2, name: "Bot 3", bot: "greedy" }];
const result = {
  scores: [30, 30, 12], ranks: [1, 2, 3], winners: [0], teams: [[0], [1], [2]],
  sides: [{ seats: [0], score: 30, rank: 1 }, { seats: [1], score: 30, rank: 2 }, { seats: [2], score: 12, rank: 3 }],
  parts: [[{ id: "crowns", text: "Crowns", points: 30 }], [{ id: "crowns", text: "Crowns", points: 30 }],
    [{ id: "crowns", text: "Crowns", points: 12 }]],
  tiebreak: [[{ id: "size", text: "largest territory 9", value: 9 }], [{ id: "size", text: "largest territory 7", value: 7 }],
    [{ id: "size", text: "largest territory 2", value: 2 }]],
  tie_broken: [0, 1],
  ratings: [{ seat: 1, before: 1500, after: 1482, delta: -18 }, { seat: 0, before: 1500, after: 1532, delta: 32 }],
};

function draw(you, table) {
  const box = document.createElement("div");
  resultView(box, { id: "T1" })({ seq: 9, you, invite: "", result, table: { status: "finished", seats, rematch: null,
    rematch_offer: null, rematch_declined: null, result, ...table } });
  return box;
}

const q = (box, id) => box.querySelector(`[data-testid="${id}"]`);

test("the result: tie-break reasons only for the seats it decided, ratings by seat, the ways on", () => {
  const box = draw(0, {});
  assert.equal(box.querySelectorAll(".tiebreak").length, 2); // Ana and Ben tied; the bot's reasons are no news
  assert.ok(q(box, "rating-0") && q(box, "rating-1") && !q(box, "rating-2"));
  assert.equal(q(box, "back-to-lobby").getAttribute("href"), "#/");
  assert.equal(q(box, "replay-link").getAttribute("href"), "#/replay/T1");
  assert.ok(q(box, "rematch")); // a seated person may offer
  assert.ok(!q(draw(null, {}), "rematch")); // a spectator may not
});

test("an open offer: who offered, accepted and is awaited for all; buttons by seat", () => {
  const offer = { by: 0, accepted: [0, 2], waiting: [1], until: "2026-11-27T10:00:00Z" };
  const waiting = draw(1, { rematch_offer: offer });
  assert.ok(q(waiting, "rematch") && q(waiting, "rematch-decline"));
  assert.ok(q(waiting, "rematch-accepted") && q(waiting, "rematch-waiting"));
  const offerer = draw(0, { rematch_offer: offer });
  assert.ok(!q(offerer, "rematch") && q(offerer, "rematch-decline")); // withdraw only
  const spectator = draw(null, { rematch_offer: offer });
  assert.ok(q(spectator, "rematch-offer") && !q(spectator, "rematch") && !q(spectator, "rematch-decline"));
});

test("a decline is shown to everyone and a made rematch is a link", () => {
  assert.ok(q(draw(null, { rematch_declined: 1 }), "rematch-declined"));
  const again = draw(0, { rematch_declined: 1 });
  assert.ok(q(again, "rematch-declined") && q(again, "rematch")); // offer again
  const made = draw(null, { rematch: "T2" });
  assert.equal(q(made, "rematch-link").getAttribute("href"), "#/table/T2");
});

test("the live region hears each new entry once, not the whole log after a redraw", () => {
  const list = document.createElement("ol");
  const live = liveRegion();
  assert.equal(live.region.getAttribute("aria-live"), "polite");
  const update = logView(list, live.say);
  const first = { seq: 1, seat: 0, events: [{ text: "Ana placed domino 4." }] };
  const log = [first];
  update({ log });
  assert.equal(live.region.textContent, ""); // the first drawing is the page's own, not news
  const second = { seq: 2, seat: 1, events: [{ text: "Ben claimed domino 9." }, { text: "Round 2." }] };
  update({ log: [first, second] });
  assert.equal(live.region.textContent, "Ben claimed domino 9. Round 2.");
  const full = [{ ...first }, { ...second }];
  update({ log: full }); // a `full` after a reconnect: redrawn, not said again
  assert.equal(live.region.textContent, "Ben claimed domino 9. Round 2.");
  assert.equal(list.children.length, 2);
  // a move this viewer may not see (events hidden): still heard, as the seat having moved
  update({ log: [...full, { seq: 3, seat: 1, events: [] }], table: { seats: [{ name: "Ana" }, { name: "Ben" }] } });
  assert.equal(live.region.textContent, "log.moved");
  assert.equal(list.children.length, 2); // nothing to show in the log itself
});

test("decimals are written as the page's language writes them, with a true minus", async () => {
  const { decimal } = await import("/static/i18n.js");
  assert.equal(decimal(3.441, 2, "en"), "3.44");
  assert.equal(decimal(3.441, 2, "es"), "3,44");
  assert.equal(decimal(-1.83, 2, "en"), "−1.83");
  assert.equal(decimal(-0.001, 2, "es"), "0,00");
  assert.equal(decimal(1234.5, 1, "es"), "1234,5");
});
