// The app shell: session, header (name, language, sign out), the hash router and the event stream.
import { attempt, get, patch, post } from "./api.js";
import { getLang, initI18n, languages, setLang, t } from "./i18n.js";
import { clear, h, toast } from "./ui.js";

/** The shell every page is mounted with (`mount(main, params, shell)`): the signed-in account
 * (or null), the games, whether the arena sends email (`email`) and the account's notification
 * choices (`notify`: a notice whose page channel is off is not shown), the turn-based tables waiting for your move (ids; the header's badge and
 * the title's "(2)"), the event stream (`on`), and what a page may ask of the shell (go to
 * another page, read the account again, play as a guest). Pages import nothing from this
 * module, so each can be mounted alone with a fake shell (tests/webunit/pages.test.mjs). */
const session = {
  me: null,
  games: [],
  email: false,
  notify: null,
  waiting: new Set(),
  listeners: new Set(),
  on(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); },
  navigate,
  refreshMe,
  playAsGuest,
  afterSignIn,
};

let unmount = null;
let events = null;

const routes = [
  [/^\/?$/, () => import("./lobby.js").then((m) => m.mountLobby)],
  [/^\/signin$/, () => import("./lobby.js").then((m) => m.mountSignIn)],
  [/^\/table\/([\w-]+)$/, () => import("./table.js").then((m) => m.mount)],
  [/^\/replay\/([\w-]+)$/, () => import("./replay.js").then((m) => m.mount)],
  [/^\/leaderboard\/([\w-]+)$/, () => import("./leaderboard.js").then((m) => m.mount)],
  [/^\/leaderboard$/, () => import("./leaderboard.js").then((m) => m.mount)],
  [/^\/player\/([^/?]+)$/, () => import("./player.js").then((m) => m.mount)],
  [/^\/tournaments$/, () => import("./tournaments.js").then((m) => m.mount)],
  [/^\/tournament\/([\w-]+)$/, () => import("./tournament.js").then((m) => m.mount)],
  [/^\/settings$/, () => import("./settings.js").then((m) => m.mount)],
  [/^\/email\/confirm$/, () => import("./settings.js").then((m) => m.mountConfirm)],
  [/^\/forgot$/, () => import("./settings.js").then((m) => m.mountForgot)],
  [/^\/reset$/, () => import("./settings.js").then((m) => m.mountReset)],
];

let routed = 0; // the latest route(): an older one still loading its page gives way to it

async function route() {
  const mine = ++routed;
  const raw = location.hash.replace(/^#/, "") || "/";
  const [path, search = ""] = raw.split("?");
  const query = new URLSearchParams(search);
  const main = document.getElementById("main");
  if (unmount) { try { unmount(); } catch (error) { console.error(error); } unmount = null; }
  for (const [pattern, load] of routes) {
    const match = path.match(pattern);
    if (!match) continue;
    const mount = await load();
    if (mine !== routed) return; // the address changed while the page loaded
    const id = match[1] ? decodeURIComponent(match[1]) : undefined;
    unmount = mount(main, { id, query, path }, session) || null;
    renderHeader();
    return;
  }
  clear(main).append(h("h1", {}, t("page.not_found")), h("p", {}, h("a", { href: "#/" }, t("nav.lobby"))));
  renderHeader();
}

function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

/** Re-reads the account (after sign-in or sign-out) and reopens the event stream. */
async function refreshMe() {
  try {
    session.me = (await get("/api/session")).me;
  } catch (error) {
    toast(error.message);
    session.me = null;
  }
  if (session.me) await setLang(session.me.language, false);
  session.notify = session.me && !session.me.guest ? (await get("/api/notifications").catch(() => null))?.prefs ?? null : null;
  session.waiting = new Set(); // until the new stream says
  openEvents();
  renderHeader();
  showWaiting();
}

// ---- turn-based tables waiting for your move: the stream opens with the whole list (waiting),
// then each turn adds its table and each turn_over or finished removes it (docs/protocol.md) ----
function countWait(data) {
  if (data.type === "waiting") session.waiting = new Set(data.tables);
  else if (data.type === "turn") session.waiting.add(data.table);
  else session.waiting.delete(data.table);
  showWaiting();
}

function showWaiting() {
  const n = session.waiting.size;
  const badge = document.querySelector("[data-testid=waiting-badge]");
  if (badge) {
    badge.hidden = n === 0;
    badge.textContent = String(n);
    badge.setAttribute("aria-label", t("nav.waiting", { n }));
    badge.title = t("nav.waiting", { n });
  }
  markTitle();
}

const MARK = /^\(\d+\) /;
/** "(2) Ludoteca": the count before whatever title the page set (the table page sets its own). */
function markTitle() {
  const n = session.waiting.size;
  const bare = document.title.replace(MARK, "");
  const want = n ? `(${n}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

function openEvents() {
  events?.close();
  events = new EventSource("/api/events", { withCredentials: true });
  let failed = false;
  events.addEventListener("open", () => {
    if (failed) emit({ type: "resync" }); // events are not replayed: read the lists again
    failed = false;
  });
  events.addEventListener("error", () => { failed = true; });
  for (const kind of ["lobby", "waiting", "turn", "turn_over", "finished", "rematch", "reconnect", "removed", "signed_out",
    "tournament", "tournament_table", "challenge"]) {
    events.addEventListener(kind, (e) => {
      let data;
      try { data = JSON.parse(e.data); } catch { return; }
      emit(data);
    });
  }
}

function emit(data) {
  if (data.type === "turn") announceTurn(data);
  if (["waiting", "turn", "turn_over", "finished", "removed"].includes(data.type)) countWait(data);
  if (data.type === "removed") toast(t("table.removed_you", { id: data.table }), "info");
  if (data.type === "tournament_table") announceTournamentTable(data);
  if (data.type === "challenge") announceChallenge(data.challenge);
  if (data.type === "signed_out") { refreshMe(); return; } // this browser's session may be the one that ended
  for (const fn of session.listeners) fn(data);
}

function announceTurn(data) {
  if (session.notify?.turn?.page === false) return; // chosen off (the badge still counts it)
  const here = location.hash.startsWith(`#/table/${data.table}`);
  if (here && !document.hidden) return; // the table page shows it
  const title = session.games.find((g) => g.name === data.game)?.title || data.game;
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("notify.title"), { body: t("notify.body", { title }), tag: `ludoteca-${data.table}` });
    note.onclick = () => { window.focus(); location.hash = `#/table/${data.table}`; note.close(); };
  } else if (!here) {
    const item = toast(t("notify.body", { title }), "info");
    item.prepend(h("a", { href: `#/table/${data.table}` }, t("notify.open")), " ");
  }
}

