// The end-of-game score: per seat the score parts the engine sent (each with its sentence and
// points), the tie-break reasons, and a stacked SVG bar per seat. Nothing is added up here:
// the parts come from the outcome and already add up to each score.
import { decimal, t } from "./i18n.js";
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

/** The seats playing with `seat` (the outcome's teams), itself excluded. */
function partnersOf(result, seat) {
  const side = (result.teams || []).find((team) => team.includes(seat)) || [seat];
  return side.filter((s) => s !== seat);
}

/** "Winner: Ana" (or "Winners: …"): the sentence the result opens with, and the one the page
 * announces when the match ends. */
export function winnersText(result, names) {
  const winners = (result.winners || []).map((s) => names[s] ?? t("seat.n", { n: s + 1 }));
  return winners.length > 1 ? t("result.winners", { names: winners.join(", ") }) : t("result.winner", { name: winners[0] ?? "?" });
}

/** The seats whose tie-break reasons are shown: those the server says the tie-break decided
 * (`tie_broken`); a result stored before it was said shows every seat's. */
function tieBroken(result, seat) {
  return Array.isArray(result.tie_broken) ? result.tie_broken.includes(seat) : true;
}

/** The result section: winners, scores, a bar chart and a detailed table per seat. */
export function renderResult(result, names) {
  const section = h("section", { class: "result", "data-testid": "result", "aria-labelledby": "result-title" });
  section.append(h("h2", { id: "result-title" }, t("result.title")));
  section.append(h("p", { class: "winners" }, winnersText(result, names)));
  const perSeat = names.map((name, seat) => ({
    name, seat, score: result.scores?.[seat] ?? 0, rank: result.ranks?.[seat],
    parts: segments(result, seat, names),
    partners: partnersOf(result, seat).map((s) => names[s] ?? t("seat.n", { n: s + 1 })),
    tiebreak: tieBroken(result, seat) ? ((result.tiebreak || [])[seat] || []).map((r) => partText(r, names)) : [],
  }));
  section.append(...chart(perSeat));
  const table = h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.rank")), h("th", { scope: "col" }, t("result.player")),
      h("th", { scope: "col" }, t("result.parts")), h("th", { scope: "col", class: "num" }, t("result.score")))),
    h("tbody", {}, perSeat.slice().sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99)).map((p) => h("tr", {},
      h("td", {}, p.rank ?? ""),
      h("th", { scope: "row" }, p.partners.length ? t("result.with", { name: p.name, partners: p.partners.join(", ") }) : p.name),
      h("td", {}, p.parts.length ? h("ul", { class: "parts" }, p.parts.map((s) => h("li", {}, `${s.label}: ${s.points}`))) : "—",
        p.tiebreak.length ? h("p", { class: "tiebreak" }, t("result.tiebreak", { reasons: p.tiebreak.join("; ") })) : ""),
      h("td", { class: "num", "data-testid": `result-score-${p.seat}` }, p.score)))));
  section.append(h("div", { class: "scroll-x" }, table));
  if (Array.isArray(result.ratings) && result.ratings.length) {
    section.append(h("h3", {}, t("result.ratings")), h("ul", { class: "ratings", "data-testid": "ratings" }, result.ratings.map((r) =>
      h("li", { "data-testid": `rating-${r.seat}` }, t("result.rating", { name: names[r.seat] ?? t("seat.n", { n: r.seat + 1 }),
        before: fmt(r.before), after: fmt(r.after), delta: signed(r.delta) })))));
  }
  return section;
}

function fmt(value) {
  return typeof value === "number" ? decimal(value) : String(value ?? "?");
}

/** The server's difference with its sign shown: +1.20, −0.85, ±0.00. */
function signed(delta) {
  if (typeof delta !== "number") return "?";
  return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${decimal(Math.abs(delta))}`;
}

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
    const name = p.name.length > 16 ? `${p.name.slice(0, 15)}…` : p.name;
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
