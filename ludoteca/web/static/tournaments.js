// The lobby's Tournaments tab (#/tournaments): upcoming, running and finished tournaments, kept
// current by the event stream's `tournament` events, and the new-tournament form for a signed-in
// person (not a guest: the server refuses guests). The API is docs/protocol.md "Tournaments".
import { attempt, get, post } from "./api.js";
import { gameFields, labelled } from "./game_fields.js";
import { t } from "./i18n.js";
import { lobbyTabs } from "./lobby_tabs.js";
import { clear, formatDate, h } from "./ui.js";

const LISTS = ["upcoming", "running", "finished"];
/** Which list a tournament's status puts it in. */
export const listOf = (status) => (status === "registering" ? "upcoming" : status === "running" ? "running" : "finished");

/** The tournament's clock in words: a live bank and increment, or hours per move. */
export function clockWords(x) {
  return x.mode === "turn" ? t("lobby.turn", { hours: x.turn_hours })
    : t("lobby.live", { bank: Math.round(x.bank_seconds / 60), inc: x.increment_seconds });
}

/** When it starts: at its time, or once full (an arena: once its minimum has entered). */
export function startWords(x) {
  if (x.starts_at) return t("tournaments.starts_at", { when: formatDate(x.starts_at) });
  return t(x.format?.kind === "arena" ? "tournaments.when_min" : "tournaments.when_full");
}

