// The table socket (socket.js) against a fake WebSocket and a fake clock: the seq rule (drop
// what is held, resync on a gap or a pong ahead), exponential backoff, ping, closing.
import assert from "node:assert/strict";
import test from "node:test";

import { BACKOFF_MAX, BACKOFF_MIN, PING_EVERY, openSocket, seqRule } from "/static/socket.js";
import { FakeSocket, fakeClock, full, update } from "./fakes.mjs";

function start() {
  FakeSocket.made = [];
  const clock = fakeClock();
  const delivered = [];
  const statuses = [];
  const socket = openSocket({ url: () => "ws://test/ws/tables/T1", WebSocket: FakeSocket, timers: clock,
    deliver: (m) => delivered.push(m), status: (kind, detail) => statuses.push([kind, detail]) });
  const ws = () => FakeSocket.made.at(-1);
  ws().open();
  return { socket, clock, delivered, statuses, ws };
}

test("the seq rule: take the next update, drop one already held, resync on a gap", () => {
  assert.equal(seqRule(null, update(5)), "drop"); // before any full
  assert.equal(seqRule(4, full({ seq: 2 })), "take"); // a full always replaces the state
  assert.equal(seqRule(4, update(5)), "take");
  assert.equal(seqRule(4, update(4)), "drop");
  assert.equal(seqRule(4, update(3)), "drop");
  assert.equal(seqRule(4, update(7)), "gap");
  assert.equal(seqRule(4, { type: "pong", seq: 4 }), "take");
  assert.equal(seqRule(4, { type: "pong", seq: 6 }), "sync");
  assert.equal(seqRule(4, { type: "chat", line: {} }), "take");
});

test("a gap in seq is delivered (its view is whole) and answered with one sync", () => {
  const { socket, delivered, ws } = start();
  ws().say(full({ seq: 4 }));
  ws().say(update(5));
  assert.deepEqual(ws().sentOf("sync"), []);
  ws().say(update(7)); // 6 was lost
  assert.equal(ws().sentOf("sync").length, 1);
  assert.deepEqual(delivered.map((m) => m.seq), [4, 5, 7]);
  assert.equal(socket.seq, 7);
  ws().say(full({ seq: 7 })); // the answer
  ws().say(update(7)); // a late copy: dropped
  ws().say(update(6));
  assert.deepEqual(delivered.map((m) => m.seq), [4, 5, 7, 7]);
  ws().say(update(8));
  assert.equal(ws().sentOf("sync").length, 1);
  assert.equal(socket.seq, 8);
});

test("updates before the first full are dropped; a full overtaking updates wins", () => {
  const { delivered, ws } = start();
  ws().say(update(3));
  assert.deepEqual(delivered, []);
  ws().say(full({ seq: 9 }));
  ws().say(update(9));
  ws().say(update(10));
  assert.deepEqual(delivered.map((m) => [m.type, m.seq]), [["full", 9], ["update", 10]]);
});

test("a pong saying the table is ahead asks for the state", () => {
  const { ws } = start();
  ws().say(full({ seq: 4 }));
  ws().say({ type: "pong", seq: 4 });
  assert.equal(ws().sentOf("sync").length, 0);
  ws().say({ type: "pong", seq: 5 });
  assert.equal(ws().sentOf("sync").length, 1);
});

test("it pings on its interval while open", () => {
  const { clock, ws } = start();
  clock.advance(PING_EVERY - 1);
  assert.equal(ws().sentOf("ping").length, 0);
  clock.advance(1);
  clock.advance(PING_EVERY);
  assert.equal(ws().sentOf("ping").length, 2);
});

test("a lost socket reconnects with a doubling wait up to the cap, reset by a full", () => {
  const { clock, statuses, ws, delivered } = start();
  const waits = [];
  for (let i = 0; i < 8; i++) {
    const before = FakeSocket.made.length;
    ws().drop();
    const wait = statuses.at(-1)[1];
    waits.push(wait);
    clock.advance(wait - 1);
    assert.equal(FakeSocket.made.length, before, "not before the wait");
    clock.advance(1);
    assert.equal(FakeSocket.made.length, before + 1, "a new socket after the wait");
    ws().open();
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, BACKOFF_MAX, BACKOFF_MAX, BACKOFF_MAX]);
  ws().say(full({ seq: 12 }));
  assert.equal(delivered.at(-1).seq, 12);
  ws().drop();
  assert.equal(statuses.at(-1)[1], BACKOFF_MIN, "a good socket starts the waits again");
});

test("messages from a socket already replaced are ignored; a closed socket stays closed", () => {
  const { socket, clock, delivered, ws } = start();
  const old = ws();
  old.drop();
  clock.advance(BACKOFF_MIN);
  old.say(full({ seq: 1 }));
  assert.deepEqual(delivered, []);
  socket.close();
  const count = FakeSocket.made.length;
  clock.advance(60_000);
  assert.equal(FakeSocket.made.length, count);
  assert.equal(socket.send({ type: "ping" }), false);
  assert.equal(clock.pending(), 0, "no timer left running");
});

test("send says false while the socket is not open, and non-JSON is ignored", () => {
  FakeSocket.made = [];
  const clock = fakeClock();
  const delivered = [];
  const socket = openSocket({ url: () => "ws://x", WebSocket: FakeSocket, timers: clock, deliver: (m) => delivered.push(m) });
  assert.equal(socket.send({ type: "chat", text: "hi" }), false);
  FakeSocket.made[0].open();
  assert.equal(socket.send({ type: "chat", text: "hi" }), true);
  FakeSocket.made[0].say("not json");
  FakeSocket.made[0].say("42");
  assert.deepEqual(delivered, []);
  socket.close();
});
