// The analysis's per-seat summary (accuracy, inaccuracies, mistakes, blunders, then where the
// seat started, luck, its own moves (skill) and the other seats' moves, which add up to its
// result) and the chart's text alternative: the judged moves as a list of buttons.
import { h } from "../dom.js";
import { decimal } from "../i18n.js";
import { MARKS, marked } from "./chart.js";
import { judgement, moveLine, points } from "./words.js";

/** The summary as rows of words, one per seat (what the table shows; tests read it). */
export function summaryRows(analysis, { t, names, lang }) {
  return analysis.seats.map((s) => [
    names[s.seat] ?? s.name ?? String(s.seat + 1),
    s.accuracy === null ? "—" : decimal(s.accuracy, 1, lang),
    String(s.judgements.inaccuracy), String(s.judgements.mistake), String(s.judgements.blunder),
    // an analysis kept from before version 2 has no start and no others' moves: a dash
    s.start ? decimal(s.start.win, 1, lang) : "—", points(s.luck.win, lang),
    points(s.skill.win, lang), s.others ? points(s.others.win, lang) : "—",
    decimal(s.result.win, 1, lang),
  ]);
}

export function summaryTable(analysis, { t, names }) {
  const heads = ["player", "accuracy", "inaccuracies", "mistakes", "blunders", "start", "luck",
    "skill", "others", "result"]
    .map((k) => h("th", { scope: "col" }, t(`analysis.col.${k}`)));
  return h("table", { class: "analysis-summary", "data-testid": "analysis-summary" },
    h("caption", {}, t("analysis.summary_caption")),
    h("thead", {}, h("tr", {}, heads)),
    h("tbody", {}, summaryRows(analysis, { t, names }).map(([name, ...cells]) =>
      h("tr", {}, h("th", { scope: "row" }, name), cells.map((c, i) => h("td", { "data-label": heads[i + 1].textContent }, c))))));
}

/** The judged moves in words, each a button to its position (the chart's text alternative). */
export function judgedList(analysis, { t, names, pick, hints = [] }) {
  const hinted = new Set(hints.map(([ply]) => ply));
  const items = marked(analysis).map((m) => h("li", {}, h("button", { type: "button", class: "link",
    "data-testid": `judged-${m.ply}`, onclick: () => pick(m.ply) },
  `${MARKS[m.judgement].sign} ${moveLine(m, { t, names })}${hinted.has(m.ply) ? ` (${t("analysis.hint_used")})` : ""}`)));
  return h("details", { class: "analysis-moves", "data-testid": "judged-moves" },
    h("summary", {}, t("analysis.judged_list", { n: items.length })),
    items.length ? h("ol", {}, items) : h("p", {}, t("analysis.no_judged")));
}

export { judgement };
