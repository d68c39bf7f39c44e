// A player's page: ratings per game and the last finished matches (GET /api/users/{name}); on a
// guest's own page, the form that keeps the account (POST /api/claim).
import { navigate, refreshMe } from "./app.js";
import { attempt, get, post } from "./api.js";
import { t } from "./i18n.js";
import { clear, formatDate, h, toast } from "./ui.js";

function claimForm() {
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

export function mount(main, { id: name }, session) {
  const gameTitle = (g) => session.games.find((x) => x.name === g)?.title || g;
  clear(main).append(h("h1", {}, name), h("p", { class: "hint" }, t("common.loading")));
  get(`/api/users/${encodeURIComponent(name)}`).then((user) => {
    clear(main).append(h("h1", { "data-testid": "player-name" }, user.display_name),
      user.display_name !== user.name || user.guest
        ? h("p", { class: "hint" }, `${user.name}${user.guest ? ` · ${t("nav.guest")}` : ""}`) : null);
    if (user.guest && session.me?.name === user.name) main.append(claimForm());
    main.append(h("h2", {}, t("player.ratings")));
    if (!user.ratings.length) main.append(h("p", {}, t("player.no_ratings")));
    else main.append(h("div", { class: "scroll-x" }, h("table", { class: "data", "data-testid": "player-ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("new.game")), h("th", { scope: "col", class: "num" }, t("leaderboard.rating")),
        h("th", { scope: "col", class: "num" }, t("leaderboard.games")))),
      h("tbody", {}, user.ratings.map((r) => h("tr", {},
        h("th", { scope: "row" }, h("a", { href: `#/leaderboard/${r.game}` }, gameTitle(r.game))),
        h("td", { class: "num" }, typeof r.rating === "number" ? r.rating.toFixed(2) : r.rating),
        h("td", { class: "num" }, r.games ?? "")))))));
    main.append(h("h2", {}, t("player.history")));
    if (!user.matches.length) { main.append(h("p", {}, t("player.no_matches"))); return; }
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
          h("td", {}, seat !== null ? m.ranks?.[seat] : (m.ranks || []).join(" – ")),
          h("td", {}, m.rated ? t("common.yes") : t("common.no")),
          h("td", {}, h("a", { href: `#/replay/${m.id}` }, t("table.replay"))));
      })))));
  }, (error) => clear(main).append(h("h1", {}, name), h("p", { class: "error", "data-testid": "fatal" }, error.message)));
}
