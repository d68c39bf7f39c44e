// The table's WebSocket (docs/protocol.md, "The table WebSocket"): connect, reconnect with an
// exponential backoff, ping, and the seq rule. Messages that pass the seq rule go to `deliver`
// (the store); the page never sees an update it already has, and a gap is answered with `sync`.
//
// No DOM here: the WebSocket constructor and the timers are passed in, so Node tests drive it
// with a fake socket and a fake clock.

export const BACKOFF_MIN = 500;
export const BACKOFF_MAX = 15000;
export const PING_EVERY = 25000;

/**
 * The seq rule as a filter: `seen(m)` says what to do with a server message given the newest
 * seq this page holds. "drop": an update it already has (a full overtook it); "gap": an update
 * that skips numbers (apply it, its view is whole, and ask for a full); "sync": a pong saying
 * the table is ahead; "take": anything else.
 */
export function seqRule(held, m) {
  if (m.type === "full") return "take";
  if (m.type === "update") {
    if (held === null) return "drop"; // an update before any full: the full is on its way
    if (m.seq <= held) return "drop";
    return m.seq === held + 1 ? "take" : "gap";
  }
  if (m.type === "pong") return held !== null && m.seq > held ? "sync" : "take";
  return "take";
}

/**
 * Open the table socket. options: {url: () => string, WebSocket, deliver(message),
 * status(kind, detail) with kind "open" | "closed" | "retry", timers: {setTimeout, clearTimeout,
 * setInterval, clearInterval}, backoff: [min, max], pingEvery}. Returns {send, close, stop, seq}.
 */
export function openSocket(options) {
  const WS = options.WebSocket;
  const timers = options.timers || globalThis;
  const [min, max] = options.backoff || [BACKOFF_MIN, BACKOFF_MAX];
  const status = options.status || (() => {});
  let ws = null;
  let closed = false; // closed by the page: never reconnect
  let delay = min;
  let retry = 0;
  let held = null; // the newest seq of a full or update taken

  function connect() {
    if (closed) return;
    const socket = new WS(options.url());
    ws = socket;
    socket.addEventListener("open", () => {
      if (ws === socket) status("open");
    });
    socket.addEventListener("message", (event) => {
      if (ws !== socket) return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (!message || typeof message !== "object") return;
      receive(message);
    });
    socket.addEventListener("close", () => {
      if (ws !== socket) return;
      ws = null;
      if (closed) return;
      status("retry", delay);
      retry = timers.setTimeout(connect, delay);
      delay = Math.min(delay * 2, max);
    });
  }

  function receive(m) {
    const verdict = seqRule(held, m);
    if (verdict === "drop") return;
    if (m.type === "full") {
      delay = min; // a good socket: the next outage starts from the shortest wait again
      held = m.seq;
    } else if (m.type === "update") {
      held = m.seq;
    }
    if (verdict === "gap" || verdict === "sync") send({ type: "sync" });
    options.deliver(m);
  }

  /** Send one message; false when the socket is not open (the caller says so). */
  function send(message) {
    if (!ws || ws.readyState !== 1) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  const ping = timers.setInterval(() => send({ type: "ping" }), options.pingEvery ?? PING_EVERY);
  connect();

  return {
    send,
    /** The newest seq taken (null before the first full). */
    get seq() { return held; },
    /** Stop for good (the page is left, or the table cannot be shown). */
    close() {
      closed = true;
      timers.clearTimeout(retry);
      timers.clearInterval(ping);
      const socket = ws;
      ws = null;
      socket?.close();
    },
  };
}
