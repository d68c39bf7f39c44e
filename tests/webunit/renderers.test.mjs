// Each game's renderer drawn from golden views (golden/*.json, the server's own views: see
// golden.py) into a DOM without a server, compared with stored snapshots (snapshot.mjs), and
// driven by clicks: what a renderer sends is always one of the legal actions it was given.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import test from "node:test";
import { fileURLToPath } from "node:url";

import { translator } from "/static/i18n.js";
import { matchSnapshot } from "./snapshot.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GOLDEN = path.join(HERE, "golden");
const GAMES = JSON.parse(fs.readFileSync(path.join(GOLDEN, "games.json"), "utf8"));
const goldens = fs.readdirSync(GOLDEN).filter((f) => f.endsWith(".json") && f !== "games.json").sort();

export function golden(name) {
  return JSON.parse(fs.readFileSync(path.join(GOLDEN, `${name}.json`), "utf8"));
}

export async function rendererOf(game) {
  return (await import(GAMES[game].url)).default;
}

/** Draw a golden position on a fresh root; returns the root and the actions sent. */
export async function draw(name) {
  const g = golden(name);
  const renderer = await rendererOf(g.game);
  const root = document.createElement("div");
  document.body.replaceChildren(root);
  const sent = [];
  const ctx = { view: g.view, legal: g.legal, you: g.you, names: g.names, lang: g.lang,
    t: translator(renderer.messages, g.lang), act: (a) => { sent.push(a); return true; }, notify: () => {}, pending: false };
  renderer.render(root, ctx);
  return { root, sent, ctx, renderer, golden: g };
}

for (const file of goldens) {
  const name = file.slice(0, -5);
  test(`${name}: the renderer draws the golden view as its snapshot`, async () => {
    const { root, renderer } = await draw(name);
    matchSnapshot(name, root);
    renderer.destroy?.(root);
  });

  test(`${name}: every element carrying an action index sends that legal action`, async () => {
    const { root, sent, golden: g, renderer } = await draw(name);
    const marked = [...root.querySelectorAll("[data-action-index]")].filter((el) => !el.hasAttribute("disabled"));
    if (!g.legal.length) assert.equal(marked.length, 0, "no action is offered to a viewer with no decision");
    for (const index of new Set(marked.map((el) => Number(el.getAttribute("data-action-index"))))) {
      assert.ok(index >= 0 && index < g.legal.length, `index ${index} is not in legal`);
    }
    if (marked.length) {
      const el = marked[0];
      el.dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
      assert.deepEqual(sent.at(-1), g.legal[Number(el.getAttribute("data-action-index"))]);
    }
    renderer.destroy?.(root);
  });
}
