// The table page's state: one reducer per server message type (docs/protocol.md, "Server
// messages") and a few local ones (an action sent, the connection). Reducers are pure: they
// return a new state and never touch the page; views subscribe and draw what changed.
//
// An action in flight (`pending`) is what makes a double click or a click during a bot's
// answer silent: the page sends nothing more until the server has answered it.

/** The state before the first `full`. */
export function initialState(table = null) {
  return {
    table, // the newest summary (GET /api/tables/{id}, `full`, `table` messages)
    invite: table?.invite || "", // kept: `table` messages carry no invite
    you: null, seq: null, status: null, view: null, legal: [], to_act: [], undo: false,
    clocks: [], clockAt: 0, // clocks' `seconds` were true at clockAt (the page's monotonic ms)
    result: null, log: [], chat: [],
    pending: null, // {seq, action, at}: an action sent and not answered yet
    connection: "connecting", // "open" | "retry" | "connecting"
    fatal: null, // an error after which the table cannot be shown (no such table, bad invite)
  };
}

/** Errors that end the page when they come before any `full`. */
export const FATAL = ["no_such_table", "wrong_invite"];

const PLAY = ["seq", "status", "clocks", "result", "view", "legal", "to_act", "undo"];

function withSummary(state, table) {
  const invite = table.invite || state.invite;
  return { ...state, table: { ...table, invite: table.invite ?? state.table?.invite }, invite };
}

export const reducers = {
  full(state, m, now) {
    const next = withSummary(state, m.table);
    for (const key of PLAY) next[key] = m[key];
    return { ...next, you: m.you, log: m.log.slice(), chat: m.chat.slice(), clockAt: now,
      pending: null, fatal: null };
  },

  update(state, m, now) {
    if (state.seq === null) return state;
    const next = { ...state, clockAt: now, log: [...state.log, { seq: m.seq, seat: m.seat, events: m.events }] };
    for (const key of PLAY) next[key] = m[key];
    // The answer to this page's action: its own seat acted, or its decision is over. Another
    // seat's move in a simultaneous step leaves the decision (and the action in flight) open.
    const mine = state.you !== null && (m.seat === state.you || !m.to_act.includes(state.you));
    if (state.pending && (mine || !m.legal.length)) next.pending = null;
    return next;
  },

  table(state, m) {
    return withSummary(state, m.table);
  },

  chat(state, m) {
    return { ...state, chat: [...state.chat, m.line] };
  },

  error(state, m) {
    if (state.seq === null && FATAL.includes(m.code)) return { ...state, fatal: m };
    return state.pending ? { ...state, pending: null } : state; // the server refused the action
  },

  pong(state) {
    return state;
  },

  reconnect(state) {
    return { ...state, connection: "retry" };
  },

  // ---- local messages ------------------------------------------------------------------

  /** This page sent an action answering `seq`. */
  act(state, m, now) {
    return { ...state, pending: { seq: m.seq, action: m.action, at: now } };
  },

  /** Nothing answered the action in time: the page asks for the state and may act again. */
  settle(state) {
    return state.pending ? { ...state, pending: null } : state;
  },

  connection(state, m) {
    return { ...state, connection: m.state };
  },
};

/** A store over `reducers`: dispatch a message, subscribers hear (state, previous, message). */
export function createStore(state = initialState(), now = () => performance.now()) {
  const listeners = new Set();
  return {
    get state() { return state; },
    dispatch(message) {
      const reduce = reducers[message.type];
      if (!reduce) return state;
      const previous = state;
      state = reduce(state, message, now());
      if (state !== previous) for (const fn of [...listeners]) fn(state, previous, message);
      return state;
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** True when the viewer's seat must act now: not once a bot took the seat over (the person ran
 * out of time or left), which the table summary says. */
export function mustAct(state) {
  return state.status === "playing" && state.you !== null && state.to_act.includes(state.you)
    && !state.table?.seats?.[state.you]?.zombie;
}

/** Whether a click may send an action now: a decision is open and none is in flight. */
export function canAct(state) {
  return mustAct(state) && state.legal.length > 0 && !state.pending;
}
