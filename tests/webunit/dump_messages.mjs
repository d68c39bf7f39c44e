// Every game renderer's own words ({en, es} from each games/<game>/web/*_messages.js), as JSON on
// stdout, for the glossary test (tests/i18n/glossary.py). Run with --import ./register.mjs.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const games = fileURLToPath(new URL("../../ludoteca/games/", import.meta.url));
const out = {};
for (const game of readdirSync(games)) {
  let files = [];
  try { files = readdirSync(`${games}${game}/web`).filter((f) => f.endsWith("_messages.js")); } catch { continue; }
  for (const file of files) {
    const module = await import(`/static/games/${game}/${file}`);
    const found = Object.values(module).find((v) => v && typeof v === "object" && v.en && v.es);
    if (found) out[`${game}/web/${file}`] = { en: found.en, es: found.es };
  }
}
console.log(JSON.stringify(out));
