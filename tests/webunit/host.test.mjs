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

test("a renderer's show given as a module URL is loaded when moves are first shown, then drawn", async () => {
  const log = [];
  const shows = [];
  const importer = async (url) => url.endsWith("show.js")
    ? { show: (root, ctx) => shows.push(ctx.show.best) }
    : { default: { ...fakeRenderer(log), show: "/static/games/fake/show.js" } };
  const root = document.createElement("div");
  const host = createHost(root, { game: "fake2", url: "/static/games/fake/b.js", t, notify: () => {}, importer });
  await host.ready;
  host.draw(frame({ view: { ply: 1 } })); // no moves to show: the module is not asked for
  host.draw(frame({ view: { ply: 1 }, show: { best: "x" } }));
  assert.deepEqual(shows, []); // loading
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(shows, ["x"]); // the frame drawn again with its moves once loaded
  host.draw(frame({ view: { ply: 2 }, show: { best: "y" } }));
  assert.deepEqual(shows, ["x", "y"]); // at once from then on
});

test("ctx.own is the viewer's own seat: `you` unless the page says otherwise (the replay)", async () => {
  const seen = [];
  const importer = async () => ({ default: { name: "own", messages: { en: {}, es: {} }, render(root, ctx) { seen.push([ctx.you, ctx.own]); } } });
  const host = createHost(document.createElement("div"), { game: "own", url: "/static/games/own/a.js", t, importer });
  await host.ready;
  host.draw(frame({ you: 1 }));
  host.draw(frame({ you: null }));
  host.draw(frame({ you: null, own: 0 }));
  host.draw(frame({ you: null, own: null }));
  assert.deepEqual(seen, [[1, 1], [null, null], [null, 0], [null, null]]);
  host.destroy();
});

test("a redraw that removes the focused control puts focus back in the game, not the page", async () => {
  const buttons = {
    name: "buttons", messages: { en: {}, es: {} },
    render(root, ctx) {
      root.replaceChildren(...ctx.legal.map((a, i) => {
        const b = document.createElement("button");
        b.dataset.actionIndex = String(i);
        b.dataset.testid = `act-${a.id}`;
        return b;
      }));
    },
  };
  const root = document.createElement("div");
  document.body.append(root);
  const host = createHost(root, { game: "x", url: "/static/games/x/focus.js", t, importer: async () => ({ default: buttons }) });
  host.draw(frame({ seq: 1, legal: [{ id: "a" }, { id: "b" }] }));
  await host.ready;
  root.querySelector('[data-testid="act-b"]').focus();
  host.draw(frame({ seq: 2, legal: [{ id: "c" }, { id: "b" }] }));
  assert.equal(document.activeElement.dataset.testid, "act-b", "the same control again");
  host.draw(frame({ seq: 3, legal: [{ id: "d" }] }));
  assert.equal(document.activeElement.dataset.testid, "act-d", "else the first control");
  host.draw(frame({ seq: 4, legal: [] }));
  assert.equal(document.activeElement, root, "else the game itself");
  root.remove();
});

test("the game stays hidden until the stylesheet its renderer linked has arrived", async () => {
  const { ensureCss } = await import("/static/dom.js");
  const href = "http://ludoteca.test/static/games/styled/styled.css";
  const styled = { name: "styled", messages: {}, render(root, ctx) { ensureCss(href); root.textContent = `ply ${ctx.view.ply}`; } };
  const held = []; // happy-dom answers a link at once (file loading is off); a browser takes time
  const append = document.head.append;
  document.head.append = (link) => { held.push(link); };
  const root = document.createElement("div");
  const host = createHost(root, { game: "styled", url: "/static/games/styled/a.js", t, importer: async () => ({ default: styled }) });
  try {
    host.draw(frame());
    await host.ready;
    assert.equal(root.style.visibility, "hidden", "unstyled, a card's SVG would fill the page");
    host.draw(frame({ view: { ply: 2 } }));
    assert.equal(root.style.visibility, "hidden", "still waiting for the sheet");
  } finally {
    document.head.append = append; // the other tests' links go in as before
  }
  assert.equal(held.length, 1, "linked once");
  held[0].dispatchEvent(new Event("load"));
  await new Promise((done) => setTimeout(done, 0));
  assert.equal(root.style.visibility, "", "shown once styled");
  host.draw(frame({ view: { ply: 3 } }));
  assert.equal(root.style.visibility, "", "an arrived sheet is not waited for again");
});
