// The end-of-game score: per side (a seat, or partners as one team) the score parts the engine
// sent (each with its sentence and points), the tie-break reasons, and a stacked SVG bar per
// side. Nothing is added up here: the parts come from the outcome and already add up to each
// score, and the sides and their ranks are the outcome's `sides` (every stored result has them:
// migration 0005 wrote them into the results stored before the server said them).
import { getLang, t } from "./i18n.js";
import { partText } from "./parts.js";
import { h, svg } from "./ui.js";

const COLOURS = ["#2f6f3e", "#b8860b", "#1f5f9f", "#8b3a62", "#6b4f2a", "#3a7f7f", "#9f4f1f",
  "#5a5aa0", "#7a7a2a", "#a03030"];

/** [{key, label, points, words}] for one seat: its parts as the outcome gives them, keyed by id
 * (a colour of the palette each). `words` are the part's arguments that are one-word messages
 * ({terrain: "wheat"}): the chart writes them on its bar as data-arg-<name>, so a game's own
 * stylesheet may colour the bar (a territory in its terrain's colour); the shell knows none. */
export function segments(result, seat, names = []) {
  return ((result.parts || [])[seat] || []).map((part) => ({
    key: part.id,
    label: partText(part, names),
    points: part.points,
    words: Object.fromEntries(Object.entries(part.args || {})
      .filter(([, v]) => /^[\w-]+$/.test(v?.msg ?? "")).map(([k, v]) => [k, v.msg])),
  }));
}

const seatName = (names, seat) => names[seat] ?? t("seat.n", { n: seat + 1 });

/** "Bot 2 and Bot 4" (or "Bot 2 y Bot 4"), as the page's language lists names. */
function listed(items) {
  return new Intl.ListFormat(getLang(), { style: "long", type: "conjunction" }).format(items);
}

/** A side as people call it: a seat by its name; partners as their team ("Team B") and its
 * members ("Bot 2 and Bot 4"), the team lettered in the outcome's order (A, B, C…). */
function sideWords(side, index, names) {
  if (side.seats.length === 1) return { team: null, members: seatName(names, side.seats[0]) };
  return { team: t("result.team", { letter: String.fromCharCode(65 + index) }),
    members: listed(side.seats.map((s) => seatName(names, s))) };
}

/** "Winner: Ana", "Winner: Team B (Bot 2 and Bot 4)" (or "Winners: …" on a tie): the sentence
 * the result opens with, and the one the page announces when the match ends. */
export function winnersText(result, names) {
  const sides = result.sides;
  const winners = sides.map((side, i) => ({ side, i })).filter(({ side }) => side.rank === 1).map(({ side, i }) => {
    const { team, members } = sideWords(side, i, names);
    return team ? t("result.side_named", { team, members }) : members;
  });
  return winners.length > 1 ? t("result.winners", { names: winners.join(", ") }) : t("result.winner", { name: winners[0] ?? "?" });
}

/** The seats whose tie-break reasons are shown: those the server says the tie-break decided
 * (`tie_broken`); a result stored before it was said shows every seat's. */
function tieBroken(result, seat) {
  return Array.isArray(result.tie_broken) ? result.tie_broken.includes(seat) : true;
}

/** The result section: winners, then one row and one bar per side (a seat, or partners as one
 * team: ranks counted over sides, the team's points listed once, its members named). */
