// The analysis's words: an action as a short phrase, a move's verdict as a sentence. Pure
// functions of their arguments and a translator `t` (the shell's), so tests need no page.

import { decimal } from "../i18n.js";

let own = null; // the game renderer's words for an action (the page's host), when it has them

/** The page's game renderer says actions in its own words where it can (host.describe). */
export function useRendererWords(fn) {
  own = fn;
}

/** An action in words: the game renderer's own phrase (its `describe`, in its own messages:
 * "claim domino 31", a card by its name), else, with no renderer or no phrase, the action's
 * type and fields as they are ("claim domino 31" too, in every language): the shell knows no
 * game's actions. */
export function describe(action) {
  if (!action) return "";
  const said = own?.(action);
  if (said) return said;
  return [action.type, ...Object.entries(action).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${v}`)].join(" ");
}

/** Win-chance points with a sign, as the analysis gives them (0-100), written as the language
 * writes them ("−12.3", "−12,3"); what rounds to 0.0 has no sign. Without `lang`, the page's language (decimal's default). */
export const points = (x, lang) => `${Number(x.toFixed(1)) > 0 ? "+" : ""}${decimal(x, 1, lang)}`;

/** The judgement's word, or "" for none (a forced move). */
export const judgement = (j, t) => (j ? t(`analysis.judgement.${j}`) : "");

/** One move in a sentence: "Move 12, Ana: played claim domino 31, best place…: −12.3
 * win-chance points, mistake." A best move played is said once. */
export function moveLine(move, { t, names, lang }) {
  const who = names[move.seat] ?? t("seat.n", { n: move.seat + 1 });
  const played = describe(move.action);
  const head = t("analysis.move_head", { n: move.ply + 1, name: who });
  if (move.forced) return `${head}: ${t("analysis.forced", { played })}`;
  if (move.judgement === "best") return `${head}: ${t("analysis.played_best", { played })}`;
  return `${head}: ${t("analysis.played_vs_best", { played, best: describe(move.best),
    loss: points(-move.loss.win, lang), judgement: judgement(move.judgement, t) })}`;
}
