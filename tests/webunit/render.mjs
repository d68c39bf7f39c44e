// Drawing golden positions (golden/*.json) with the games' renderers, for the tests.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { translator } from "/static/i18n.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GOLDEN = path.join(HERE, "golden");
const GAMES = JSON.parse(fs.readFileSync(path.join(GOLDEN, "games.json"), "utf8"));
export const goldens = fs.readdirSync(GOLDEN).filter((f) => f.endsWith(".json") && f !== "games.json").sort();

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
  const notes = [];
  const ctx = { view: g.view, legal: g.legal, you: g.you, own: g.you, names: g.names, lang: g.lang,
    t: translator(renderer.messages, g.lang), act: (a) => { sent.push(a); return true; }, notify: (text) => notes.push(text), pending: false };
  renderer.render(root, ctx);
  return { root, sent, notes, ctx, renderer, golden: g };
}

/** A renderer's show(root, ctx): given as a function, or as its module's URL (the host loads it). */
export async function showOf(renderer) {
  return typeof renderer.show === "function" ? renderer.show : (await import(renderer.show)).show;
}

/** Click an element as a person does. */
export function click(el) {
  assert.ok(el, "nothing to click");
  el.dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
}
