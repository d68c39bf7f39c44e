// The zoom control (kit.js): −, fit and + set --zoom on the board's element, stop at the
// ends, and the level is remembered per game (a new control starts at it); a stored value
// that is not a level is ignored.
import assert from "node:assert/strict";
import test from "node:test";

import { ZOOM_LEVELS, zoomControl, zoomLevel } from "/static/kit.js";

const words = { group: "Board size", zoomIn: "Zoom in", zoomOut: "Zoom out", fit: "Fit" };
const click = (el) => el.dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
const memory = () => { const m = new Map(); return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v), m }; };

test("zoom in, out and fit set --zoom, stop at the ends and are remembered per game", () => {
  const storage = memory();
  const board = document.createElement("div");
  const control = zoomControl(board, "kingdomino", words, storage);
  const [out, fit, more] = control.querySelectorAll("button");
  assert.equal(control.getAttribute("role"), "group");
  assert.equal(control.getAttribute("aria-label"), "Board size");
  assert.equal(more.getAttribute("aria-label"), "Zoom in");
  assert.equal(board.style.getPropertyValue("--zoom"), "1");
  click(more); click(more);
  assert.equal(board.dataset.zoom, "1.5");
  assert.equal(zoomLevel("kingdomino", storage), 1.5);
  assert.equal(zoomLevel("queendomino", storage), 1, "per game");
  const again = document.createElement("div");
  zoomControl(again, "kingdomino", words, storage);
  assert.equal(again.style.getPropertyValue("--zoom"), "1.5", "a new control starts where the reader left it");
  for (let i = 0; i < 20; i++) click(more);
  assert.equal(Number(board.dataset.zoom), ZOOM_LEVELS.at(-1));
  assert.ok(more.disabled && !out.disabled);
  click(fit);
  assert.equal(board.dataset.zoom, "1");
  assert.equal(fit.getAttribute("aria-pressed"), "true");
  for (let i = 0; i < 20; i++) click(out);
  assert.equal(Number(board.dataset.zoom), ZOOM_LEVELS[0]);
  assert.ok(out.disabled);
});

test("a stored value that is not a level, or storage that refuses, gives fit", () => {
  const storage = memory();
  storage.setItem("ludoteca.zoom.kingdomino", "7");
  assert.equal(zoomLevel("kingdomino", storage), 1);
  const refusing = { getItem() { throw new Error("denied"); }, setItem() { throw new Error("denied"); } };
  const board = document.createElement("div");
  const [, , more] = zoomControl(board, "kingdomino", words, refusing).querySelectorAll("button");
  click(more);
  assert.equal(board.dataset.zoom, "1.25", "still zooms, only not remembered");
});
