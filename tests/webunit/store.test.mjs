// The table store (store.js): each reducer, the subscribers, and the action in flight that makes
// a double click or a click during a bot's answer silent.
import assert from "node:assert/strict";
import test from "node:test";

import { canAct, createStore, initialState, mustAct, reducers } from "/static/store.js";
import { full, update } from "./fakes.mjs";

const summary = (fields = {}) => ({ id: "T1", game: "kingdomino", title: "K", status: "playing", seats: [], ...fields });

function store(now = 0) {
  let clock = now;
  const s = createStore(initialState(), () => clock);
  return { s, tick: (ms) => { clock += ms; } };
}

test("full replaces everything, log and chat included, and settles an action in flight", () => {
  const { s } = store(100);
  s.dispatch({ type: "act", seq: 1, action: { type: "roll" } });
  const m = full({ chat: [{ user: "a", name: "A", text: "hi" }] });
  const state = s.dispatch(m);
  assert.equal(state.seq, 4);
  assert.equal(state.you, 0);
  assert.deepEqual(state.legal, m.legal);
  assert.deepEqual(state.log, m.log);
  assert.notEqual(state.log, m.log, "the store's own copy");
  assert.equal(state.chat.length, 1);
  assert.equal(state.pending, null);
  assert.equal(state.clockAt, 100);
  assert.equal(state.table.id, "T1");
});

test("update applies the new position and appends to the log; none before a full", () => {
  const { s, tick } = store();
  assert.equal(s.dispatch(update(1)), s.state, "nothing to update yet");
  s.dispatch(full());
  tick(250);
  const state = s.dispatch(update(5, { legal: [], to_act: [1], clocks: [{ seat: 1, running: true, seconds: 30 }] }));
  assert.equal(state.seq, 5);
  assert.deepEqual(state.to_act, [1]);
  assert.equal(state.log.length, 2);
  assert.deepEqual(state.log.at(-1), { seq: 5, seat: 0, events: [{ type: "x", text: "move 5" }] });
  assert.equal(state.clockAt, 250);
  assert.equal(mustAct(state), false);
});

test("table keeps the invite the summary messages leave out", () => {
  const { s } = store();
  s.dispatch({ type: "table", table: summary({ invite: "secret" }) });
  const state = s.dispatch({ type: "table", table: summary({ status: "finished" }) });
  assert.equal(state.table.status, "finished");
  assert.equal(state.table.invite, "secret");
  assert.equal(state.invite, "secret");
});

test("chat appends a line", () => {
  const { s } = store();
  s.dispatch(full());
  const state = s.dispatch({ type: "chat", line: { user: "b", name: "B", text: "gg" } });
  assert.deepEqual(state.chat.at(-1), { user: "b", name: "B", text: "gg" });
});

test("an error before any full about the table itself is fatal; later ones are not", () => {
  const { s } = store();
  const state = s.dispatch({ type: "error", code: "no_such_table", message: "No table." });
  assert.equal(state.fatal.code, "no_such_table");
  const other = store().s;
  other.dispatch(full());
  assert.equal(other.dispatch({ type: "error", code: "no_such_table", message: "x" }).fatal, null);
});

test("an action in flight: clicks are refused until the server answers, by an update", () => {
  const { s } = store();
  s.dispatch(full());
  assert.equal(canAct(s.state), true);
  s.dispatch({ type: "act", seq: 4, action: { type: "claim", domino: 3 } });
  assert.equal(canAct(s.state), false, "a second click (a double click) sends nothing");
  // another seat's move in a simultaneous step: this seat still decides, still in flight
  s.dispatch(update(5, { seat: 1, to_act: [0, 1], legal: [{ type: "claim", domino: 3 }] }));
  assert.ok(s.state.pending);
  assert.equal(canAct(s.state), false);
  // this seat's own move: answered
  s.dispatch(update(6, { seat: 0, to_act: [1], legal: [] }));
  assert.equal(s.state.pending, null);
  assert.equal(canAct(s.state), false, "and a click during the bot's answer has nothing to send");
  s.dispatch(update(7, { seat: 1, to_act: [0], legal: [{ type: "place", x: 1, y: 0, dir: "E" }] }));
  assert.equal(canAct(s.state), true);
});

test("an action in flight is settled by a refusal, a timeout, or a full", () => {
  for (const answer of [{ type: "error", code: "stale", message: "late" }, { type: "settle" }, full({ seq: 9 })]) {
    const { s } = store();
    s.dispatch(full());
    s.dispatch({ type: "act", seq: 4, action: { type: "claim", domino: 3 } });
    s.dispatch(answer);
    assert.equal(s.state.pending, null, answer.type);
  }
});

test("subscribers hear (state, previous, message) on a change, and can leave", () => {
  const { s } = store();
  const heard = [];
  const leave = s.subscribe((state, previous, message) => heard.push([state.seq, previous.seq, message.type]));
  s.dispatch(full());
  s.dispatch({ type: "pong", seq: 4 }); // changes nothing: nobody is told
  s.dispatch({ type: "nonsense" });
  s.dispatch(update(5));
  leave();
  s.dispatch(update(6));
  assert.deepEqual(heard, [[4, null, "full"], [5, 4, "update"]]);
});

test("reconnect and connection messages say how the socket is", () => {
  const { s } = store();
  assert.equal(s.dispatch({ type: "reconnect", message: "bye" }).connection, "retry");
  assert.equal(s.dispatch({ type: "connection", state: "open" }).connection, "open");
});

test("there is one reducer for every server message type of the protocol", () => {
  for (const type of ["full", "update", "table", "chat", "error", "pong", "reconnect"]) {
    assert.equal(typeof reducers[type], "function", type);
  }
});

test("a spectator never may act", () => {
  const { s } = store();
  s.dispatch(full({ you: null, legal: [], to_act: [0] }));
  assert.equal(mustAct(s.state), false);
  assert.equal(canAct(s.state), false);
});

test("a seat a bot took over is not asked to act, though the match waits on it", () => {
  const { s } = store();
  s.dispatch(full({ you: 0, legal: [], to_act: [0] }));
  s.dispatch({ type: "table", table: { id: "t", status: "playing", seats: [{ seat: 0, zombie: false }, { seat: 1 }] } });
  assert.equal(mustAct(s.state), true);
  s.dispatch({ type: "table", table: { id: "t", status: "playing", seats: [{ seat: 0, zombie: true }, { seat: 1 }] } });
  assert.equal(mustAct(s.state), false);
  assert.equal(canAct(s.state), false);
});
