// The kit's compound choice (kit.js): narrowing legal actions by successive picks, in any
// order, refusing picks no legal action has, and restoring picks after a redraw.
import assert from "node:assert/strict";
import test from "node:test";

import { createChoice, indexOf } from "/static/kit.js";

const LEGAL = [
  { type: "claim", domino: 7 },
  { type: "place", x: 1, y: 0, dir: "E" },
  { type: "place", x: 1, y: 0, dir: "S" },
  { type: "place", x: 0, y: 1, dir: "S" },
  { type: "place", x: -1, y: 0, dir: "W" },
  { type: "discard" },
];
const STEPS = { cell: (a) => `${a.x},${a.y}`, dir: (a) => a.dir };
const place = (picks) => createChoice(LEGAL, STEPS, { only: (a) => a.type === "place", picks });

test("options list each step's values among the actions agreeing with the other picks", () => {
  const c = place();
  assert.deepEqual(c.pool, [1, 2, 3, 4]);
  assert.deepEqual([...c.options("cell")], [["1,0", [1, 2]], ["0,1", [3]], ["-1,0", [4]]]);
  assert.ok(c.pick("dir", "S"));
  assert.deepEqual([...c.options("cell").keys()], ["1,0", "0,1"], "the squares a domino pointing down fits");
  assert.deepEqual([...c.options("dir").keys()], ["E", "S", "W"], "a step's own pick does not narrow it");
});

test("a pick no legal action has is refused and changes nothing", () => {
  const c = place({ cell: "1,0" });
  assert.equal(c.pick("dir", "W"), false);
  assert.equal(c.has("dir"), false);
  assert.equal(c.pick("cell", "5,5"), false);
  assert.equal(c.value("cell"), "1,0");
});

test("the action is chosen once every step is picked and one action is left", () => {
  const c = place();
  assert.equal(c.chosen(), -1);
  c.pick("cell", "1,0");
  assert.equal(c.chosen(), -1, "two directions are still open");
  c.pick("dir", "S");
  assert.equal(c.chosen(), 2);
  assert.deepEqual(LEGAL[c.chosen()], { type: "place", x: 1, y: 0, dir: "S" });
});

test("force re-picks a step and keeps the other picks only when they still fit", () => {
  const c = place({ dir: "E" });
  assert.ok(c.force("cell", "1,0"));
  assert.equal(c.value("dir"), "E");
  assert.ok(c.force("cell", "0,1"));
  assert.equal(c.has("dir"), false, "E does not fit on 0,1: dropped");
  assert.equal(c.force("cell", "9,9"), false);
  assert.equal(c.value("cell"), "0,1", "a refused force changes nothing");
});

test("picks are plain data that survive a redraw, minus what the new legal list forbids", () => {
  const saved = place({ cell: "1,0", dir: "S" }).picks;
  assert.deepEqual(saved, { cell: "1,0", dir: "S" });
  const again = createChoice(LEGAL.slice(0, 2), STEPS, { only: (a) => a.type === "place", picks: saved });
  assert.equal(again.value("cell"), "1,0");
  assert.equal(again.has("dir"), false, "S is no longer legal there");
  again.clear();
  assert.deepEqual(again.picks, {});
});

test("indexOf finds a one-click action", () => {
  assert.equal(indexOf(LEGAL, (a) => a.type === "discard"), 5);
  assert.equal(indexOf(LEGAL, (a) => a.type === "pass"), -1);
});
