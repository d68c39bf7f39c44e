// A player's page: ratings per game and the last finished matches (GET /api/users/{name}).
import { get } from "./api.js";
import { t } from "./i18n.js";
import { clear, formatDate, h } from "./ui.js";

export function mount(main, { id: name }, session) {
  const gameTitle = (g) => session.games.find((x) => x.name === g)?.title || g;
  clear(main).append(h("h1", {}, name), h("p", { class: "hint" }, t("common.loading")));
  get(`/api/users/${encodeURIComponent(name)}`).then((user) => {
    clear(main).append(h("h1", { "data-testid": "player-name" }, user.display_name),
      user.display_name !== user.name || user.guest
        ? h("p", { class: "hint" }, `${user.name}${user.guest ? ` · ${t("nav.guest")}` : ""}`) : null);
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