export function renderResult(result, names) {
  const section = h("section", { class: "result", "data-testid": "result", "aria-labelledby": "result-title" });
  section.append(h("h2", { id: "result-title" }, t("result.title")));
  section.append(h("p", { class: "winners" }, winnersText(result, names)));
  const sides = result.sides.map((side, index) => {
    const first = side.seats[0];
    return { ...side, index, ...sideWords(side, index, names), parts: segments(result, first, names),
      tiebreak: side.seats.some((s) => tieBroken(result, s)) ? ((result.tiebreak || [])[first] || []).map((r) => partText(r, names)) : [] };
  });
  const teams = sides.some((side) => side.team);
  section.append(...chart(sides));
  const table = h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.rank")), h("th", { scope: "col" }, t(teams ? "result.team_col" : "result.player")),
      h("th", { scope: "col" }, t("result.parts")), h("th", { scope: "col", class: "num" }, t("result.score")))),
    h("tbody", {}, sides.slice().sort((a, b) => a.rank - b.rank || a.index - b.index).map((p) => h("tr",
      { "data-testid": `result-side-${p.index}`, "data-seats": p.seats.join(" "), "data-rank": String(p.rank) },
      h("td", {}, p.rank),
      h("th", { scope: "row" }, p.team ? [h("strong", {}, p.team), ": ", p.members] : p.members),
      h("td", {}, p.parts.length ? h("ul", { class: "parts" }, p.parts.map((s) => h("li", {}, `${s.label}: ${s.points}`))) : "—",
        p.tiebreak.length ? h("p", { class: "tiebreak" }, t("result.tiebreak", { reasons: p.tiebreak.join("; ") })) : ""),
      h("td", { class: "num", "data-testid": `result-score-${p.seats[0]}` }, p.score)))));
  section.append(h("div", { class: "scroll-x" }, table));
  if (Array.isArray(result.ratings) && result.ratings.length) {
    section.append(h("h3", {}, t("result.ratings")), h("ul", { class: "ratings", "data-testid": "ratings" }, result.ratings.map((r) =>
      h("li", { "data-testid": `rating-${r.seat}` }, t("result.rating", { name: seatName(names, r.seat),
        before: fmt(r.before), after: fmt(r.after), delta: signed(r.delta) })))));
  }
  return section;
}

function fmt(value) {
  return typeof value === "number" ? whole(value) : String(value ?? "?");
}

/** Ratings are whole numbers on the arena's one scale: 1,532 (1532 in Spanish). */
function whole(value) {
  return new Intl.NumberFormat(getLang(), { maximumFractionDigits: 0 }).format(value);
}

/** The server's difference with its sign shown: +32, −18, ±0. */
function signed(delta) {
  if (typeof delta !== "number") return "?";
  return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${whole(Math.abs(delta))}`;
}

/** A stacked bar per side (`perSeat` holds one entry per side: a seat, or partners as a team),
 * labelled with its team ("Team B") or its seat's name. */
function chart(perSeat) {
  const max = Math.max(1, ...perSeat.map((p) => Math.max(p.score, p.parts.reduce((a, s) => a + Math.max(s.points, 0), 0))));
  const keys = [];
  for (const p of perSeat) for (const s of p.parts) if (!keys.includes(s.key)) keys.push(s.key);
  const colour = (key) => COLOURS[keys.indexOf(key) % COLOURS.length];
  const row = 34, labelW = 120, barW = 360, width = labelW + barW + 50;
  const root = svg("svg", { viewBox: `0 0 ${width} ${perSeat.length * row + 8}`, class: "score-chart",
    role: "img", "aria-label": t("result.chart") });
  perSeat.forEach((p, i) => {
    const y = 4 + i * row;
    const label = p.team ?? p.members;
    const name = label.length > 16 ? `${label.slice(0, 15)}…` : label;
    root.append(svg("text", { x: 0, y: y + 19, class: "chart-label" }, name));
    let x = labelW;
    for (const s of p.parts) {
      if (s.points <= 0) continue;
      const w = (s.points / max) * barW;
      const rect = svg("rect", { x, y: y + 4, width: Math.max(w - 1, 0.5), height: 22, fill: colour(s.key), "data-part": s.key,
        ...Object.fromEntries(Object.entries(s.words).map(([k, v]) => [`data-arg-${k}`, v])) });
      rect.append(svg("title", {}, `${s.label}: ${s.points}`));
      root.append(rect);
      x += w;
    }
    root.append(svg("text", { x: x + 6, y: y + 20, class: "chart-value" }, String(p.score)));
  });
  return [root];
}
