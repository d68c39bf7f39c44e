// Each game's renderer drawn from golden views (golden/*.json, the server's own views: see
// golden.py) into a DOM without a server, compared with stored snapshots (snapshot.mjs), and
// driven by clicks: what a renderer sends is always one of the legal actions it was given.
import assert from "node:assert/strict";
import test from "node:test";

import { click, draw, goldens } from "./render.mjs";
import { matchSnapshot } from "./snapshot.mjs";

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
      click(el);
      assert.deepEqual(sent.at(-1), g.legal[Number(el.getAttribute("data-action-index"))]);
    }
    renderer.destroy?.(root);
  });
}
