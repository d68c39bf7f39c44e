// The lobby (public tables live from the event stream, your tables, the new-table form) and the
// sign-in page (sign in, sign up, play as a guest). The shell (app.js) mounts them with itself as
// `shell`: the account, the games, the event stream, and navigate/refreshMe/playAsGuest/afterSignIn.
import { hintsField } from "./analysis/hints_option.js";
import { attempt, get, post } from "./api.js";
import { gameFields, labelled } from "./game_fields.js";
import { lobbyTabs } from "./lobby_tabs.js";
import { getLang, t } from "./i18n.js";
import { clear, h, put } from "./ui.js";

// ---- sign in ---------------------------------------------------------------------------------
export function mountSignIn(main, _params, shell) {
  const { afterSignIn, playAsGuest, refreshMe } = shell;
  const field = (label, attrs) => h("label", { class: "field" }, h("span", {}, label), h("input", { required: true, ...attrs }));
  const signinForm = h("form", { class: "panel", "data-testid": "signin-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(signinForm);
    const me = await attempt(() => post("/api/signin", { name: data.get("name"), password: data.get("password") }));
    if (me) { await refreshMe(); afterSignIn(); }
  } }, h("h2", {}, t("signin.title")),
  field(t("signin.name"), { name: "name", autocomplete: "username", minlength: 3, maxlength: 24 }),
  field(t("signin.password"), { name: "password", type: "password", autocomplete: "current-password" }),
  h("button", { type: "submit" }, t("signin.submit")),
  shell.email ? h("p", {}, h("a", { href: "#/forgot", "data-testid": "forgot-link" }, t("forgot.link"))) : null);
  const signupForm = h("form", { class: "panel", "data-testid": "signup-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(signupForm);
    const me = await attempt(() => post("/api/signup", { name: data.get("name"), password: data.get("password"), language: getLang() }));
    if (me) { await refreshMe(); afterSignIn(); }
  } }, h("h2", {}, t("signup.title")),
  field(t("signin.name"), { name: "name", autocomplete: "username", minlength: 3, maxlength: 24, pattern: "[A-Za-z][A-Za-z0-9._\\-]{2,23}", title: t("signup.name_rule") }),
  h("p", { class: "hint" }, t("signup.name_rule")),
  field(t("signin.password"), { name: "password", type: "password", autocomplete: "new-password", minlength: 8, maxlength: 128 }),
  h("button", { type: "submit" }, t("signup.submit")));
  const guest = h("section", { class: "panel" }, h("h2", {}, t("guest.title")), h("p", {}, t("guest.text")),
    h("button", { type: "button", "data-testid": "guest-form", onclick: playAsGuest }, t("nav.guest_play")));
  put(clear(main), h("h1", {}, t("signin.heading")),
    shell.me ? h("p", {}, t("signin.already", { name: shell.me.display_name })) : null,
    h("div", { class: "grid3" }, signinForm, signupForm, guest));
}

