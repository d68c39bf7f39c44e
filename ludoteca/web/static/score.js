// The end-of-game score breakdown: a table of every part the result's breakdown gives, and a
// stacked SVG bar per seat. Reads what each game's breakdown holds (territories, bonuses,
// coins, queen, buildings, rounds) and puts any remainder of the score in "other".
import { t } from "./i18n.js";
import { h, svg } from "./ui.js";

const COLOURS = ["#2f6f3e", "#b8860b", "#1f5f9f", "#8b3a62", "#6b4f2a", "#3a7f7f", "#9f4f1f",
  "#5a5aa0", "#7a7a2a", "#a03030"];

const TERRAIN_COLOURS = { wheat: "#e3b92b", forest: "#1e5a2c", lake: "#2f6fc4", grassland: "#8cc63f",
  swamp: "#8a7353", mine: "#3d3d3d", town: "#b04a7a" };

function terrainName(terrain) {
  const key = `terrain.${terrain}`;
  const text = t(key);
  return text === key ? terrain : text;
}

/** [{key, label, points}] for one seat's breakdown (entries with 0 points dropped). */
export function segments(b, score) {
  const out = [];
  const add = (key, label, points) => {
    if (!points) return;
    const found = out.find((s) => s.key === key);
    if (found) found.points += points;
    else out.push({ key, label, points });
  };
  const walk = (part) => {
    if (!part || typeof part !== "object") return;
    if (Array.isArray(part.games)) { part.games.forEach(walk); return; }
    for (const tr of part.territories || []) {
      add(`terrain:${tr.terrain}`, t("score.territory", { terrain: terrainName(tr.terrain) }), tr.points || 0);
    }
    for (const bonus of part.bonuses || []) {
      const key = `bonus.${bonus.name}`;
      add(`bonus:${bonus.name}`, t(key) === key ? bonus.name : t(key), bonus.points || 0);
    }
    if (part.wealth) add("coins", t("score.coins", { coins: part.wealth.coins }), part.wealth.points || 0);
    if (part.queen) add("queen", t("score.queen"), part.queen.points || 0);
    for (const building of part.buildings || []) add(`building:${building.name}`, building.name, building.points || 0);
    if (Array.isArray(part.rounds) && !part.territories) {
      if (part.rule === "bga" && part.five_line) add("line", t("score.five_line"), part.score);
      else part.rounds.forEach((r, i) => add(`round:${r.round ?? i + 1}`,
        t("score.round", { n: r.round ?? i + 1 }), r.stars ?? r.points ?? 0));
    }
  };
  walk(b);
  const sum = out.reduce((acc, s) => acc + s.points, 0);
  if (typeof score === "number" && score - sum > 0) add("other", t("score.other"), score - sum);
  if (typeof score === "number" && sum > score) return [{ key: "total", label: t("score.total"), points: score }];
  return out;
}

/** The result section: winners, scores, a bar chart and a detailed table per seat. */
export function renderResult(result, names) {
  const section = h("section", { class: "result", "data-testid": "result", "aria-labelledby": "result-title" });
  section.append(h("h2", { id: "result-title" }, t("result.title")));
  const winners = (result.winners || []).map((s) => names[s] ?? t("seat.n", { n: s + 1 }));
  section.append(h("p", { class: "winners" }, winners.length > 1
    ? t("result.winners", { names: winners.join(", ") })
    : t("result.winner", { name: winners[0] ?? "?" })));
  const perSeat = names.map((name, seat) => ({
    name, seat, score: result.scores?.[seat] ?? 0, rank: result.ranks?.[seat],
    parts: segments(result.breakdown?.[seat], result.scores?.[seat]),
  }));
  section.append(...chart(perSeat));
  const table = h("table", { class: "score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("result.rank")), h("th", { scope: "col" }, t("result.player")),
      h("th", { scope: "col" }, t("result.parts")), h("th", { scope: "col", class: "num" }, t("result.score")))),
    h("tbody", {}, perSeat.slice().sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99)).map((p) => h("tr", {},
      h("td", {}, p.rank ?? ""), h("th", { scope: "row" }, p.name),
      h("td", {}, p.parts.length ? h("ul", { class: "parts" }, p.parts.map((s) => h("li", {}, `${s.label}: ${s.points}`))) : "—"),
      h("td", { class: "num", "data-testid": `result-score-${p.seat}` }, p.score)))));
  section.append(h("div", { class: "scroll-x" }, table));
  if (result.ratings) {
    section.append(h("ul", { class: "ratings" }, Object.entries(result.ratings).map(([name, r]) =>
      h("li", {}, t("result.rating", { name, before: fmt(r.before), after: fmt(r.after) })))));
  }
  return section;
}

function fmt(r) {
  const value = typeof r === "object" && r ? r.rating ?? r.mu : r;
  return typeof value === "number" ? value.toFixed(2) : String(value);
}

function chart(perSeat) {
  const max = Math.max(1, ...perSeat.map((p) => Math.max(p.score, p.parts.reduce((a, s) => a + s.points, 0))));
  const keys = [];
  for (const p of perSeat) for (const s of p.parts) if (!keys.includes(s.key)) keys.push(s.key);
  const others = keys.filter((key) => !TERRAIN_COLOURS[key.split(":")[1]] || !key.startsWith("terrain:"));
  const colour = (key) => (key.startsWith("terrain:") && TERRAIN_COLOURS[key.slice(8)])
    || COLOURS[others.indexOf(key) % COLOURS.length];
  const row = 34, labelW = 120, barW = 360, width = labelW + barW + 50;
  const names = new Map();
  for (const p of perSeat) for (const s of p.parts) names.set(s.key, s.label);
  const legend = h("ul", { class: "legend", "aria-hidden": "true" }, keys.map((key) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${colour(key)}` }), names.get(key))));
  const root = svg("svg", { viewBox: `0 0 ${width} ${perSeat.length * row + 8}`, class: "score-chart",
    role: "img", "aria-label": t("result.chart") });
  perSeat.forEach((p, i) => {
    const y = 4 + i * row;
    const name = p.name.length > 16 ? `${p.name.slice(0, 15)}…` : p.name;
    root.append(svg("text", { x: 0, y: y + 19, class: "chart-label" }, name));
    let x = labelW;
    for (const s of p.parts) {
      const w = (s.points / max) * barW;
      const rect = svg("rect", { x, y: y + 4, width: Math.max(w - 1, 0.5), height: 22, fill: colour(s.key) });
      rect.append(svg("title", {}, `${s.label}: ${s.points}`));
      root.append(rect);
      x += w;
    }
    root.append(svg("text", { x: x + 6, y: y + 20, class: "chart-value" }, String(p.score)));
  });
  return [root, legend];
}
