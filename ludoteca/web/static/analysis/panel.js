// The replay's analysis (issue 25): "Analyse" asks the server for it (POST
// /api/tables/{id}/analysis, made in the bot processes), a progress bar while its parts come
// (the GET polled every second), then the advantage chart, the per-seat summary, the played and
// best moves of the replay's current step (in words here, on the board through ctx.show), the
// moves where a hint was used, and "Learn from your mistakes" for the signed-in player's seats.
import { get, post, showError } from "../api.js";
import { ensureCss, h } from "../dom.js";
import { t } from "../i18n.js";
import { advantageChart, legend } from "./chart.js";
import { learnMode } from "./learn.js";
import { judgedList, summaryTable } from "./summary.js";
import { describe, moveLine } from "./words.js";

const POLL = 1000;

/** options: {id, invite, session, jump(at), redraw()}; the replay calls step() after each step. */
export function analysisPanel({ id, invite, session, jump, redraw }) {
  ensureCss(new URL("analysis.css", import.meta.url));
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const url = `/api/tables/${encodeURIComponent(id)}/analysis`;
  const body = h("div", {});
  const line = h("p", { class: "analysis-move", "aria-live": "polite", "data-testid": "analysis-move" });
  const el = h("section", { class: "panel analysis", "aria-labelledby": "analysis-title", "data-testid": "analysis" },
    h("h2", { id: "analysis-title" }, t("analysis.title")), line, body);
  let analysis = null, table = null, hints = [], at = 0, timer = 0, closed = false, learning = null;

  const names = () => (table?.seats || []).map((s) => s.name ?? t("seat.free"));
  const mine = () => (table?.seats || []).filter((s) => session.me && s.user === session.me.name).map((s) => s.seat);

  async function read(method) {
    clearTimeout(timer);
    let state;
    try {
      state = method === "POST" ? await post(`${url}${q}`) : await get(`${url}${q}`);
    } catch (error) {
      if (method === "POST") showError(error);
      else body.replaceChildren(h("p", { class: "error" }, error.message));
      return;
    }
    if (closed) return;
    if (state.status === "running") timer = setTimeout(() => read("GET"), POLL);
    paint(state);
  }

  function askButton(label = t("analysis.ask")) {
    if (!session.me) return h("p", { class: "hint" }, t("analysis.sign_in"));
    return h("button", { type: "button", "data-testid": "analyse", onclick: () => read("POST") }, label);
  }

  function paint(state) {
    if (state.status === "none") body.replaceChildren(h("p", { class: "hint" }, t("analysis.none")), askButton());
    else if (state.status === "failed") body.replaceChildren(h("p", { class: "error", role: "alert" }, state.error), askButton(t("analysis.again")));
    else if (state.status === "running") {
      body.replaceChildren(h("label", { class: "analysis-progress" }, t("analysis.progress", { done: state.done, total: state.total }),
        h("progress", { max: Math.max(1, state.total), value: state.done, "data-testid": "analysis-progress" })));
    } else {
      analysis = state.analysis;
      done();
      redraw();
    }
  }

  function done() {
    if (!analysis || !table || learning) return;
    const who = names();
    const pick = (ply) => jump(ply);
    const chartBox = h("figure", { class: "analysis-chart" },
      advantageChart(analysis, { t, names: who, at, pick, hints }),
      h("figcaption", { class: "chart-legend" }, legend(analysis, { t, names: who, hints }).map(([icon, word]) => h("span", {}, icon, " ", word))));
    const seats = mine();
    const learn = seats.length ? h("button", { type: "button", "data-testid": "learn", onclick: startLearning }, t("analysis.learn")) : null;
    const focused = body.contains(document.activeElement) ? document.activeElement.getAttribute("data-testid") : null;
    body.replaceChildren(chartBox, judgedList(analysis, { t, names: who, pick, hints }), summaryTable(analysis, { t, names: who }),
      h("p", { class: "hint" }, t("analysis.budget_note", { budget: analysis.budget })), learn);
    if (focused) body.querySelector(`[data-testid="${focused}"]`)?.focus(); // a keyboard stays on its mark
    say();
  }

  function startLearning() {
    learning = learnMode({ id, invite, analysis, seats: mine(), session, names: names(), table, jump,
      close: () => { learning?.destroy(); learning = null; done(); } });
    body.replaceChildren(learning.el);
  }

  function say() {
    const move = analysis?.moves[at];
    const hinted = hints.some(([ply]) => ply === at) ? t("analysis.hint_used_here") : "";
    line.textContent = [move ? moveLine(move, { t, names: names() }) : "", hinted].filter(Boolean).join(" ");
  }

  return {
    el,
    /** The replay moved to `at` (table: the summary; hints: the replay's [[ply, seat]]). */
    step(now, summary, used) {
      const first = !table;
      at = now;
      table = summary;
      hints = used || [];
      if (first) read("GET");
      else if (analysis && !learning) done();
      say(); // a hint used here is said with or without the analysis
    },
    /** ctx.show for the position after `at` moves: the next move played and the best found. */
    show(now) {
      const move = analysis?.moves[now];
      if (!move || move.forced) return null;
      return { seat: move.seat, played: move.action, best: move.best,
        words: { played: t("analysis.played_word"), best: t("analysis.best_word") },
        text: { played: describe(move.action), best: describe(move.best) } };
    },
    /** The game's renderer arrived (its words for the moves): say them again in its words. */
    reword() {
      if (analysis && table && !learning) done();
      else say();
    },
    destroy() { closed = true; clearTimeout(timer); learning?.destroy(); },
  };
}
