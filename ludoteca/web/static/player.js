// A player's page: ratings per game and the last finished matches (GET /api/users/{name}); on a
// guest's own page, the form that keeps the account (POST /api/claim); on one's own page, the
// account's controls: the display name (PATCH /api/me), change the password, sign out
// everywhere else, delete the account. The numbers per game (with the rating chart), follow,
// block and challenge on another's page, friends and challenges on one's own: friends.js.
// The shell's navigate and refreshMe come with `mount`'s
// shell argument (app.js), never by import.
import { attempt, del, get, patch, post } from "./api.js";
import { ownPanels, socialBar, statsPanel } from "./friends.js";
import { t } from "./i18n.js";
import { poolName, ratingText } from "./rating.js";
import { clear, formatDate, h, put, toast } from "./ui.js";

function claimForm({ navigate, refreshMe }) {
  const form = h("form", { class: "panel", "data-testid": "claim-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const me = await attempt(() => post("/api/claim", { name: data.get("name"), password: data.get("password") }));
    if (!me) return;
    await refreshMe();
    toast(t("claim.done", { name: me.name }), "info");
    navigate(`#/player/${encodeURIComponent(me.name)}`);
  } });
  const field = (label, attrs) => h("label", { class: "field" }, h("span", {}, label), h("input", { required: true, ...attrs }));
  form.append(h("h2", {}, t("claim.title")), h("p", {}, t("claim.text")),
    field(t("signin.name"), { name: "name", autocomplete: "username", minlength: 3, maxlength: 24, pattern: "[A-Za-z][A-Za-z0-9._\\-]{2,23}", title: t("signup.name_rule") }),
    h("p", { class: "hint" }, t("signup.name_rule")),
    field(t("signin.password"), { name: "password", type: "password", autocomplete: "new-password", minlength: 8, maxlength: 128 }),
    h("button", { type: "submit", "data-testid": "claim" }, t("claim.submit")));
  return form;
}

/** The name others see at tables and in chat; the server checks it (names.py: 3 to 24
 * letters of any script, digits, spaces, . _ - ', from a letter, not like another's). */
function displayNameForm(me, { navigate, refreshMe }) {
  const input = h("input", { required: true, name: "display_name", value: me.display_name, minlength: 3, maxlength: 24,
    autocomplete: "nickname", "data-testid": "display-name", "aria-describedby": "display-name-rule" });
  const form = h("form", { class: "panel", "data-testid": "display-name-form", onsubmit: async (e) => {
    e.preventDefault();
    const updated = await attempt(() => patch("/api/me", { display_name: input.value }));
    if (!updated) return;
    await refreshMe();
    toast(t("account.display_changed", { name: updated.display_name }), "info");
    navigate(`#/player/${encodeURIComponent(updated.name)}`);
  } });
  form.append(h("h3", {}, t("account.display_name")),
    h("label", { class: "field" }, h("span", {}, t("account.display_name")), input),
    h("p", { class: "hint", id: "display-name-rule" }, t("account.display_rule")),
    h("button", { type: "submit", "data-testid": "save-display-name" }, t("account.display_save")));
  return form;
}

function passwordForm() {
  const form = h("form", { class: "panel", "data-testid": "password-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const done = await attempt(() => post("/api/password", { current: data.get("current"), new: data.get("new") }));
    if (!done) return;
    form.reset();
    toast(t("account.changed"), "info");
  } });
  const field = (label, attrs) => h("label", { class: "field" }, h("span", {}, label), h("input", { required: true, type: "password", ...attrs }));
  form.append(h("h3", {}, t("account.password")),
    field(t("account.current"), { name: "current", autocomplete: "current-password", maxlength: 128 }),
    field(t("account.new"), { name: "new", autocomplete: "new-password", minlength: 8, maxlength: 128 }),
    h("button", { type: "submit", "data-testid": "change-password" }, t("account.change")));
  return form;
}

function othersPanel() {
  return h("div", { class: "panel" }, h("h3", {}, t("account.others")), h("p", { class: "hint" }, t("account.others_text")),
    h("button", { type: "button", class: "secondary", "data-testid": "signout-others", onclick: async () => {
      const done = await attempt(() => post("/api/signout/others"));
      if (done) toast(t("account.others_done", { n: done.sessions_ended }), "info");
    } }, t("account.others")));
}

