// The renderers' compound choices, clicked through on golden positions: a domino's square then
// its direction (Kingdomino), a building then a town square (Queendomino), a card then the
// attack (Kami, Goita). Each ends in exactly one legal action, and nothing else is ever sent.
import assert from "node:assert/strict";
import test from "node:test";

import { click, draw } from "./render.mjs";

const q = (root, sel) => root.querySelector(sel);
const qa = (root, sel) => [...root.querySelectorAll(sel)];

test("Kingdomino: pick a square, rotate through its legal directions, confirm one placement", async () => {
  const { root, sent, golden: g, renderer } = await draw("kingdomino-2p-place");
  const places = g.legal.filter((a) => a.type === "place");
  const confirm = () => q(root, '[data-testid="confirm"]');
  assert.ok(confirm().disabled, "nothing to confirm before a square is picked");
  // every highlighted square is the first half of a legal placement in the shown direction
  const dir = confirm().getAttribute("data-dir");
  const targets = qa(root, '[data-testid="my-kingdom"] [data-target="1"]');
  assert.ok(targets.length > 0);
  for (const cell of targets) {
    const [x, y] = [Number(cell.getAttribute("data-x")), Number(cell.getAttribute("data-y"))];
    assert.ok(places.some((a) => a.x === x && a.y === y && a.dir === dir), `${x},${y} ${dir}`);
  }
  // the square with the most directions, to rotate through them
  const count = (a) => places.filter((b) => b.x === a.x && b.y === a.y).length;
  const best = places.reduce((m, a) => (count(a) > count(m) ? a : m));
  click(q(root, `[data-testid="cell-${best.x}-${best.y}"]`));
  const seen = new Set();
  for (let i = 0; i < 4; i++) {
    const c = confirm();
    assert.equal(c.disabled, false);
    const chosen = g.legal[Number(c.getAttribute("data-action-index"))];
    assert.deepEqual([chosen.x, chosen.y, chosen.dir], [best.x, best.y, c.getAttribute("data-dir")]);
    seen.add(chosen.dir);
    click(q(root, '[data-testid="rotate"]'));
  }
  assert.deepEqual([...seen].sort(), places.filter((a) => a.x === best.x && a.y === best.y).map((a) => a.dir).sort(),
    "rotation visits exactly the square's legal directions");
  assert.deepEqual(sent, []);
  click(confirm());
  assert.equal(sent.length, 1);
  assert.ok(places.some((a) => JSON.stringify(a) === JSON.stringify(sent[0])));
  renderer.destroy(root);
});

test("Kingdomino: a square no placement starts on sends nothing and says why", async () => {
  const { root, sent, notes, golden: g, renderer } = await draw("kingdomino-2p-place");
  const starts = new Set(g.legal.filter((a) => a.type === "place").map((a) => `${a.x},${a.y}`));
  const castle = q(root, '[data-testid="my-kingdom"] [data-testid="cell-0-0"]');
  assert.ok(!starts.has("0,0"));
  click(castle);
  assert.deepEqual(sent, []);
  assert.equal(notes.length, 1);
  renderer.destroy(root);
});

test("Kingdomino: with no legal square the only choice is the discard button", async () => {
  const { root, sent, golden: g, renderer } = await draw("kingdomino-3p-discard");
  assert.deepEqual(g.legal, [{ type: "discard" }]);
  assert.equal(qa(root, '[data-target="1"]').length, 0);
  click(q(root, '[data-testid="discard"]'));
  assert.deepEqual(sent, [{ type: "discard" }]);
  renderer.destroy(root);
});

test("Queendomino: pick a building on the board, then a town square builds it there", async () => {
  const { root, sent, golden: g, renderer } = await draw("queendomino-2p-build");
  const builds = g.legal.filter((a) => a.type === "build");
  const space = builds[0].space;
  click(q(root, `[data-testid="build-space-${space}"]`));
  const cells = qa(root, '[data-testid="my-kingdom"] [data-action-index]');
  const offered = cells.map((c) => g.legal[Number(c.getAttribute("data-action-index"))]);
  assert.deepEqual(offered.map((a) => `${a.type}:${a.space}:${a.x},${a.y}`).sort(),
    builds.filter((a) => a.space === space).map((a) => `build:${a.space}:${a.x},${a.y}`).sort());
  click(cells[0]);
  assert.deepEqual(sent, [offered[0]]);
  // cancelling goes back to the knights (if any) on the same squares' layer
  click(q(root, '[data-testid="build-cancel"]'));
  const after = qa(root, '[data-testid="my-kingdom"] [data-action-index]').map((c) => g.legal[Number(c.getAttribute("data-action-index"))].type);
  assert.ok(after.every((type) => type === "knight"));
  renderer.destroy(root);
});

test("Queendomino: the Queen's host is shown the price the view gives for her", async () => {
  const { root, golden: g, renderer } = await draw("queendomino-2p-queen");
  assert.ok(g.view.kingdoms[g.view.sides[g.you]].queen);
  for (const sp of g.view.board) {
    const words = q(root, `[data-testid="space-${sp.space}"] .qd-price`).textContent;
    assert.ok(words.endsWith(`${sp.queen_price})`), words);
  }
  renderer.destroy(root);
});

for (const name of ["kami-2p-lead", "goita-4p-lead"]) {
  test(`${name}: a card starting several plays opens a chooser of exactly those plays`, async () => {
    const { root, sent, golden: g, renderer } = await draw(name);
    const sources = qa(root, "[data-source]:not([data-action-index])");
    assert.ok(sources.length > 0, "a card with several plays");
    const source = sources[0].getAttribute("data-source");
    click(sources[0]);
    const first = (a) => (a.defense === null ? a.attack : a.defense);
    const options = qa(root, '[data-testid="kami-chooser"] [data-action-index]').map((b) => g.legal[Number(b.getAttribute("data-action-index"))]);
    assert.deepEqual(options, g.legal.filter((a) => a.type === "play" && first(a) === source));
    // Escape cancels the pick
    root.dispatchEvent(new window.KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    assert.equal(q(root, '[data-testid="kami-chooser"]'), null);
    click(root.querySelector(`[data-source="${source}"]`));
    click(q(root, '[data-testid="kami-chooser"] [data-action-index]'));
    assert.deepEqual(sent, [options[0]]);
    renderer.destroy(root);
  });
}

test("Buttons: the dice and the legal cells of one's own board, one click each", async () => {
  const { root, sent, golden: g, renderer } = await draw("buttons-2p-place");
  assert.equal(qa(root, "figure.bt-die").length, 2 + g.view.dice.black.length);
  const cells = qa(root, '[data-testid="buttons-board-0"] [data-action-index]');
  assert.equal(cells.length, g.legal.filter((a) => a.type === "place").length);
  assert.equal(qa(root, '[data-testid="buttons-board-1"] [data-action-index]').length, 0, "never on another's board");
  click(cells.at(-1));
  assert.deepEqual(sent, [g.legal[Number(cells.at(-1).getAttribute("data-action-index"))]]);
  renderer.destroy?.(root);
});
