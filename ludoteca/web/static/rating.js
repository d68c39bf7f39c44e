// Ratings as the pages show them: the arena's one scale with its 95% interval ("1,620 ± 90",
// the server's `rating` and `plus_minus`), and a rating pool's name.
import { getLang, t } from "./i18n.js";

/** "1,620 ± 90" (English), "1620 ± 90" (Spanish): whole numbers as the page's language writes them. */
export function ratingText(rating, plusMinus, lang = getLang()) {
  const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
  return `${rating < 0 ? "−" : ""}${whole.format(Math.abs(rating))} ± ${whole.format(plusMinus)}`;
}

/** A pool as people call it: "All time", "Season 2026Q4 (current)", "Against bots". */
export function poolName(pool, current = false) {
  if (pool === "all") return t("leaderboard.pool_all");
  if (pool === "bots") return t("leaderboard.pool_bots");
  const season = pool.replace(/^season:/, "");
  return t(current ? "leaderboard.pool_season_current" : "leaderboard.pool_season", { season });
}