function deleteForm(guest, { navigate, refreshMe }) {
  const form = h("form", { class: "panel", "data-testid": "delete-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const done = await attempt(() => del("/api/me", guest ? {} : { password: data.get("password") }));
    if (!done) return;
    await refreshMe();
    toast(t("account.deleted"), "info");
    navigate("#/");
  } });
  put(form, h("h3", {}, t("account.delete")), h("p", { class: "hint" }, t("account.delete_text")),
    guest ? null : h("label", { class: "field" }, h("span", {}, t("account.current")),
      h("input", { required: true, type: "password", name: "password", autocomplete: "current-password", maxlength: 128 })),
    h("label", { class: "field check" }, h("input", { type: "checkbox", required: true, name: "sure", "data-testid": "delete-sure" }),
      h("span", {}, t("account.delete_confirm"))),
    h("button", { type: "submit", class: "secondary", "data-testid": "delete-account" }, t("account.delete_submit")));
  return form;
}

function accountPanel(shell) {
  const me = shell.me;
  return h("section", { "data-testid": "account", id: "account" }, h("h2", {}, t("account.title")),
    me.guest ? null : h("p", {}, h("a", { href: "#/settings", "data-testid": "settings-link" }, t("settings.link"))),
    displayNameForm(me, shell), me.guest ? null : passwordForm(), othersPanel(), deleteForm(me.guest, shell));
}

export function mount(main, { id: name }, session) {
  const gameTitle = (g) => session.games.find((x) => x.name === g)?.title || g;
  clear(main).append(h("h1", {}, name), h("p", { class: "hint" }, t("common.loading")));
  const reload = () => mount(main, { id: name }, session);
  get(`/api/users/${encodeURIComponent(name)}`).then((user) => {
    const own = session.me?.name === user.name;
    put(clear(main), h("h1", { "data-testid": "player-name" }, user.display_name),
      user.display_name !== user.name || user.guest
        ? h("p", { class: "hint" }, `${user.name}${user.guest ? ` · ${t("nav.guest")}` : ""}`) : null);
    if (user.guest && own) main.append(claimForm(session));
    if (session.me && !session.me.guest && !own) main.append(socialBar(user, session, reload));
    if (own && !user.guest) {
      const box = main.appendChild(h("div", { "data-testid": "own-social" }));
      const refresh = () => ownPanels(box, session).catch(() => {});
      refresh();
      const off = session.on?.((data) => {
        if (!box.isConnected) { off?.(); return; }
        if (data.type === "challenge") refresh();
      });
    }
    put(main, statsPanel(user.stats || [], gameTitle,
      (g) => session.games.find((x) => x.name === g) || {}));
    const account = own ? accountPanel(session) : null; // last on the page
    main.append(h("h2", {}, t("player.ratings")));
    if (!user.ratings.length) main.append(h("p", {}, t("player.no_ratings")));
    else main.append(h("div", { class: "scroll-x" }, h("table", { class: "data", "data-testid": "player-ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("new.game")), h("th", { scope: "col" }, t("leaderboard.pool")),
        h("th", { scope: "col", class: "num" }, t("leaderboard.rating")), h("th", { scope: "col", class: "num" }, t("leaderboard.games")))),
      h("tbody", {}, user.ratings.map((r) => h("tr", {},
        h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${r.game}` }, gameTitle(r.game))),
        h("td", {}, h("a", { href: `#/leaderboard/${r.game}${r.pool === "all" ? "" : `?pool=${encodeURIComponent(r.pool)}`}` }, poolName(r.pool))),
        h("td", { class: "num" }, ratingText(r.rating, r.plus_minus)),
        h("td", { class: "num" }, r.games ?? "")))))));
    main.append(h("h2", {}, t("player.history")));
    if (!user.matches.length) { main.append(h("p", {}, t("player.no_matches")), ...[account].filter(Boolean)); return; }
    main.append(h("div", { class: "scroll-x" }, h("table", { class: "data", "data-testid": "player-matches" },
      h("thead", {}, h("tr", {}, [t("player.when"), t("new.game"), t("new.players"), t("result.score"), t("result.rank"), t("player.rated"), ""]
        .map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, user.matches.map((m) => {
        const seat = m.seat ?? null;
        return h("tr", {},
          h("td", {}, formatDate(m.finished_at)),
          h("td", {}, gameTitle(m.game)),
          h("td", {}, Array.isArray(m.players) ? m.players.map((p) => p?.name ?? p).join(", ") : m.players),
          h("td", {}, seat !== null ? m.scores?.[seat] : (m.scores || []).join(" – ")),
          h("td", {}, seat !== null ? (m.rank ?? m.ranks?.[seat]) : (m.ranks || []).join(" – ")),
          h("td", {}, m.rated ? t("common.yes") : t("common.no")),
          h("td", {}, h("a", { href: `#/replay/${m.id}` }, t("table.replay")),
            m.analysed ? [" · ", h("a", { href: `#/replay/${m.id}`, "data-testid": "analysis-link" }, t("player.analysis"))] : null));
      })))), ...[account].filter(Boolean));
  }, (error) => clear(main).append(h("h1", {}, name), h("p", { class: "error", "data-testid": "fatal" }, error.message)));
}
