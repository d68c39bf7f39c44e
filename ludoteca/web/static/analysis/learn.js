// "Learn from your mistakes": the signed-in player steps through their own mistakes and
// blunders (inaccuracies too, if they choose), sees each position as they saw it then (GET
// /api/tables/{id}/analysis/decision: their view and legal moves then), picks a move with the
// game's own renderer, and hears whether it passes (POST .../analysis/retry: the server values
// it and judges it; it passes within 3.5 win-chance points of the best).
import { get, post, showError } from "../api.js";
import { h } from "../dom.js";
import { createHost } from "../host.js";
import { decimal, getLang, t } from "../i18n.js";
import { toast } from "../ui.js";
import { judgement, points } from "./words.js";

const SERIOUS = ["mistake", "blunder"];

/** The moves of `seats` to learn from: mistakes and blunders, and inaccuracies when asked. */
export function lessons(analysis, seats, withInaccuracies = false) {
  const kinds = withInaccuracies ? ["inaccuracy", ...SERIOUS] : SERIOUS;
  return analysis.moves.filter((m) => seats.includes(m.seat) && kinds.includes(m.judgement));
}

/** options: {id, invite, analysis, seats (the player's), session, names, table, jump(ply) (the
 * replay above goes to the lesson's position, with its played and best moves), close()}. */
export function learnMode({ id, invite, analysis, seats, session, names, table, jump, close }) {
  const q = invite ? `&invite=${encodeURIComponent(invite)}` : "";
  const base = `/api/tables/${encodeURIComponent(id)}/analysis`;
  const head = h("h3", { "data-testid": "learn-head" });
  const verdict = h("p", { class: "learn-verdict", role: "status", "data-testid": "learn-verdict" });
  const board = h("div", { class: "game", "data-testid": "learn-board" });
  const withInacc = h("input", { type: "checkbox", id: "learn-inaccuracies", onchange: () => { list = lessons(analysis, seats, withInacc.checked); go(0); } });
  const prev = h("button", { type: "button", "data-testid": "learn-prev", onclick: () => go(index - 1) }, t("analysis.learn_prev"));
  const next = h("button", { type: "button", "data-testid": "learn-next", onclick: () => go(index + 1) }, t("analysis.learn_next"));
  const bestButton = h("button", { type: "button", "data-testid": "learn-show-best", hidden: true, onclick: () => draw(true) }, t("analysis.learn_show_best"));
  const el = h("div", { class: "learn", "data-testid": "learn-mode" },
    h("div", { class: "row" }, h("div", { class: "field check" }, withInacc, h("label", { for: "learn-inaccuracies" }, t("analysis.learn_inaccuracies"))),
      prev, next, bestButton, h("button", { type: "button", class: "secondary", "data-testid": "learn-close", onclick: close }, t("analysis.learn_close"))),
    head, h("p", { class: "hint" }, t("analysis.learn_how")), verdict, board);
  const host = createHost(board, { game: table.game, url: session.games.find((g) => g.name === table.game)?.web, t,
    notify: (text) => toast(text, "info") });
  let list = lessons(analysis, seats), index = 0, decision = null, pending = false, ticket = 0;

  async function go(i) {
    index = Math.max(0, Math.min(i, list.length - 1));
    prev.disabled = index <= 0;
    next.disabled = index >= list.length - 1;
    verdict.textContent = "";
    bestButton.hidden = true;
    if (!list.length) {
      head.textContent = t("analysis.learn_none");
      board.replaceChildren();
      return;
    }
    const move = list[index];
    head.textContent = t("analysis.learn_head", { i: index + 1, n: list.length, move: move.ply + 1,
      judgement: judgement(move.judgement, t), loss: points(-move.loss.win) });
    jump(move.ply);
    const mine = ++ticket;
    try {
      decision = await get(`${base}/decision?at=${move.ply}${q}`);
    } catch (error) {
      showError(error);
      return;
    }
    if (mine === ticket) draw(false);
  }

  function draw(best) {
    const move = list[index];
    host.draw({ view: decision.view, legal: decision.legal, you: decision.seat, names, lang: getLang(), act, pending,
      show: best ? { seat: move.seat, played: move.action, best: move.best,
        words: { played: t("analysis.played_word"), best: t("analysis.best_word") } } : null });
  }

  function act(action) {
    if (pending || !decision) return false;
    pending = true;
    draw(false);
    const move = list[index];
    verdict.textContent = t("analysis.learn_judging");
    post(`${base}/retry${q ? `?${q.slice(1)}` : ""}`, { at: move.ply, action })
      .then((answer) => {
        const words = { win: decimal(answer.win, 1), best: decimal(answer.best, 1), loss: points(-answer.loss) };
        verdict.textContent = t(answer.passed ? "analysis.learn_pass" : "analysis.learn_fail", words);
        verdict.dataset.passed = String(answer.passed);
        bestButton.hidden = false;
      })
      .catch((error) => { verdict.textContent = ""; showError(error); })
      .finally(() => { pending = false; draw(false); });
    return true;
  }

  go(0);
  return { el, destroy: () => host.destroy() };
}