/** Your tournament table is ready: said on any page but that tournament's own (it shows it). */
function announceTournamentTable(data) {
  if (session.notify?.tournament_table?.page === false) return;
  if (location.hash.startsWith(`#/tournament/${data.tournament}`) || location.hash.startsWith(`#/table/${data.table}`)) return;
  const item = toast(t("tournament.your_table_ready", { n: data.round }), "info");
  item.prepend(h("a", { href: `#/table/${data.table}` }, t("tournament.go_to_table")), " ");
}

/** A challenge received (answer it on your page), accepted (go to its table) or ended. */
function announceChallenge(c) {
  const me = session.me?.name;
  if (!me) return;
  const page = `#/player/${encodeURIComponent(me)}`;
  if (c.status === "open" && c.challenged === me) {
    if (session.notify?.challenge?.page === false) return; // chosen off (the page still lists it)
    const item = toast(t("friends.challenged_you", { name: c.challenger_name }), "info");
    if (location.hash !== page) item.prepend(h("a", { href: page, "data-testid": "challenge-toast" }, t("friends.answer")), " ");
  } else if (c.status === "accepted" && c.challenger === me) {
    const item = toast(t("friends.accepted", { name: c.challenged_name }), "info");
    item.prepend(h("a", { href: `#/table/${c.table}` }, t("notify.open")), " ");
  } else if (c.status !== "open" && c.status !== "accepted") {
    toast(t(`friends.ended_${c.status}`), "info");
  }
}

function renderHeader() {
  const header = document.getElementById("header");
  const me = session.me;
  const select = h("select", { id: "lang", "aria-label": t("nav.language"), "data-testid": "lang",
    onchange: () => changeLanguage(select.value) },
    languages().map((l) => h("option", { value: l }, t(`lang.${l}`))));
  select.value = getLang();
  const user = me
    ? [h("a", { href: `#/player/${encodeURIComponent(me.name)}`, class: "me", "data-testid": "me" }, me.display_name),
      me.guest ? h("span", { class: "tag" }, t("nav.guest")) : null,
      h("button", { type: "button", class: "link", "data-testid": "signout", onclick: signOut }, t("nav.signout"))]
    : [h("a", { href: "#/signin" }, t("nav.signin")),
      h("button", { type: "button", class: "link", "data-testid": "guest", onclick: playAsGuest }, t("nav.guest_play"))];
  const n = session.waiting.size;
  clear(header).append(
    h("a", { href: "#/", class: "brand" }, "Ludoteca"),
    h("nav", { "aria-label": t("nav.main") },
      h("a", { href: "#/" }, t("nav.lobby"),
        h("span", { class: "badge", "data-testid": "waiting-badge", hidden: n === 0, role: "status",
          "aria-label": t("nav.waiting", { n }), title: t("nav.waiting", { n }) }, String(n))),
      h("a", { href: "#/leaderboard" }, t("nav.leaderboard"))),
    h("div", { class: "user" }, user, h("label", { class: "lang" }, h("span", { class: "sr-only" }, t("nav.language")), select)));
}

async function changeLanguage(lang) {
  if (session.me) {
    const updated = await attempt(() => patch("/api/me", { language: lang }));
    if (!updated) { renderHeader(); return; }
    session.me = updated;
    await setLang(lang, false);
  } else {
    await setLang(lang, true);
  }
  route(); // pages and sockets take the language when they open
}

async function playAsGuest() {
  const me = await attempt(() => post("/api/guest"));
  if (!me) return;
  if (me.language !== getLang()) session.me = await attempt(() => patch("/api/me", { language: getLang() })) || me;
  await refreshMe();
  afterSignIn();
}

/** From the sign-in page, go where it was asked from; anywhere else (the header's guest button
 * on a table page, say), stay and show the same page to the new account. */
function afterSignIn() {
  if (!location.hash.startsWith("#/signin")) { route(); return; }
  const next = new URLSearchParams(location.hash.split("?")[1] || "").get("next");
  navigate(next && next.startsWith("#/") ? next : "#/");
}

async function signOut() {
  await attempt(() => post("/api/signout"));
  session.me = null;
  await setLang(getLang(), true);
  await refreshMe();
  navigate("#/");
}

async function start() {
  const games = get("/api/games"); // asked for while the catalog loads
  games.catch(() => {}); // its failure is told below, once words are there to tell it
  const email = get("/api/email").then((found) => found.enabled === true, () => false);
  await initI18n();
  new MutationObserver(markTitle).observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true });
  try { session.games = await games; } catch (error) { toast(error.message); }
  session.email = await email;
  await refreshMe();
  window.addEventListener("hashchange", route);
  await route();
}

start();
