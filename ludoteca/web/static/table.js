// The table page: one WebSocket per open table, the seq rule, seats and clocks, the move log,
// chat, undo, the game's renderer (from its folder, at the URL /api/games gives) or a plain
// fallback, the result and rematch.
import { attempt, del, get, post } from "./api.js";
import { getLang, t, translator } from "./i18n.js";
import { renderResult } from "./score.js";
import { clear, formatClock, h, toast, unescapeHtml } from "./ui.js";

const renderers = new Map(); // game name -> Promise<module default | null>
/** Error codes after which the page may be showing an old position. */
const BEHIND = ["stale", "not_your_turn", "illegal_action", "game_over"];

/** The game's renderer module; `url` is its `web` in /api/games (none: the plain fallback). */
function loadRenderer(game, url) {
  if (!renderers.has(game)) {
    const loading = url ? import(url) : Promise.reject(new Error("the game has no web renderer"));
    renderers.set(game, loading.then((m) => m.default, (error) => {
      console.info(`no renderer for ${game} (${error?.message}); using the fallback`);
      return null;
    })); // a renderer links its own stylesheet (ensureCss in dom.js)
  }
  return renderers.get(game);
}

export function mount(main, { id, query }, session) {
  const invite = query.get("invite") || "";
  const me = session.me;
  let state = null; // the newest full message, updated in place by updates
  let table = null; // the newest summary
  let knownInvite = invite;
  let ws = null;
  let closed = false;
  let backoff = 500;
  let retryTimer = 0;
  let pingTimer = 0;
  let clockBase = 0; // performance.now() when state.clocks arrived
  let renderer; // undefined: not loaded yet; null: fallback
  let wasMyTurn = false;
  let rematchAccepted = false; // this person offered or accepted the rematch: follow it when made
  let fatal = null;

  const root = h("div", { class: "table-page", "data-testid": "table-page" });
  const title = h("h1", { class: "table-title" }, t("table.loading"));
  const status = h("p", { class: "turn-banner", "aria-live": "polite", "data-testid": "turn-banner" });
  const seatsBox = h("section", { class: "panel seats", "aria-label": t("table.seats") });
  const controls = h("div", { class: "controls" });
  const gameRoot = h("div", { class: "game", "data-testid": "game-root" });
  const resultBox = h("div", { class: "result-box" });
  // Both scroll: focusable so a keyboard can scroll them too.
  const logList = h("ol", { class: "log", "data-testid": "log", tabindex: 0, "aria-label": t("table.log") });
  const chatList = h("ul", { class: "chat-lines", "data-testid": "chat", tabindex: 0, "aria-label": t("chat.title") });
  const chatInput = h("input", { type: "text", maxlength: 500, "aria-label": t("chat.label"), placeholder: t("chat.placeholder") });
  const chatForm = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) chatInput.value = "";
  } }, chatInput, h("button", { type: "submit" }, t("chat.send")));
  const side = h("aside", { class: "side" },
    h("section", { class: "panel" }, h("h2", {}, t("table.log")), logList),
    h("section", { class: "panel" }, h("h2", {}, t("chat.title")), chatList, me ? chatForm : h("p", { class: "hint" }, t("chat.signin"))));
  root.append(title, status, h("div", { class: "table-layout" },
    h("div", { class: "table-main" }, seatsBox, controls, gameRoot, resultBox), side));
  clear(main).append(root);

  // ---- connection ----------------------------------------------------------------------
  function url() {
    const params = new URLSearchParams();
    if (invite) params.set("invite", invite);
    if (!me) params.set("lang", getLang());
    const q = params.toString();
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${encodeURIComponent(id)}${q ? `?${q}` : ""}`;
  }

  function connect() {
    if (closed) return;
    ws = new WebSocket(url());
    ws.addEventListener("message", (e) => {
      let message;
      try { message = JSON.parse(e.data); } catch { return; }
      handle(message);
    });
    ws.addEventListener("close", () => {
      ws = null;
      if (closed || fatal) return;
      notice(t("table.reconnecting"));
      retryTimer = setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    });
  }

  function send(message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      toast(t("table.offline"));
      return false;
    }
    ws.send(JSON.stringify(message));
    return true;
  }

  function notice(text) {
    const box = document.getElementById("notice");
    box.textContent = text || "";
    box.hidden = !text;
  }

  function handle(m) {
    switch (m.type) {
      case "full":
        backoff = 500;
        notice("");
        state = m;
        table = m.table;
        if (table.invite) knownInvite = table.invite;
        clockBase = performance.now();
        renderAll();
        break;
      case "update": {
        if (!state) return;
        if (m.seq <= state.seq) return; // already have it (a full overtook it)
        if (m.seq !== state.seq + 1) send({ type: "sync" }); // a gap: the full answer replaces all
        for (const key of ["seq", "status", "clocks", "result", "view", "legal", "to_act", "undo"]) state[key] = m[key];
        state.log.push({ seq: m.seq, seat: m.seat, events: m.events });
        clockBase = performance.now();
        appendLog({ seq: m.seq, seat: m.seat, events: m.events });
        renderPlay();
        break;
      }
      case "table": {
        const invitation = table?.invite;
        table = { ...m.table, invite: m.table.invite ?? invitation };
        if (state) state.table = table;
        renderTitle();
        renderSeats();
        renderResultBox();
        if (table.rematch && rematchAccepted) location.hash = `#/table/${table.rematch}`;
        break;
      }
      case "chat":
        if (state) state.chat.push(m.line);
        appendChat(m.line);
        break;
      case "error":
        if (!state && ["no_such_table", "wrong_invite"].includes(m.code)) {
          fatal = m;
          clear(root).append(h("h1", {}, t("table.unavailable")), h("p", { class: "error", "data-testid": "fatal" }, m.message),
            h("p", {}, h("a", { href: "#/" }, t("nav.lobby"))));
          ws?.close();
          return;
        }
        toast(m.message);
        // A refused move may mean this page is behind (a lost update): ask for the whole state.
        if (BEHIND.includes(m.code)) send({ type: "sync" });
        break;
      case "pong":
        if (state && m.seq > state.seq) send({ type: "sync" });
        break;
      case "reconnect":
        notice(m.message || t("table.reconnecting"));
        break;
      default:
        break;
    }
  }

  // ---- rendering -----------------------------------------------------------------------
  const names = () => (table?.seats || []).map((s) => s.name ?? t("seat.free"));
  const you = () => (state ? state.you : null);
  const myTurn = () => state && you() !== null && state.to_act.includes(you()) && state.status === "playing";

  function renderAll() {
    renderTitle();
    renderSeats();
    clear(logList);
    for (const entry of state.log) appendLog(entry);
    clear(chatList);
    for (const line of state.chat) appendChat(line);
    renderPlay();
  }

  function renderPlay() {
    renderTurn();
    renderSeats();
    renderControls();
    renderGame();
    renderResultBox();
  }

  function renderTitle() {
    if (!table) return;
    title.textContent = t("table.heading", { title: table.title, id: table.id });
    document.title = `${myTurn() ? "● " : ""}${table.title} · ${t("app.title")}`;
  }

  function renderTurn() {
    if (!state) return;
    let text;
    if (state.status === "open") text = t("table.waiting_players");
    else if (state.status === "finished") text = t("table.finished");
    else if (state.status === "abandoned") text = t("table.abandoned");
    else if (myTurn()) text = t("table.your_turn");
    else text = t("table.turn_of", { names: state.to_act.map((s) => names()[s]).join(", ") });
    status.textContent = text;
    status.classList.toggle("mine", !!myTurn());
    // What tests and tools read: the newest seq shown, the status, and whether you must act.
    root.dataset.seq = String(state.seq);
    root.dataset.status = state.status;
    root.dataset.mine = myTurn() ? "1" : "0";
    renderTitle();
    const mine = !!myTurn();
    if (mine && !wasMyTurn && document.hidden && table?.mode === "turn" && "Notification" in window
        && Notification.permission === "granted") {
      const note = new Notification(t("notify.title"), { body: t("notify.body", { title: table.title }), tag: `ludoteca-${id}` });
      note.onclick = () => { window.focus(); note.close(); };
    }
    wasMyTurn = mine;
  }

  function clockSeconds(clock) {
    if (!clock.running) return clock.seconds;
    return clock.seconds - (performance.now() - clockBase) / 1000;
  }

  function tick() {
    if (!state?.clocks) return;
    for (const clock of state.clocks) {
      const el = seatsBox.querySelector(`[data-clock-seat="${clock.seat}"]`);
      if (el) {
        const left = clockSeconds(clock);
        el.textContent = formatClock(left);
        el.classList.toggle("low", clock.running && left < 30 && table?.mode === "live");
      }
    }
  }

  function renderSeats() {
    if (!table) return;
    clear(seatsBox).append(h("h2", {}, t("table.seats")));
    const open = table.status === "open";
    const seated = me && table.seats.some((s) => s.user === me.name);
    const list = h("ul", { class: "seat-list" });
    for (const seat of table.seats) {
      const clock = state?.clocks?.find((c) => c.seat === seat.seat);
      const acting = state?.status === "playing" && state.to_act.includes(seat.seat);
      const item = h("li", { class: `seat${acting ? " acting" : ""}${state && state.you === seat.seat ? " you" : ""}`,
        "data-testid": `seat-${seat.seat}` },
        h("span", { class: "seat-no" }, `${seat.seat + 1}`),
        h("span", { class: "seat-name" }, seat.user
          ? h("a", { href: `#/player/${encodeURIComponent(seat.user)}` }, seat.name)
          : seat.name ?? t("seat.free")),
        seat.bot ? h("span", { class: "tag" }, t("seat.bot", { level: t(`bot.${seat.bot}`) })) : null,
        seat.zombie ? h("span", { class: "tag warn" }, t("seat.zombie")) : null,
        state && state.you === seat.seat ? h("span", { class: "tag" }, t("seat.you")) : null,
        acting ? h("span", { class: "tag turn", "aria-label": t("seat.to_act") }, "▶ " + t("seat.to_act")) : null,
        clock && state.status === "playing" ? h("span", { class: `clock${clock.running ? " running" : ""}`, "data-clock-seat": clock.seat }, formatClock(clockSeconds(clock))) : null);
      if (open && seat.name === null) item.append(freeSeatControls(seat.seat, seated));
      else if (open && me && table.host === me.name && seat.user !== me.name) item.append(removeControl(seat));
      list.append(item);
    }
    seatsBox.append(list);
    const info = [t(table.mode === "turn" ? "table.mode_turn" : "table.mode_live", {
      bank: Math.round(table.bank_seconds / 60), inc: table.increment_seconds, hours: table.turn_hours }),
    table.rated ? t("table.rated") : t("table.unrated"), table.private ? t("table.private") : null].filter(Boolean);
    seatsBox.append(h("p", { class: "hint" }, info.join(" · ")));
    if (table.private && knownInvite) {
      const link = `${location.origin}${location.pathname}#/table/${table.id}?invite=${encodeURIComponent(knownInvite)}`;
      seatsBox.append(h("p", { class: "invite" }, h("label", {}, t("table.invite_link"),
        h("input", { type: "text", readonly: true, value: link, "data-testid": "invite-link", onfocus: (e) => e.target.select() })),
        h("button", { type: "button", onclick: () => navigator.clipboard?.writeText(link).then(() => toast(t("table.copied"), "info")) }, t("table.copy"))));
    }
    if (seated && (open || table.status === "playing")) {
      seatsBox.append(h("button", { type: "button", class: "secondary", "data-testid": "leave", onclick: leave }, t("table.leave")));
    }
    tick();
  }

  function freeSeatControls(seat, seated) {
    const box = h("span", { class: "seat-actions" });
    if (!me) {
      box.append(h("a", { href: `#/signin?next=${encodeURIComponent(location.hash)}` }, t("table.signin_to_join")));
      return box;
    }
    if (!seated) box.append(h("button", { type: "button", "data-testid": `join-${seat}`, onclick: () => attempt(async () => {
      table = await post(`/api/tables/${id}/join`, { seat, invite: invite || undefined });
      renderSeats();
    }) }, t("table.sit")));
    if (seated) {
      const levels = session.games.find((g) => g.name === table.game)?.bots || ["greedy"];
      const select = h("select", { "aria-label": t("table.bot_level") }, levels.map((lv) => h("option", { value: lv }, t(`bot.${lv}`))));
      select.value = levels.includes("greedy") ? "greedy" : levels[0];
      box.append(select, h("button", { type: "button", "data-testid": `bot-${seat}`, onclick: () => attempt(async () => {
        table = await post(`/api/tables/${id}/bots`, { level: select.value, seat });
        renderSeats();
      }) }, t("table.add_bot")));
    }
    return box;
  }

  /** The host frees a stranger's seat or a bot's before the start. */
  function removeControl(seat) {
    return h("span", { class: "seat-actions" }, h("button", { type: "button", class: "secondary",
      "data-testid": `remove-${seat.seat}`, "aria-label": t("table.remove_seat", { n: seat.seat + 1 }),
      onclick: () => attempt(async () => {
        table = await del(`/api/tables/${id}/seats/${seat.seat}`);
        renderSeats();
      }) }, t("table.remove")));
  }

  async function leave() {
    if (table.status === "playing" && !confirm(t("table.leave_confirm"))) return;
    const summary = await attempt(() => post(`/api/tables/${id}/leave`));
    if (summary) { table = summary; renderSeats(); }
  }

  function renderControls() {
    clear(controls);
    if (!state) return;
    if (state.undo) {
      controls.append(h("button", { type: "button", "data-testid": "undo", onclick: () => send({ type: "undo", seq: state.seq }) }, "↶ " + t("table.undo")));
    }
    if (table?.mode === "turn" && you() !== null && "Notification" in window && Notification.permission === "default"
        && state.status === "playing") {
      controls.append(h("button", { type: "button", class: "secondary", onclick: async () => {
        await Notification.requestPermission();
        renderControls();
      } }, "🔔 " + t("notify.ask")));
    }
  }

  async function renderGame() {
    if (!state) return;
    if (!state.view) {
      clear(gameRoot).append(h("p", { class: "hint" }, t(state.status === "open" ? "table.not_started" : "table.no_view")));
      return;
    }
    if (renderer === undefined) {
      const game = table.game;
      const found = await loadRenderer(game, session.games.find((g) => g.name === game)?.web);
      if (closed) return;
      renderer = found;
      gameRoot.classList.add(`game-${game}`);
    }
    const lang = getLang();
    if (renderer) {
      const ctx = {
        view: state.view,
        legal: state.legal,
        you: state.you,
        names: names(),
        lang,
        t: translator(renderer.messages, lang),
        act: (action) => send({ type: "act", seq: state.seq, action }),
        notify: (text) => toast(text, "info"),
      };
      try {
        renderer.render(gameRoot, ctx);
      } catch (error) {
        console.error(error);
        renderFallback(t("table.renderer_failed"));
      }
    } else {
      renderFallback(t(state.legal.length ? "table.fallback" : "table.fallback_watch"));
    }
  }

  function renderFallback(why) {
    clear(gameRoot).append(h("p", { class: "hint" }, why));
    if (state.legal.length) {
      gameRoot.append(h("div", { class: "fallback-actions", role: "group", "aria-label": t("table.legal") },
        state.legal.map((action, i) => h("button", { type: "button", class: "action", dataset: { actionIndex: String(i) },
          onclick: () => send({ type: "act", seq: state.seq, action }) }, JSON.stringify(action)))));
    }
    gameRoot.append(h("details", { class: "view-json" }, h("summary", {}, t("table.view_json")),
      h("pre", {}, JSON.stringify(state.view, null, 1))));
  }

  function renderResultBox() {
    clear(resultBox);
    if (!table || !state) return;
    const result = state.result || table.result;
    if (!result) return;
    resultBox.append(renderResult(result, names()));
    const row = h("p", { class: "after-game" });
    const seated = you() !== null;
    const offer = table.rematch_offer;
    const answer = (accept) => attempt(async () => {
      rematchAccepted = accept;
      const fresh = await post(`/api/tables/${id}/rematch`, { accept });
      if (fresh.rematch && accept) location.hash = `#/table/${fresh.rematch}`;
    });
    if (table.rematch) {
      row.append(h("a", { class: "button", href: `#/table/${table.rematch}`, "data-testid": "rematch-link" }, t("table.rematch_ready")));
    } else if (seated && table.status === "finished" && offer && offer.waiting.includes(you())) {
      row.append(t("table.rematch_offered", { name: names()[offer.by] ?? "?" }), " ",
        h("button", { type: "button", "data-testid": "rematch", onclick: () => answer(true) }, t("table.rematch_accept")), " ",
        h("button", { type: "button", "data-testid": "rematch-decline", onclick: () => answer(false) }, t("table.rematch_decline")));
    } else if (seated && table.status === "finished" && offer) {
      row.append(h("span", { "data-testid": "rematch-waiting" },
        t("table.rematch_waiting", { names: offer.waiting.map((s) => names()[s] ?? "?").join(", ") })));
    } else if (seated && table.status === "finished") {
      row.append(h("button", { type: "button", "data-testid": "rematch", onclick: () => answer(true) }, t("table.rematch")));
    }
    const q = knownInvite ? `?invite=${encodeURIComponent(knownInvite)}` : "";
    row.append(" ", h("a", { href: `#/replay/${id}${q}` }, t("table.replay")));
    resultBox.append(row);
  }

  function appendLog(entry) {
    const text = entry.events.map((e) => e.text).filter(Boolean).join(" ");
    if (!text) return;
    logList.append(h("li", { class: entry.seat === null ? "notice-entry" : "" }, text));
    while (logList.children.length > 300) logList.firstElementChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }

  function appendChat(line) {
    // the account name beside a display name, so nobody passes for someone else
    const account = line.user && line.user !== line.name ? h("span", { class: "chat-account" }, ` @${line.user}`) : null;
    chatList.append(h("li", {}, h("strong", {}, line.name), account, ": ", unescapeHtml(line.text)));
    chatList.scrollTop = chatList.scrollHeight;
  }

  // ---- start ---------------------------------------------------------------------------
  get(`/api/tables/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`)
    .then((summary) => { if (summary.invite) knownInvite = summary.invite; if (!table) { table = summary; renderTitle(); } })
    .catch(() => {});
  connect();
  const clockTimer = setInterval(tick, 250);
  pingTimer = setInterval(() => { if (ws?.readyState === WebSocket.OPEN) send({ type: "ping" }); }, 25000);

  return () => {
    closed = true;
    clearTimeout(retryTimer);
    clearInterval(clockTimer);
    clearInterval(pingTimer);
    notice("");
    ws?.close();
    if (renderer?.destroy) renderer.destroy(gameRoot);
    document.title = t("app.title");
  };
}
