// The leaderboard of one game (GET /api/leaderboard/{game}), with a game picker.
import { get } from "./api.js";
import { decimal, t } from "./i18n.js";
import { clear, h } from "./ui.js";

export function mount(main, { id }, session) {
  const game = id || session.games[0]?.name || ""; // the first game the server lists
  const picker = h("select", { "aria-label": t("new.game"), "data-testid": "leaderboard-game",
    onchange: () => { location.hash = `#/leaderboard/${picker.value}`; } },
  session.games.map((g) => h("option", { value: g.name }, g.title)));
  picker.value = game;
  const body = h("div", { "data-testid": "leaderboard" }, h("p", { class: "hint" }, t("common.loading")));
  const title = session.games.find((g) => g.name === game)?.title || game;
  clear(main).append(h("h1", {}, t("leaderboard.title", { game: title })),
    h("p", {}, h("label", { class: "field inline" }, h("span", {}, t("new.game")), picker)), body);
  if (!game) { clear(body).append(h("p", {}, t("leaderboard.empty"))); return; } // no game at all
  get(`/api/leaderboard/${encodeURIComponent(game)}`).then((rows) => {
    if (!rows.length) { clear(body).append(h("p", {}, t("leaderboard.empty"))); return; }
    clear(body).append(h("div", { class: "scroll-x" }, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["#", t("result.player"), t("leaderboard.rating"), t("leaderboard.games")]
        .map((text, i) => h("th", { scope: "col", class: i === 1 ? "" : "num" }, text)))),
      h("tbody", {}, rows.map((r, i) => h("tr", {},
        h("td", { class: "num" }, i + 1),
        h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(r.name)}` }, r.display_name)),
        h("td", { class: "num", title: `μ ${decimal(r.mu)} σ ${decimal(r.sigma)}` }, decimal(r.rating)),
        h("td", { class: "num" }, r.games)))))));
  }, (error) => clear(body).append(h("p", { class: "error" }, error.message)));
}
