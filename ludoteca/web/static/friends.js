// The player page's parts of issue 36: the numbers per game with the rating chart (drawn in our
// own SVG), follow / block / challenge on another player's page, and on one's own page the
// friends list (online, playing: a link to watch) and the challenges made and received
// (docs/protocol.md, "Friends and challenges").
import { api, attempt, get, post } from "./api.js";
import { optionWord } from "./game_fields.js";
import { t } from "./i18n.js";
import { clear, formatDate, h, put, svg, toast } from "./ui.js";

const W = 320;
const H = 120;
const PAD = 24;

/** The rating after each rated match, oldest first ([when, rating] pairs): a line over the
 * matches' order (not time: a month without play is no slope), its lowest and highest
 * marked. Null when there is nothing to draw. */
export function ratingChart(points, label) {
  if (!points.length) return null;
  const values = points.map((p) => p[1]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const x = (i) => (points.length === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (points.length - 1));
  const y = (v) => (hi === lo ? H / 2 : H - PAD / 2 - ((v - lo) * (H - PAD)) / (hi - lo));
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p[1]).toFixed(1)}`).join(" ");
  return svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label,
    "data-testid": "rating-chart" },
  svg("title", {}, label),
  svg("polyline", { points: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p[1]).toFixed(1), r: 3, fill: "currentColor" },
    svg("title", {}, `${formatDate(p[0])}: ${p[1]}`))),
  svg("text", { x: 2, y: 12, "font-size": 10, fill: "currentColor" }, String(hi)),
  svg("text", { x: 2, y: H - 2, "font-size": 10, fill: "currentColor" }, String(lo)));
}

/** An options object as a short line ("harmony: yes, variant: duel"); the game's defaults: "—". */
/** Options in the game's own words (its labels from /api/games, as the table form shows them). */
export function optionsText(options, game = {}) {
  const value = (k, v) => v === true ? t("common.yes") : v === false ? t("common.no")
    : optionWord(game, `${k}.${v}`, String(v));
  const parts = Object.entries(options).map(([k, v]) => `${optionWord(game, k, k.replace(/_/g, " "))}: ${value(k, v)}`);
  return parts.length ? parts.join(", ") : "—";
}

/** Per game: matches, wins, mean and best score, the rating chart and the favourite options. */
export function statsPanel(stats, gameTitle, gameOf = () => ({})) {
  if (!stats.length) return null;
  return h("section", { "data-testid": "player-stats" }, h("h2", {}, t("player.stats")),
    stats.map((s) => h("div", { class: "panel", "data-testid": `stats-${s.game}` },
      h("h3", {}, gameTitle(s.game)),
      h("dl", { class: "stats" },
        h("dt", {}, t("player.matches")), h("dd", { "data-testid": "stat-matches" }, String(s.matches)),
        h("dt", {}, t("player.wins")), h("dd", { "data-testid": "stat-wins" }, String(s.wins)),
        h("dt", {}, t("player.mean_score")), h("dd", { "data-testid": "stat-mean" }, String(s.mean_score)),
        h("dt", {}, t("player.best_score")), h("dd", { "data-testid": "stat-best" }, String(s.best_score))),
      ratingChart(s.rating, t("player.rating_chart", { game: gameTitle(s.game) })),
      s.favourite_options.length ? h("p", { class: "hint" }, t("player.favourite_options"), " ",
        s.favourite_options.map((f) => `${optionsText(f.options, gameOf(s.game))} (${f.matches})`).join(" · ")) : null)));
}

/** Follow, block and challenge, on another signed-in player's page. */
export function socialBar(user, session, reload) {
  const name = encodeURIComponent(user.name);
  const toggle = (on, path, testid, yes, no) => h("button", { type: "button", class: "secondary", "data-testid": testid,
    onclick: async () => { if (await attempt(() => api(on ? "DELETE" : "PUT", path))) reload(); } }, on ? yes : no);
  return h("div", { class: "panel", "data-testid": "social" },
    toggle(user.following, `/api/users/${name}/follow`, "follow", t("friends.unfollow"), t("friends.follow")), " ",
    toggle(user.blocked, `/api/users/${name}/block`, "block", t("friends.unblock"), t("friends.block")),
    user.guest || user.blocked ? null : challengeForm(user, session));
}

/** A challenge: the game, the players, rated or casual, live or turn-based. */
export function challengeForm(user, { games, navigate }) {
  const game = h("select", { name: "game", "data-testid": "challenge-game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const form = h("form", { "data-testid": "challenge-form", onsubmit: async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const made = await attempt(() => post(`/api/users/${encodeURIComponent(user.name)}/challenge`, {
      game: data.get("game"), mode: data.get("mode"), rated: data.get("rated") === "on" }));
    if (!made) return;
    toast(t("friends.challenge_sent", { name: user.display_name }), "info");
    navigate(`#/table/${made.table}`);
  } });
  form.append(h("h3", {}, t("friends.challenge_title", { name: user.display_name })),
    h("label", { class: "field" }, h("span", {}, t("new.game")), game),
    h("label", { class: "field" }, h("span", {}, t("friends.mode")),
      h("select", { name: "mode", "data-testid": "challenge-mode" },
        h("option", { value: "live" }, t("friends.live")), h("option", { value: "turn" }, t("friends.turn")))),
    h("label", { class: "field check" }, h("input", { type: "checkbox", name: "rated", "data-testid": "challenge-rated" }),
      h("span", {}, t("player.rated"))),
    h("button", { type: "submit", "data-testid": "challenge" }, t("friends.challenge")));
  return form;
}

