// The table page, put together: the socket (socket.js: connect, backoff, ping, the seq rule)
// feeds the store (store.js: one reducer per message), and views draw what changed: seats and
// clocks, the turn banner, controls, the game (through the renderer host, host.js), the result
// and rematch, the log and the chat. The result's modules (views/result.js, score.js) are
// fetched when the match has a result: a table in play never loads them.
import { get } from "./api.js";
import { getLang, t } from "./i18n.js";
import { createHost, loadRenderer } from "./host.js";
import { offerView } from "./push.js";
import { openSocket } from "./socket.js";
import { canAct, createStore, initialState } from "./store.js";
import { clear, h, toast, unescapeHtml } from "./ui.js";
import { chatForm, chatView, liveRegion, logView } from "./views/log.js";
import { runClocks, seatsView } from "./views/seats.js";
import { controlsView, turnView } from "./views/turn.js";

/** Error codes after which the page may be showing an old position: it asks for the state. */
const BEHIND = ["stale", "not_your_turn", "illegal_action", "game_over"];
/** An action unanswered this long is taken as lost: the page asks for the state. */
const ANSWER_WAIT = 8000;

/** Every seat's display name ("free" for an empty seat). */
const seatNames = (state) => (state.table?.seats || []).map((s) => s.name ?? t("seat.free"));

/** The result view (views/result.js), fetched the first time the state holds a result. */
function resultLater(box, deps) {
  let update = null;
  let latest = null;
  return function view(state) {
    latest = state;
    if (update) { update(state); return; }
    if (update === false || !(state.result || state.table?.result)) return;
    update = false; // asked for
    import("./views/result.js").then((m) => { update = m.resultView(box, deps); update(latest); },
      () => { update = null; }); // not loaded (offline): the next state asks again
  };
}

/** The game's rules in a few lines, folded, once the game is known: its own words `howto.1`,
 * `howto.2`… (its folder's i18n, sent by /api/games as `labels`), none when it has none. */
function howToView(box, game) {
  if (!game || box.dataset.game === game.name) return;
  const said = (i) => game.labels?.[getLang()]?.[`howto.${i}`] ?? game.labels?.en?.[`howto.${i}`];
  const lines = [];
  for (let i = 1; said(i); i += 1) lines.push(said(i));
  if (!lines.length) return;
  box.dataset.game = game.name;
  box.hidden = false;
  box.replaceChildren(h("summary", {}, t("howto.title")), h("ol", {}, ...lines.map((line) => h("li", {}, line))));
}

/** The way back to the tournament whose director opened this table (none for a lobby table). */
function tournamentLink(box, tournament) {
  if (!tournament || box.dataset.tournament === tournament) return;
  box.dataset.tournament = tournament;
  box.hidden = false;
  box.replaceChildren(h("a", { href: `#/tournament/${encodeURIComponent(tournament)}`, "data-testid": "tournament-link" }, t("table.to_tournament")));
}

/** `then()` once `box` has content (a module it needs may still be loading), for 5 s at most. */
function whenDrawn(box, then, frames = 300) {
  if (box.childElementCount) then();
  else if (frames > 0) requestAnimationFrame(() => whenDrawn(box, then, frames - 1));
}

