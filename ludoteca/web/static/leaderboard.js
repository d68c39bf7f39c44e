// The leaderboard of one game in one rating pool (GET /api/leaderboard/{game}?pool=), with a
// game picker and a pool picker: all-time, each season (GET /api/seasons/{game}), against bots.
// The pool is in the address (#/leaderboard/kingdomino?pool=season:2026Q4), so it can be shared.
import { get } from "./api.js";
import { decimal, t } from "./i18n.js";
import { poolName, ratingText } from "./rating.js";
import { clear, h } from "./ui.js";

export function mount(main, { id, query }, session) {
  const game = id || session.games[0]?.name || ""; // the first game the server lists
  const pool = query?.get("pool") || "all";
  const go = (g, p) => { location.hash = `#/leaderboard/${g}${p === "all" ? "" : `?pool=${encodeURIComponent(p)}`}`; };
  const picker = h("select", { "aria-label": t("new.game"), "data-testid": "leaderboard-game",
    onchange: () => go(picker.value, "all") },
  session.games.map((g) => h("option", { value: g.name }, g.title)));
  picker.value = game;
  const pools = h("select", { "aria-label": t("leaderboard.pool"), "data-testid": "leaderboard-pool",
    onchange: () => go(game, pools.value) },
  [h("option", { value: "all" }, poolName("all")), h("option", { value: "bots" }, poolName("bots"))]);
  if (pool !== "all" && pool !== "bots") pools.append(h("option", { value: pool }, poolName(pool)));
  pools.value = pool;
  const body = h("div", { "data-testid": "leaderboard" }, h("p", { class: "hint" }, t("common.loading")));
  const title = session.games.find((g) => g.name === game)?.title || game;
  clear(main).append(h("h1", {}, t("leaderboard.title", { game: title })),
    h("p", {}, h("label", { class: "field inline" }, h("span", {}, t("new.game")), picker), " ",
      h("label", { class: "field inline" }, h("span", {}, t("leaderboard.pool")), pools)), body);
  if (!game) { clear(body).append(h("p", {}, t("leaderboard.empty"))); return; } // no game at all
  get(`/api/seasons/${encodeURIComponent(game)}`).then((seasons) => {
    const options = [h("option", { value: "all" }, poolName("all")),
      ...seasons.map((s) => h("option", { value: s.pool }, poolName(s.pool, s.current))),
      h("option", { value: "bots" }, poolName("bots"))];
    if (!["all", "bots", ...seasons.map((s) => s.pool)].includes(pool)) options.push(h("option", { value: pool }, poolName(pool)));
    clear(pools).append(...options);
    pools.value = pool;
  }, () => {}); // the picker keeps all-time and bots
  get(`/api/leaderboard/${encodeURIComponent(game)}${pool === "all" ? "" : `?pool=${encodeURIComponent(pool)}`}`).then((rows) => {
    if (!rows.length) { clear(body).append(h("p", {}, t(pool === "bots" ? "leaderboard.empty_bots" : "leaderboard.empty"))); return; }
    clear(body).append(h("div", { class: "scroll-x" }, h("table", { class: "data" },
      h("thead", {}, h("tr", {}, ["#", t("result.player"), t("leaderboard.rating"), t("leaderboard.games")]
        .map((text, i) => h("th", { scope: "col", class: i === 1 ? "" : "num" }, text)))),
      h("tbody", {}, rows.map((r, i) => h("tr", {},
        h("td", { class: "num" }, i + 1),
        h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(r.name)}` }, r.display_name)),
        h("td", { class: "num", title: `μ ${decimal(r.mu)} σ ${decimal(r.sigma)}` }, ratingText(r.rating, r.plus_minus)),
        h("td", { class: "num" }, r.games)))))),
    h("p", { class: "hint" }, t("leaderboard.order")));
  }, (error) => clear(body).append(h("p", { class: "error" }, error.message)));
}
