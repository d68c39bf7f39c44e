// The renderer host (host.js): loads a renderer once per URL, draws the newest frame once it has
// loaded, falls back to the plain renderer (legal actions as buttons, the view as JSON) when
// there is none or it throws, marks an action in flight, and destroys the renderer.
import assert from "node:assert/strict";
import test from "node:test";

import { createHost, loadRenderer } from "/static/host.js";

const t = (key) => `[${key}]`;
const frame = (fields = {}) => ({ view: { ply: 1 }, legal: [], you: 0, names: ["A", "B"], lang: "en", act: () => true, pending: null, ...fields });

function fakeRenderer(log) {
  return {
    name: "fake",
    messages: { en: { hello: "Hello" }, es: { hello: "Hola" } },
    render(root, ctx) { log.push(["render", ctx.view.ply, ctx.t("hello"), ctx.pending]); root.textContent = `ply ${ctx.view.ply}`; },
    destroy(root) { log.push(["destroy", root.textContent]); },
  };
}

test("the newest frame drawn while loading is the one painted; later frames paint at once", async () => {
  const log = [];
  let imports = 0;
  const importer = async () => { imports++; return { default: fakeRenderer(log) }; };
  const root = document.createElement("div");
  const host = createHost(root, { game: "fake", url: "/static/games/fake/a.js", t, notify: () => {}, importer });
  host.draw(frame({ view: { ply: 1 } }));
  host.draw(frame({ view: { ply: 2 }, lang: "es" }));
  await host.ready;
  assert.deepEqual(log, [["render", 2, "Hola", false]]);
  host.draw(frame({ view: { ply: 3 }, pending: { seq: 3 } }));
  assert.deepEqual(log.at(-1), ["render", 3, "Hello", true]);
  assert.ok(root.hasAttribute("aria-busy"), "an action in flight is marked busy");
  assert.ok(root.classList.contains("game-fake"));
  host.destroy();
  assert.deepEqual(log.at(-1), ["destroy", "ply 3"]);
  // a second host of the same URL loads nothing again
  const other = createHost(document.createElement("div"), { game: "fake", url: "/static/games/fake/a.js", t, importer });
  await other.ready;
  assert.equal(imports, 1);
});

test("without a renderer the fallback offers every legal action and the view", async () => {
  const root = document.createElement("div");
  const sent = [];
  const host = createHost(root, { game: "none", url: null, t });
  await host.ready;
  const legal = [{ type: "roll" }, { type: "stop" }];
  host.draw(frame({ legal, act: (a) => sent.push(a) }));
  assert.equal(root.querySelector(".hint").textContent, "[table.fallback]");
  const buttons = [...root.querySelectorAll("[data-action-index]")];
  assert.equal(buttons.length, 2);
  buttons[1].dispatchEvent(new window.MouseEvent("click", { bubbles: true }));
  assert.deepEqual(sent, [{ type: "stop" }]);
  assert.ok(root.querySelector("pre").textContent.includes('"ply": 1'));
  host.draw(frame());
  assert.equal(root.querySelector(".hint").textContent, "[table.fallback_watch]");
});

test("a renderer that fails to load or throws leaves the fallback", async () => {
  const broken = createHost(document.createElement("div"), { game: "b", url: "/static/games/b/missing.js", t,
    importer: async () => { throw new Error("404"); } });
  assert.equal(await broken.ready, null);
  assert.equal(await loadRenderer("/static/games/b/missing.js"), null, "remembered");
  const root = document.createElement("div");
  const host = createHost(root, { game: "t", url: "/static/games/t/throws.js", t,
    importer: async () => ({ default: { render() { throw new Error("bug"); } } }) });
  await host.ready;
  const error = console.error;
  console.error = () => {};
  try { host.draw(frame()); } finally { console.error = error; }
  assert.equal(root.querySelector(".hint").textContent, "[table.renderer_failed]");
});