// ---- lobby -----------------------------------------------------------------------------------
export function mountLobby(main, _params, session) {
  const { me, navigate, playAsGuest } = session;
  const tables = new Map(); // public tables by id
  const publicList = h("ul", { class: "table-list", "data-testid": "lobby-list", "aria-live": "polite" });
  const mineList = h("ul", { class: "table-list", "data-testid": "my-tables" });
  const gameTitle = (name) => session.games.find((g) => g.name === name)?.title || name;

  clear(main).append(h("h1", {}, t("lobby.title")), lobbyTabs("tables"));
  if (!me) {
    main.append(h("section", { class: "panel welcome" }, h("p", {}, t("lobby.welcome", {
      games: new Intl.ListFormat(getLang(), { type: "conjunction" }).format(session.games.map((g) => g.title)) })),
      h("p", { class: "row" }, h("a", { class: "button", href: "#/signin" }, t("nav.signin")),
        h("button", { type: "button", "data-testid": "lobby-guest", onclick: playAsGuest }, t("nav.guest_play")))));
  }
  const columns = h("div", { class: "lobby-layout" });
  main.append(columns);
  const left = h("div", {});
  columns.append(left);
  if (me) {
    left.append(h("section", { class: "panel" }, h("h2", {}, t("lobby.mine")), mineList));
    columns.append(h("section", { class: "panel" }, h("h2", {}, t("new.title")), newTableForm(session)));
  }
  left.append(h("section", { class: "panel" }, h("h2", {}, t("lobby.public")), publicList));

  function row(table) {
    const seated = me && table.seats.some((s) => s.user === me.name);
    const waits = waitsForMe(table);
    const free = table.seats.filter((s) => s.name === null).length;
    const who = table.seats.map((s) => s.name ?? t("seat.free")).join(", ");
    const clock = table.mode === "turn" ? t("lobby.turn", { hours: table.turn_hours })
      : t("lobby.live", { bank: Math.round(table.bank_seconds / 60), inc: table.increment_seconds });
    return h("li", { class: waits ? "table-row waiting" : "table-row", "data-table": table.id, "data-waiting": waits ? "1" : null },
      h("div", { class: "table-info" },
        h("strong", {}, table.title), " ", h("span", { class: `tag status-${table.status}` }, t(`status.${table.status}`)),
        table.your_turn ? h("span", { class: "tag turn" }, t("lobby.your_turn")) : null,
        table.rated ? h("span", { class: "tag" }, t("table.rated")) : null,
        table.private ? h("span", { class: "tag" }, t("table.private")) : null,
        h("div", { class: "hint" }, `${who} · ${clock}`)),
      h("div", { class: "row" },
        table.status === "open" && me && !seated && free
          ? h("button", { type: "button", "data-testid": `join-${table.id}`, onclick: () => attempt(async () => {
            await post(`/api/tables/${table.id}/join`, {});
            navigate(`#/table/${table.id}`);
          }) }, t("lobby.join")) : null,
        h("a", { class: "button secondary", href: `#/table/${table.id}` }, seated ? t("lobby.open") : t("lobby.watch"))));
  }

  function renderPublic() {
    const list = [...tables.values()].filter((x) => x.status === "open" || x.status === "playing")
      .sort((a, b) => (b.created_at || "").localeCompare(a.created_at || ""));
    clear(publicList).append(...(list.length ? list.map(row) : [h("li", { class: "hint" }, t("lobby.none"))]));
  }

  async function loadPublic() {
    const list = await attempt(() => get("/api/tables?status=all"));
    if (!list) return;
    tables.clear();
    for (const x of list) tables.set(x.id, x);
    renderPublic();
  }

  /** Your move, or an open table you sit at (seat bots or invite someone to start it). */
  function waitsForMe(table) {
    return Boolean(table.your_turn) || (table.status === "open" && me && table.seats.some((s) => s.user === me.name));
  }

  let minesAsked = 0;
  async function loadMine() {
    if (!me) return;
    const asked = ++minesAsked;
    const list = await attempt(() => get("/api/me/tables"));
    // events come in bursts (a move: "lobby", then "turn"): an older answer arriving last is stale
    if (!list || asked !== minesAsked) return;
    // waiting for you first (your move, then open tables), each group newest first as sent
    const rank = (x) => (x.your_turn ? 0 : waitsForMe(x) ? 1 : 2);
    list.sort((a, b) => rank(a) - rank(b));
    clear(mineList).append(...(list.length ? list.map(row) : [h("li", { class: "hint" }, t("lobby.none_mine"))]));
  }

  const off = session.on((event) => {
    if (event.type === "lobby") {
      tables.set(event.table.id, event.table);
      renderPublic();
      if (me && event.table.seats.some((s) => s.user === me.name)) loadMine();
    } else if (event.type === "resync") {
      loadPublic();
      loadMine();
    } else if (["finished", "rematch", "turn", "turn_over"].includes(event.type)) {
      loadMine();
    }
  });
  loadPublic();
  loadMine();
  return off;
}