const motion = () => (matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth");

export function mount(main, { id, query }, session) {
  const invite = query.get("invite") || "";
  const me = session.me;
  const store = createStore({ ...initialState(), invite });
  let host = null;
  let answerTimer = 0;

  const root = h("div", { class: "table-page", "data-testid": "table-page" });
  const title = h("h1", { class: "table-title" }, t("table.loading"));
  const banner = h("p", { class: "turn-banner", "aria-live": "polite", "data-testid": "turn-banner" });
  const seatsBox = h("section", { class: "panel seats", "aria-label": t("table.seats") });
  const controls = h("div", { class: "controls" });
  const gameRoot = h("div", { class: "game", "data-testid": "game-root" });
  const resultBox = h("div", { class: "result-box" });
  // Both scroll: focusable so a keyboard can scroll them too.
  const logList = h("ol", { class: "log", "data-testid": "log", tabindex: 0, "aria-label": t("table.log") });
  const chatList = h("ul", { class: "chat-lines", "data-testid": "chat", tabindex: 0, "aria-label": t("chat.title") });
  const live = liveRegion(); // what a screen reader hears: each move, chat line and the end
  // The compact table (style.css): the game first; seats, controls, log and chat aside (below on a phone).
  const howTo = h("details", { class: "panel howto", "data-testid": "howto", hidden: true });
  const side = h("aside", { class: "side" }, seatsBox, controls, howTo,
    h("section", { class: "panel" }, h("h2", {}, t("table.log")), logList, live.region),
    h("section", { class: "panel" }, h("h2", {}, t("chat.title")), chatList,
      me ? chatForm(send) : h("p", { class: "hint" }, t("chat.signin"))));
  const back = h("p", { class: "tournament-back", hidden: true }); // a tournament's table: back to it
  const pushOffer = h("div", { class: "panel push-offer", role: "region", hidden: true, "data-testid": "push-offer" });
  root.append(title, banner, back, pushOffer, h("div", { class: "table-layout" },
    h("div", { class: "table-main" }, resultBox, gameRoot), side)); // the result above the final board
  clear(main).append(root);
  let coach = null; // the hint button (analysis/coach.js), fetched only at a table that allows hints
  let coachAsked = false;
  function coachView(state) {
    if (!coachAsked && state.table?.hints) {
      coachAsked = true;
      import("./analysis/coach.js").then((m) => {
        coach = m.coachView({ send, redraw: () => drawGame(store.state),
          words: (action) => host?.describe(action, getLang()) ?? null });
        controls.after(coach.el);
        coach.view(store.state);
      });
    }
    coach?.view(state);
  }

  function send(message) {
    if (socket.send(message)) return true;
    toast(t("table.offline"));
    return false;
  }

  /** A renderer's choice: sent once; a click while an action is in flight does nothing. */
  function act(action) {
    const state = store.state;
    if (!canAct(state)) return false;
    if (!send({ type: "act", seq: state.seq, action })) return false;
    store.dispatch({ type: "act", seq: state.seq, action });
    clearTimeout(answerTimer);
    answerTimer = setTimeout(() => {
      if (store.state.pending?.seq !== state.seq) return;
      store.dispatch({ type: "settle" });
      socket.send({ type: "sync" });
    }, ANSWER_WAIT);
    return true;
  }

  function notice(text) {
    const box = document.getElementById("notice");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function drawGame(state) {
    if (!state.view) {
      clear(gameRoot).append(h("p", { class: "hint" }, t(state.status === "open" ? "table.not_started" : "table.no_view")));
      return;
    }
    if (!host) {
      const game = state.table.game;
      host = createHost(gameRoot, { game, url: session.games.find((g) => g.name === game)?.web, t,
        notify: (text) => toast(text, "info") });
    }
    host.draw({ view: state.view, legal: state.legal, you: state.you, lang: getLang(), act, pending: state.pending, seq: state.seq,
      show: coach?.show(state) ?? null,
      names: seatNames(state) });
  }

  const views = [
    turnView({ root, title, banner, id }),
    seatsView(seatsBox, { me, games: session.games, id, invite, store }),
    controlsView(controls, send),
    resultLater(resultBox, { id }),
    logView(logList, live.say),
    chatView(chatList),
    coachView,
    (state) => howToView(howTo, session.games.find((g) => g.name === state.table?.game)),
    (state) => tournamentLink(back, state.table?.tournament),
    offerView(pushOffer, me),
  ];

  store.subscribe((state, previous, message) => {
    if (state.fatal) {
      clear(root).append(h("h1", {}, t("table.unavailable")), h("p", { class: "error", "data-testid": "fatal" }, state.fatal.message),
        h("p", {}, h("a", { href: "#/" }, t("nav.lobby"))));
      socket.close();
      return;
    }
    for (const view of views) view(state, previous);
    // An action in flight only marks the board busy: redrawing it would delay the answer.
    const play = ["view", "legal", "you", "table"].some((key) => state[key] !== previous[key]);
    if (state.seq !== null && play) drawGame(state);
    else if (state.pending !== previous.pending) gameRoot.toggleAttribute("aria-busy", !!state.pending);
    if (message.type === "full") notice("");
    if (message.type === "reconnect") notice(message.message || t("table.reconnecting"));
    afterEnd(state, previous, message);
  });

  /** The end said aloud, and a made rematch followed: every seated person accepted it. */
  function afterEnd(state, previous, message) {
    if (message.type === "chat") live.say(`${message.line.name}: ${unescapeHtml(message.line.text)}`);
    const result = state.result || state.table?.result;
    if (state.status === "finished" && previous.status === "playing" && result) {
      const last = message.type === "update" ? live.region.textContent : ""; // the last move's words first
      const names = seatNames(state);
      import("./score.js").then(({ winnersText }) => live.say(`${last} ${t("table.finished")} ${winnersText(result, names)}`));
      whenDrawn(resultBox, () => resultBox.scrollIntoView({ block: "start", behavior: motion() }));
    }
    const made = state.table?.rematch;
    if (message.type === "table" && made && previous.table && !previous.table.rematch && state.you !== null) location.hash = `#/table/${made}`;
  }

  function hear(message) {
    store.dispatch(message);
    coach?.hear(message);
    if (message.type !== "error" || store.state.fatal) return;
    toast(message.message);
    if (BEHIND.includes(message.code)) send({ type: "sync" }); // a refused move: this page may be behind
  }

  const socket = openSocket({
    url: () => {
      const params = new URLSearchParams();
      if (invite) params.set("invite", invite);
      if (!me) params.set("lang", getLang());
      const q = params.toString();
      return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(id)}${q ? `?${q}` : ""}`;
    },
    WebSocket,
    deliver: hear,
    status: (kind) => {
      if (kind === "retry") notice(t("table.reconnecting"));
      store.dispatch({ type: "connection", state: kind });
    },
  });

  get(`/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`)
    .then((summary) => { // a summary that is not older than what the socket said, or its invite
      loadRenderer(session.games.find((g) => g.name === summary.game)?.web); // while the socket opens
      const state = store.state;
      if (!state.table) store.dispatch({ type: "table", table: summary });
      else if (summary.invite && !state.invite) store.dispatch({ type: "table", table: { ...state.table, invite: summary.invite } });
    })
    .catch(() => {});
  const stopClocks = runClocks(seatsBox, store);

  return () => {
    socket.close();
    clearTimeout(answerTimer);
    stopClocks();
    notice("");
    host?.destroy();
    document.title = t("app.title");
  };
}