/** One's own friends: online or not, and a link to watch each public table they play. */
export function friendsPanel(friends) {
  const list = friends.length
    ? h("ul", { class: "friends", "data-testid": "friends" }, friends.map((f) => h("li", { "data-testid": `friend-${f.name}` },
      h("span", { class: f.online ? "dot on" : "dot", title: f.online ? t("friends.online") : t("friends.offline") }),
      h("span", { class: "sr-only" }, f.online ? t("friends.online") : t("friends.offline")), " ",
      h("a", { href: `#/player/${encodeURIComponent(f.name)}` }, f.display_name),
      f.mutual ? h("span", { class: "tag" }, t("friends.mutual")) : null,
      f.playing.map((p) => (p.table
        ? [" ", h("a", { href: `#/table/${p.table}`, "data-testid": "watch" }, t("friends.watch"))]
        : [" ", h("span", { class: "hint" }, t("friends.playing_private"))])))))
    : h("p", { class: "hint" }, t("friends.none"));
  return h("section", { class: "panel" }, h("h2", {}, t("friends.title")), list);
}

/** Challenges received (accept, decline) and made (withdraw), then where accepting leads. */
export function challengesPanel(challenges, me, { navigate }, reload) {
  if (!challenges.length) return null;
  const answer = (c, how) => async () => {
    const done = await attempt(() => post(`/api/challenges/${c.id}/${how}`));
    if (!done) return;
    if (how === "accept") navigate(`#/table/${c.table}`);
    else reload();
  };
  return h("section", { class: "panel", "data-testid": "challenges" }, h("h2", {}, t("friends.challenges")),
    h("ul", {}, challenges.map((c) => {
      const mine = c.challenger === me.name;
      return h("li", { "data-testid": `challenge-${c.id}` },
        mine ? t("friends.challenged_them", { name: c.challenged_name }) : t("friends.challenged_you", { name: c.challenger_name }),
        ` · ${c.game} · ${c.rated ? t("player.rated") : t("friends.casual")} · ${c.mode === "turn" ? t("friends.turn") : t("friends.live")} `,
        mine
          ? h("button", { type: "button", class: "secondary", onclick: answer(c, "decline"), "data-testid": "withdraw" }, t("friends.withdraw"))
          : [h("button", { type: "button", onclick: answer(c, "accept"), "data-testid": "accept" }, t("friends.accept")), " ",
            h("button", { type: "button", class: "secondary", onclick: answer(c, "decline"), "data-testid": "decline" }, t("friends.decline"))]);
    })));
}

/** One's own page: the challenges and the friends, read afresh when a challenge changes. */
export async function ownPanels(box, shell) {
  const reload = () => ownPanels(box, shell);
  const [friends, challenges] = await Promise.all([get("/api/me/friends"), get("/api/me/challenges")]);
  put(clear(box), challengesPanel(challenges, shell.me, shell, reload), friendsPanel(friends),
    h("p", {}, h("a", { href: "#/settings", "data-testid": "friends-settings-link" }, t("friends.settings"))));
}
