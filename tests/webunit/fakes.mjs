// Test doubles for the table socket: a WebSocket the test speaks for the server through, and a
// clock whose timers run only when the test moves time on.

/** A fake WebSocket class; every instance is kept in `FakeSocket.made`. */
export class FakeSocket {
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.listeners = { open: [], message: [], close: [] };
    FakeSocket.made.push(this);
  }

  addEventListener(kind, fn) { this.listeners[kind].push(fn); }

  send(text) { this.sent.push(JSON.parse(text)); }

  close() { this.drop(); }

  // ---- what the test does as the server ---------------------------------------------------
  open() {
    this.readyState = 1;
    for (const fn of this.listeners.open) fn({});
  }

  say(message) {
    const data = typeof message === "string" ? message : JSON.stringify(message);
    for (const fn of this.listeners.message) fn({ data });
  }

  drop() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    for (const fn of this.listeners.close) fn({});
  }

  /** The messages this socket sent of `type`. */
  sentOf(type) { return this.sent.filter((m) => m.type === type); }
}

/** Timers that fire only when `advance(ms)` passes their time. */
export function fakeClock() {
  let now = 0;
  let next = 1;
  const timers = new Map(); // id -> {at, fn, every}
  const clock = {
    get now() { return now; },
    setTimeout(fn, ms) { timers.set(next, { at: now + ms, fn, every: 0 }); return next++; },
    setInterval(fn, ms) { timers.set(next, { at: now + ms, fn, every: ms }); return next++; },
    clearTimeout(id) { timers.delete(id); },
    clearInterval(id) { timers.delete(id); },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        now = timer.at;
        if (timer.every) timer.at += timer.every;
        else timers.delete(id);
        timer.fn();
      }
      now = end;
    },
    pending() { return timers.size; },
  };
  return clock;
}

/** A `full` message as the server sends one (docs/protocol.md), with fields to override. */
export function full(fields = {}) {
  return {
    type: "full", table: { id: "T1", game: "kingdomino", title: "Kingdomino", status: "playing", seats: [], mode: "live" },
    you: 0, seq: 4, status: "playing", clocks: [], result: null, view: { ply: 4 }, legal: [{ type: "claim", domino: 3 }],
    to_act: [0], undo: false, log: [{ seq: 4, seat: 1, events: [{ type: "x", text: "four" }] }], chat: [], ...fields,
  };
}

/** An `update` message answering after `seq` - 1. */
export function update(seq, fields = {}) {
  return {
    type: "update", seq, status: "playing", clocks: [], result: null, view: { ply: seq }, legal: [], to_act: [1],
    undo: false, seat: 0, events: [{ type: "x", text: `move ${seq}` }], ...fields,
  };
}