// ---- new table -------------------------------------------------------------------------------
function newTableForm(session) {
  const { games, navigate } = session;
  const form = h("form", { class: "new-table", "data-testid": "new-table" });
  const { gameSelect, players, optionsBox, game, readOptions } = gameFields(games, { changed: () => fillSeats() });
  const seatsBox = h("fieldset", { class: "bots" });
  const mode = h("select", { name: "mode", "data-testid": "new-mode" },
    h("option", { value: "live" }, t("new.live")), h("option", { value: "turn" }, t("new.turn")));
  const bank = h("input", { type: "number", name: "bank", min: 1, max: 180, step: 1, value: 10 });
  const inc = h("input", { type: "number", name: "inc", min: 0, max: 300, step: 1, value: 10 });
  const hours = h("input", { type: "number", name: "hours", min: 1, max: 336, step: 1, value: 24 });
  const liveBox = h("div", { class: "row" }, labelled(t("new.bank"), bank), labelled(t("new.increment"), inc));
  const turnBox = h("div", { class: "row", hidden: true }, labelled(t("new.hours"), hours));
  const rated = h("input", { type: "checkbox", name: "rated", "aria-describedby": "new-rated-why" });
  const ratedWhy = h("span", { class: "hint", id: "new-rated-why", "data-testid": "rated-why", hidden: true }, t("new.rated_bots"));
  const priv = h("input", { type: "checkbox", name: "private" });
  const hints = hintsField(rated); // the coach's hints: never with "Rated"

  function fillSeats() {
    const g = game();
    const n = Number(players.value);
    clear(seatsBox).append(h("legend", {}, t("new.seats")));
    seatsBox.append(h("p", { class: "hint" }, t("new.seat_you")));
    for (let seat = 1; seat < n; seat += 1) {
      const select = h("select", { "data-bot-seat": seat, "data-testid": `new-seat-${seat}`, onchange: ratedOnlyForPeople },
        h("option", { value: "" }, t("new.person")), g.bots.map((lv) => h("option", { value: lv }, t(`bot.${lv}`))));
      seatsBox.append(labelled(t("seat.n", { n: seat + 1 }), select));
    }
    ratedOnlyForPeople();
  }

  /** A rated table takes only bots with a rating on the game's ladder at this player count
   * (the game's `rated_bots`; the server refuses others, no_ladder): with another bot in a
   * seat, "Rated" is off, disabled, and says why. */
  function ratedOnlyForPeople() {
    const ladder = game()?.rated_bots?.[players.value] || [];
    const bot = [...seatsBox.querySelectorAll("[data-bot-seat]")].some((s) => s.value && !ladder.includes(s.value));
    rated.disabled = bot;
    if (bot) rated.checked = false;
    ratedWhy.hidden = !bot;
  }

  mode.addEventListener("change", () => { liveBox.hidden = mode.value !== "live"; turnBox.hidden = mode.value !== "turn"; });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const bots = [...seatsBox.querySelectorAll("[data-bot-seat]")].map((s) => s.value || null);
    const body = { game: gameSelect.value, players: Number(players.value), options: readOptions(), mode: mode.value,
      rated: rated.checked, private: priv.checked, hints: hints.read(), bots };
    if (mode.value === "live") { body.bank_seconds = Number(bank.value) * 60; body.increment_seconds = Number(inc.value); }
    else body.turn_hours = Number(hours.value);
    const table = await attempt(() => post("/api/tables", body));
    if (table) navigate(`#/table/${table.id}`);
  });

  form.append(labelled(t("new.game"), gameSelect), labelled(t("new.players"), players), optionsBox, seatsBox,
    h("fieldset", {}, h("legend", {}, t("new.clock")), labelled(t("new.mode"), mode), liveBox, turnBox),
    h("div", { class: "field check" }, rated, h("label", {}, t("new.rated")), ratedWhy),
    h("div", { class: "field check" }, priv, h("label", {}, t("new.private"))), hints.el,
    h("div", { class: "form-submit" }, h("button", { type: "submit", "data-testid": "create" }, t("new.create"))));
  for (const box of form.querySelectorAll(".field.check")) { // tie the checkbox labels to their inputs
    const input = box.querySelector("input"), label = box.querySelector("label");
    if (!input.id) { input.id = `new-${input.name}`; label.htmlFor = input.id; }
  }
  if (games.length) fillSeats();
  return form;
}