/** Time left until `endsAt` (ISO) at `now` (ms) as m:ss or h:mm:ss; "0:00" once past. */
export function timeLeft(endsAt, now = Date.now()) {
  const seconds = Math.max(0, Math.ceil((Date.parse(endsAt) - now) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Where a running tournament is: an arena's time left, another format's round. */
export function progressWords(x, now = Date.now()) {
  if (x.format?.kind === "arena" && x.ends_at) return t("tournaments.minutes_left", { time: timeLeft(x.ends_at, now) });
  return t("tournament.round_n", { n: x.round });
}

export function mount(main, _params, session) {
  const { me } = session;
  const found = new Map(); // tournaments by id, from the three lists and the stream
  const lists = Object.fromEntries(LISTS.map((name) => [name,
    h("ul", { class: "table-list", "data-testid": `tournaments-${name}`, "aria-live": "polite" })]));
  const gameTitle = (name) => session.games.find((g) => g.name === name)?.title || name;

  clear(main).append(h("h1", {}, t("lobby.title")), lobbyTabs("tournaments"));
  const columns = h("div", { class: "lobby-layout" });
  const left = h("div", {}, LISTS.map((name) => h("section", { class: "panel" }, h("h2", {}, t(`tournaments.${name}`)), lists[name])));
  columns.append(left);
  if (me && !me.guest) columns.append(h("section", { class: "panel" }, h("h2", {}, t("tournaments.new")), newTournamentForm(session)));
  else columns.append(h("section", { class: "panel" }, h("h2", {}, t("tournaments.new")),
    h("p", { class: "hint" }, t(me ? "tournaments.guest" : "tournaments.signin")),
    me ? null : h("a", { class: "button", href: "#/signin?next=%23%2Ftournaments" }, t("nav.signin"))));
  main.append(columns);

  function row(x) {
    return h("li", { class: "table-row", "data-tournament": x.id },
      h("div", { class: "table-info" },
        h("a", { href: `#/tournament/${x.id}` }, h("strong", {}, x.name)), " ",
        h("span", { class: `tag status-${x.status}` }, t(`tournament.status.${x.status}`)),
        x.rated ? h("span", { class: "tag" }, t("table.rated")) : null,
        h("div", { class: "hint" }, [gameTitle(x.game), t(`tournament.format.${x.format.kind}`),
          t("tournaments.entrants", { n: x.entrants, max: x.max_entrants }), clockWords(x),
          x.status === "registering" ? startWords(x) : x.status === "running" ? progressWords(x) : null]
          .filter(Boolean).join(" · "))),
      h("a", { class: "button secondary", href: `#/tournament/${x.id}` }, t("tournaments.open")));
  }

  function render() {
    for (const name of LISTS) {
      const items = [...found.values()].filter((x) => listOf(x.status) === name)
        .sort((a, b) => (b.created_at || "").localeCompare(a.created_at || ""));
      clear(lists[name]).append(...(items.length ? items.map(row) : [h("li", { class: "hint" }, t(`tournaments.none_${name}`))]));
    }
  }

  let asked = 0;
  async function load() {
    const mine = ++asked;
    const answers = await Promise.all(LISTS.map((name) => attempt(() => get(`/api/tournaments?status=${name}`))));
    if (mine !== asked) return;
    found.clear();
    for (const list of answers) for (const x of list || []) found.set(x.id, x);
    render();
  }

  const off = session.on((event) => {
    if (event.type === "tournament") {
      if (event.tournament.invite_only && !found.has(event.tournament.id)) return; // not listed for everyone
      found.set(event.tournament.id, event.tournament);
      render();
    } else if (event.type === "resync") load();
  });
  load();
  return off;
}

// ---- new tournament ------------------------------------------------------------------------------
function newTournamentForm(session) {
  const { games, navigate } = session;
  const form = h("form", { class: "new-table", "data-testid": "new-tournament" });
  const { gameSelect, players, optionsBox, game, readOptions } = gameFields(games, { prefix: "tour", changed: () => nameAfterGame() });
  const name = h("input", { name: "name", required: true, maxlength: 80, "data-testid": "tour-name" });
  const format = h("select", { name: "format", "data-testid": "tour-format" },
    ["swiss", "round-robin", "knockout", "arena"].map((f) => h("option", { value: f }, t(`tournament.format.${f}`))));
  const rounds = h("input", { type: "number", name: "rounds", min: 1, max: 50, step: 1, value: 3, "data-testid": "tour-rounds" });
  const roundsBox = labelled(t("tournaments.rounds"), rounds);
  const minutes = h("input", { type: "number", name: "minutes", min: 1, max: 1440, step: 1, value: 30, "data-testid": "tour-minutes" });
  const minutesBox = labelled(t("tournaments.minutes"), minutes);
  minutesBox.hidden = true;
  const mode = h("select", { name: "mode", "data-testid": "tour-mode" },
    h("option", { value: "live" }, t("new.live")), h("option", { value: "turn" }, t("new.turn")));
  const bank = h("input", { type: "number", name: "bank", min: 1, max: 180, step: 1, value: 5 });
  const inc = h("input", { type: "number", name: "inc", min: 0, max: 300, step: 1, value: 5 });
  const hours = h("input", { type: "number", name: "hours", min: 1, max: 336, step: 1, value: 24 });
  const liveBox = h("div", { class: "row" }, labelled(t("new.bank"), bank), labelled(t("new.increment"), inc));
  const turnBox = h("div", { class: "row", hidden: true }, labelled(t("new.hours"), hours));
  const whenFull = h("option", { value: "full" }, t("tournaments.when_full"));
  const start = h("select", { name: "start", "data-testid": "tour-start" }, whenFull, h("option", { value: "time" }, t("tournaments.at_time")));
  const when = h("input", { type: "datetime-local", name: "when", "data-testid": "tour-when" });
  const whenBox = h("div", { hidden: true }, labelled(t("tournaments.start_time"), when));
  const least = h("input", { type: "number", name: "min", min: 2, max: 10000, step: 1, value: 2, "data-testid": "tour-min" });
  const most = h("input", { type: "number", name: "max", min: 2, max: 10000, step: 1, value: 8, "data-testid": "tour-max" });
  const rated = h("input", { type: "checkbox", name: "rated", id: "tour-rated" });
  const invite = h("input", { type: "checkbox", name: "invite", id: "tour-invite" });

  /** The name follows the game until the person writes their own. */
  function nameAfterGame() {
    if (!game()) return;
    if (!name.value || name.dataset.auto === "1") { name.value = t("tournaments.default_name", { game: game().title }); name.dataset.auto = "1"; }
  }
  name.addEventListener("input", () => { name.dataset.auto = ""; });
  const showMode = () => { liveBox.hidden = mode.value !== "live"; turnBox.hidden = mode.value !== "turn"; };
  format.addEventListener("change", () => {
    const arena = format.value === "arena"; // time-boxed and live only; it starts at its minimum
    roundsBox.hidden = format.value !== "swiss";
    minutesBox.hidden = !arena;
    minutes.required = arena;
    if (arena) mode.value = "live";
    mode.disabled = arena;
    whenFull.textContent = t(arena ? "tournaments.when_min" : "tournaments.when_full");
    showMode();
  });
  mode.addEventListener("change", showMode);
  start.addEventListener("change", () => { whenBox.hidden = start.value !== "time"; when.required = start.value === "time"; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: name.value, game: gameSelect.value, players: Number(players.value), options: readOptions(),
      format: format.value, rated: rated.checked, mode: mode.value,
      min_entrants: Number(least.value), max_entrants: Number(most.value), invite_only: invite.checked };
    if (format.value === "swiss") body.rounds = Number(rounds.value);
    if (format.value === "arena") body.minutes = Number(minutes.value);
    if (mode.value === "live") { body.bank_seconds = Number(bank.value) * 60; body.increment_seconds = Number(inc.value); }
    else body.turn_hours = Number(hours.value);
    if (start.value === "time" && when.value) body.starts_at = new Date(when.value).toISOString();
    const made = await attempt(() => post("/api/tournaments", body));
    if (made) navigate(`#/tournament/${made.id}`);
  });

  form.append(labelled(t("tournaments.name"), name), labelled(t("new.game"), gameSelect), labelled(t("new.players"), players), optionsBox,
    h("fieldset", {}, h("legend", {}, t("tournaments.format")), labelled(t("tournaments.format"), format), roundsBox, minutesBox),
    h("fieldset", {}, h("legend", {}, t("new.clock")), labelled(t("new.mode"), mode), liveBox, turnBox),
    h("fieldset", {}, h("legend", {}, t("tournaments.entry")), labelled(t("tournaments.start"), start), whenBox,
      h("div", { class: "row" }, labelled(t("tournaments.min"), least), labelled(t("tournaments.max"), most))),
    h("div", { class: "field check" }, rated, h("label", { for: "tour-rated" }, t("new.rated"))),
    h("div", { class: "field check" }, invite, h("label", { for: "tour-invite" }, t("tournaments.invite_only"))),
    h("div", { class: "form-submit" }, h("button", { type: "submit", "data-testid": "tour-create" }, t("tournaments.create"))));
  nameAfterGame();
  return form;
}
