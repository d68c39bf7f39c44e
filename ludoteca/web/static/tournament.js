// One tournament (#/tournament/<id>): its rules in words (the server's sentences), entrants,
// standings with the tie-breaks named, rounds and pairings with each table linked, "go to your
// table" once the director opened yours, register / withdraw (and, for its host, a bot entrant),
// and when it is over its podium and crosstable. An arena shows its time left (counted down
// here each second), where you are (waiting for an opponent, at your table, paused), each
// entrant's streak, and lets you pause and enter again while it runs; its pairings are listed
// as they come, without a crosstable. It reads GET /api/tournaments/{id} again on each
// `tournament` or `tournament_table` event for it, so it stays current without a reload.
import { attempt, get, post } from "./api.js";
import { getLang, t } from "./i18n.js";
import { clockWords, startWords, timeLeft } from "./tournaments.js";
import { clear, h, put } from "./ui.js";

const ARENA_WAVES = 20; // an arena's latest pairings shown (it may have hundreds)

/** A participant's name in the page's language: a bot entrant ("bot:random@3#2") of a level the
 * games offer (`levels`) is that level's word and its number; anyone else, the name sent. */
export function entrantName(participant, sent, levels) {
  const bot = /^bot:([\w-]+)@[^#]*(?:#(\d+))?$/.exec(participant);
  if (!bot || !levels.has(bot[1])) return sent;
  return t("tournament.bot_name", { level: t(`bot.${bot[1]}`), n: bot[2] || 1 });
}

/** A finished game of a round for one entrant, in a few words: their place among the table
 * ("1st of 2"), or how it was decided when nobody played it. */
function placeWords(result, participant) {
  const seat = result.seats.indexOf(participant);
  if (seat < 0) return "";
  return t("tournament.place", { n: result.places[seat], of: result.seats.length });
}

/** Each entrant's round by round: a bye, or their place and the others at the table. */
export function crosstable(data, names) {
  const rows = data.standings.rows.map((row) => ({
    entrant: row.entrant,
    cells: data.rounds.map((r) => {
      if (r.byes.includes(row.entrant)) return t("tournament.bye");
      const game = r.games.find((g) => g.seats.includes(row.entrant));
      if (!game) return "";
      const others = game.seats.filter((s) => s !== row.entrant).map((s) => names[s] || s).join(", ");
      const place = game.result ? placeWords(game.result, row.entrant) : t("tournament.playing");
      return t("tournament.cell", { place, others });
    }),
  }));
  return rows;
}

/** The line that says where you are in a running tournament (the server's `your_status`), or
 * null: waiting for an opponent (an arena) or the next round, or paused (an arena). */
export function statusWords(data) {
  const arena = data.format.kind === "arena";
  if (data.your_status === "waiting") return t(arena ? "tournament.waiting_opponent" : "tournament.waiting_round");
  if (data.your_status === "paused") return t("tournament.paused");
  return null;
}

/** An arena's clock in words: the time left, or that time is up and the last tables finish. */
export function clockLine(data, now = Date.now()) {
  if (data.format.kind !== "arena" || data.status !== "running" || !data.ends_at) return null;
  return Date.parse(data.ends_at) > now ? t("tournament.time_left", { time: timeLeft(data.ends_at, now) }) : t("tournament.time_up");
}

/** Every entrant's name by participant id. */
export function namesOf(data, levels) {
  return Object.fromEntries(data.entrants.map((e) => [e.participant, entrantName(e.participant, e.name, levels)]));
}

export function mount(main, { id, query }, session) {
  const { me } = session;
  const invite = query?.get("invite") || "";
  const gameTitle = (name) => session.games.find((g) => g.name === name)?.title || name;
  const levels = new Set(session.games.flatMap((g) => g.bots || []));
  const root = h("div", { class: "tournament-page", "data-testid": "tournament-page" }, h("p", { class: "hint" }, t("common.loading")));
  clear(main).append(root);
  let data = null;
  let tick = null; // an arena's countdown, between the server's updates: only while it runs
  function countdown() {
    const running = Boolean(clockLine(data));
    if (running && !tick) {
      tick = setInterval(() => {
        const clock = root.querySelector('[data-testid="time-left"]');
        if (clock) clock.textContent = clockLine(data) || "";
      }, 1000);
    } else if (!running && tick) {
      clearInterval(tick);
      tick = null;
    }
  }

  const act = (path, body = {}) => attempt(async () => { await post(`/api/tournaments/${encodeURIComponent(id)}/${path}`, body); await load(); });

  function actions() {
    const open = data.status === "registering";
    const arena = data.format.kind === "arena";
    const out = [];
    if (!me) {
      if (open) out.push(h("a", { class: "button", href: `#/signin?next=${encodeURIComponent(`#/tournament/${id}`)}` }, t("tournament.signin")));
      return out;
    }
    const joinable = open || (arena && data.status === "running"); // an arena takes entries while it runs
    if (joinable && !data.registered) {
      out.push(h("button", { type: "button", "data-testid": "register", onclick: () => act("register", invite ? { invite } : {}) },
        t(data.your_status === "paused" ? "tournament.resume" : "tournament.register")));
    }
    if (data.registered && (open || data.status === "running")) {
      const pause = arena && data.status === "running";
      out.push(h("button", { type: "button", class: "secondary", "data-testid": "withdraw", onclick: () => {
        if (data.status === "running" && !window.confirm(t(pause ? "tournament.pause_confirm" : "tournament.withdraw_confirm"))) return;
        act("withdraw");
      } }, t(pause ? "tournament.pause" : "tournament.withdraw")));
    }
    if (open && me.name === data.host) {
      const game = session.games.find((g) => g.name === data.game);
      const level = h("select", { "data-testid": "bot-level", "aria-label": t("table.bot_level") },
        (game?.bots || []).map((lv) => h("option", { value: lv }, t(`bot.${lv}`))));
      out.push(h("span", { class: "row" }, level,
        h("button", { type: "button", class: "secondary", "data-testid": "add-bot", onclick: () => act("bots", { level: level.value }) }, t("tournament.add_bot"))));
    }
    return out;
  }

  function facts() {
    const kind = data.format.kind;
    return h("p", { class: "hint", "data-testid": "tournament-facts" }, [
      gameTitle(data.game), t("tournament.table_of", { n: data.players }), t(`tournament.format.${kind}`),
      kind === "arena" && data.format.minutes ? t("tournament.arena_minutes", { n: data.format.minutes }) : null,
      data.rated ? t("table.rated") : t("table.unrated"), clockWords(data),
      data.status === "registering" ? startWords(data) : null,
      t("tournament.entrants_count", { n: data.entrants.filter((e) => !e.withdrawn).length, min: data.min_entrants, max: data.max_entrants }),
      data.invite_only ? t("tournament.invite_only") : null,
      data.host ? t("tournament.host", { name: data.host }) : null,
    ].filter(Boolean).join(" · "));
  }

  function yourTable() {
    if (!data.your_table) {
      const words = statusWords(data);
      return words ? h("p", { class: "panel your-status", "data-testid": "your-status", "aria-live": "polite" }, words) : null;
    }
    const ready = data.format.kind === "arena" ? t("tournament.your_table_ready_arena") : t("tournament.your_table_ready", { n: data.round });
    return h("section", { class: "panel your-table", "data-testid": "your-table-box" },
      h("p", {}, ready),
      h("a", { class: "button", href: `#/table/${data.your_table}`, "data-testid": "your-table" }, t("tournament.go_to_table")));
  }

  function podium(names) {
    if (data.status !== "finished" || !data.standings.rows.length) return null;
    const top = data.standings.rows.slice(0, 3);
    return h("section", { class: "panel" }, h("h2", {}, t("tournament.podium")),
      h("ol", { class: "podium", "data-testid": "podium" }, top.map((row) => h("li", {},
        h("span", { class: "podium-place" }, t("tournament.place_n", { n: row.rank })), " ",
        h("strong", {}, names[row.entrant]), " ", h("span", { class: "hint" }, t("tournament.points", { n: row.points }))))));
  }

  function standings(names) {
    const tbs = data.standings.tiebreaks;
    const mine = me && `user:${me.id}`;
    const rows = data.standings.rows;
    const streaks = data.format.kind === "arena";
    return h("section", { class: "panel" }, h("h2", {}, t("tournament.standings")),
      rows.length ? h("div", { class: "scroll-x" }, h("table", { class: "data", "data-testid": "standings" },
        h("caption", { class: "sr-only" }, t("tournament.standings")),
        h("thead", {}, h("tr", {},
          h("th", { scope: "col", class: "num" }, "#"), h("th", { scope: "col" }, t("result.player")),
          h("th", { scope: "col", class: "num" }, t("tournament.points_col")),
          streaks ? h("th", { scope: "col", class: "num", title: t("tournament.streak_rule") }, t("tournament.streak_col")) : null,
          tbs.map((tb) => h("th", { scope: "col", class: "num", title: tb.rule }, tb.name)))),
        h("tbody", {}, rows.map((row) => h("tr", { "data-entrant": row.entrant, class: row.entrant === mine ? "mine" : null },
          h("td", { class: "num" }, row.rank),
          h("th", { scope: "row" }, names[row.entrant]),
          h("td", { class: "num", "data-testid": "points" }, fmt(row.points)),
          streaks ? h("td", { class: "num", "data-testid": "streak" }, fmt(row.streak),
            row.on_fire ? [" ", h("span", { class: "tag on-fire" }, t("tournament.on_fire"))] : null) : null,
          tbs.map((tb) => h("td", { class: "num" }, fmt(row.tiebreaks[tb.key])))))))) : h("p", { class: "hint" }, t("tournament.no_entrants")),
      tbs.length || streaks ? h("dl", { class: "tiebreaks", "data-testid": "tiebreaks" },
        streaks ? [h("dt", {}, t("tournament.streak_col")), h("dd", {}, t("tournament.streak_rule"))] : null,
        tbs.map((tb) => [h("dt", {}, tb.name), h("dd", {}, tb.rule)])) : null);
  }

  function crossView(names) {
    if (data.status !== "finished" || !data.rounds.length || data.format.kind === "arena") return null;
    const rows = crosstable(data, names);
    return h("section", { class: "panel" }, h("h2", {}, t("tournament.crosstable")),
      h("div", { class: "scroll-x" }, h("table", { class: "data", "data-testid": "crosstable" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.player")),
          data.rounds.map((r) => h("th", { scope: "col" }, t("tournament.round_n", { n: r.round }))))),
        h("tbody", {}, rows.map((row) => h("tr", {}, h("th", { scope: "row" }, names[row.entrant]),
          row.cells.map((cell) => h("td", {}, cell))))))));
  }

  function roundsView(names) {
    if (!data.rounds.length) return null;
    const arena = data.format.kind === "arena";
    const latest = [...data.rounds].reverse().slice(0, arena ? ARENA_WAVES : undefined);
    return h("section", { class: "panel" }, h("h2", {}, t("tournament.rounds")), latest.map((r) =>
      h("div", { class: "round", "data-round": r.round }, h("h3", {}, t(arena ? "tournament.wave_n" : "tournament.round_n", { n: r.round })),
        h("ul", { class: "table-list" }, r.games.map((g) => h("li", { class: "table-row", "data-board": g.board },
          h("div", { class: "table-info" }, h("strong", {}, t("tournament.board", { n: g.board })), " ",
            g.seats.map((s) => names[s] || s).join(" – "),
            h("div", { class: "hint" }, g.result
              ? g.seats.map((s) => `${names[s] || s}: ${placeWords(g.result, s)}`).join(" · ")
                + (g.decided_by && g.decided_by !== "played" ? ` · ${t(`tournament.decided.${g.decided_by}`)}` : "")
              : t("tournament.playing"))),
          g.table ? h("a", { class: "button secondary", href: `#/table/${g.table}` },
            me && g.seats.includes(`user:${me.id}`) && !g.result ? t("lobby.open") : t("lobby.watch")) : null)),
        r.byes.map((b) => h("li", { class: "table-row hint" }, t("tournament.bye_for", { name: names[b] || b })))))));
  }

  function render() {
    const names = namesOf(data, levels);
    countdown();
    document.title = `${data.name} · ${t("app.title")}`;
    put(clear(root),
      h("p", {}, h("a", { href: "#/tournaments" }, t("tournament.all"))),
      h("h1", {}, data.name, " ", h("span", { class: `tag status-${data.status}`, "data-testid": "tournament-status" }, t(`tournament.status.${data.status}`)),
        data.status === "running" && data.format.kind !== "arena" ? h("span", { class: "tag" }, t("tournament.round_n", { n: data.round })) : null,
        clockLine(data) ? h("span", { class: "tag", "data-testid": "time-left" }, clockLine(data)) : null),
      facts(), yourTable(),
      h("div", { class: "row actions" }, actions()),
      data.invite ? h("p", { class: "hint" }, t("tournament.invite_link"), " ",
        h("code", { class: "invite" }, `${location.origin}${location.pathname}#/tournament/${id}?invite=${data.invite}`)) : null,
      podium(names),
      h("div", { class: "lobby-layout" },
        h("div", {}, standings(names), crossView(names), roundsView(names)),
        h("div", {},
          h("section", { class: "panel" }, h("h2", {}, t("tournament.rules")),
            h("ul", { "data-testid": "rules" }, data.rules.map((line) => h("li", {}, line)))),
          h("section", { class: "panel" }, h("h2", {}, t("tournament.entrants")),
            h("ul", { class: "entrants", "data-testid": "entrants" }, data.entrants.length
              ? data.entrants.map((e) => h("li", {}, names[e.participant],
                e.withdrawn ? [" ", h("span", { class: "tag" }, t("tournament.withdrawn"))] : null))
              : h("li", { class: "hint" }, t("tournament.no_entrants")))))));
  }

  let asked = 0;
  async function load() {
    const mine = ++asked;
    try {
      const found = await get(`/api/tournaments/${encodeURIComponent(id)}?lang=${getLang()}`);
      if (mine !== asked) return;
      data = found;
      render();
    } catch (error) {
      if (mine !== asked) return;
      if (!data) clear(root).append(h("h1", {}, t("tournament.unavailable")), h("p", { class: "error" }, error.message),
        h("p", {}, h("a", { href: "#/tournaments" }, t("tournament.all"))));
    }
  }

  const off = session.on((event) => {
    const ours = (event.type === "tournament" && event.tournament.id === id)
      || (event.type === "tournament_table" && event.tournament === id) || event.type === "resync";
    if (ours) load();
  });
  load();
  return () => { off(); if (tick) clearInterval(tick); document.title = t("app.title"); };
}

/** Points as the page's language writes them: 1, 1.5 ("1,5" in Spanish). */
function fmt(x) {
  return new Intl.NumberFormat(getLang(), { maximumFractionDigits: 2 }).format(x ?? 0);
}
