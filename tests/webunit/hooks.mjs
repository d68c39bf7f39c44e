// Module resolution for the tests: the browser's absolute URLs mapped to the files the server
// serves there (server/app.py, server/game_assets.py): /static/games/<game>/x is in the game's
// web folder (golden/games.json, written from the registry by golden.py), any other /static/x
// is ludoteca/web/static/x.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "..", "..");
const GAMES = JSON.parse(fs.readFileSync(path.join(HERE, "golden", "games.json"), "utf8"));

export function located(specifier) {
  const game = /^\/static\/games\/([\w-]+)\/(.+)$/.exec(specifier);
  if (game && GAMES[game[1]]?.folder) return pathToFileURL(path.join(ROOT, GAMES[game[1]].folder, game[2])).href;
  if (specifier.startsWith("/static/")) return pathToFileURL(path.join(ROOT, "ludoteca", "web", "static", specifier.slice(8))).href;
  return null;
}

/** The URL the browser has for a file of a game's folder (relative imports resolve against it:
 * Queendomino's "../kingdomino/domino.js" is Kingdomino's folder, not a sibling on disk). */
function servedAt(fileUrl) {
  const file = fileURLToPath(fileUrl);
  for (const [game, { folder }] of Object.entries(GAMES)) {
    if (folder && file.startsWith(path.join(ROOT, folder) + path.sep)) {
      return `http://served/static/games/${game}/${path.relative(path.join(ROOT, folder), file).split(path.sep).join("/")}`;
    }
  }
  return null;
}

export async function resolve(specifier, context, next) {
  let url = located(specifier);
  if (!url && specifier.startsWith(".") && context.parentURL?.startsWith("file:")) {
    const served = servedAt(context.parentURL);
    if (served) url = located(new URL(specifier, served).pathname);
  }
  return url ? { url, shortCircuit: true } : next(specifier, context);
}
