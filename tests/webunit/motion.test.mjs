// The last-move marks (host.js): after a new view, the keyed elements that
// are new or whose sig changed carry `just-changed` until the next new view; a redraw of the
// same view (or the renderer redrawing on its own) keeps them; the first view marks nothing;
// what moved slides from its old place (FLIP) unless reduced motion is asked for.
import assert from "node:assert/strict";
import test from "node:test";

import { changedKeys, createHost, snapshot } from "/static/host.js";
import { draw as drawGolden, goldens } from "./render.mjs";

const t = (key) => `[${key}]`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// A renderer drawing view.items ([{key, sig, x, y, from}]) as keyed elements; data-x and data-y
// stand for the on-screen place, which happy-dom (no layout) cannot give; `from` is data-from.
const renderer = {
  name: "keys",
  messages: { en: {}, es: {} },
  render(root, ctx) {
    root.replaceChildren(...ctx.view.items.map((it) => {
      const el = document.createElement("span");
      el.dataset.key = it.key;
      el.dataset.sig = it.sig;
      el.dataset.x = String(it.x ?? 0);
      el.dataset.y = String(it.y ?? 0);
      if (it.from) el.dataset.from = it.from;
      return el;
    }));
  },
};

function withLayout(fn) {
  const proto = window.HTMLElement.prototype;
  const rect = proto.getBoundingClientRect;
  const animate = proto.animate;
  const calls = [];
  proto.getBoundingClientRect = function () { const x = Number(this.dataset.x || 0), y = Number(this.dataset.y || 0); return { left: x, top: y, width: 10, height: 10 }; };
  proto.animate = function (frames, opts) { calls.push([this.dataset.key, frames, opts]); return { cancel() {} }; };
  return Promise.resolve(fn(calls)).finally(() => { proto.getBoundingClientRect = rect; proto.animate = animate; });
}

async function hostOn() {
  const root = document.createElement("div");
  document.body.append(root);
  const host = createHost(root, { game: "keys", url: "/static/games/keys/r.js", t, importer: async () => ({ default: renderer }) });
  await host.ready;
  const draw = (seq, items) => host.draw({ view: { ply: seq, items }, legal: [], you: 0, names: [], lang: "en", act: () => true, pending: null, seq });
  const marked = () => [...root.querySelectorAll(".just-changed")].map((el) => el.dataset.key).sort();
  return { root, host, draw, marked };
}

test("changedKeys: new keys and changed sigs, not the unchanged or the gone", () => {
  const before = new Map([["a", { sig: "1" }], ["b", { sig: "1" }], ["gone", { sig: "x" }]]);
  const after = new Map([["a", { sig: "1" }], ["b", { sig: "2" }], ["c", { sig: "" }]]);
  assert.deepEqual([...changedKeys(before, after)].sort(), ["b", "c"]);
  const div = document.createElement("div");
  div.innerHTML = '<i data-key="k" data-sig="s"></i><i></i>';
  assert.deepEqual([...snapshot(div).keys()], ["k"]);
});

test("a new view marks what changed, a redraw keeps the marks, the next view replaces them", async () => {
  await withLayout(async () => {
    const { root, host, draw, marked } = await hostOn();
    draw(1, [{ key: "cell:0:0,0", sig: "castle" }, { key: "domino:3", sig: "next-0" }]);
    assert.deepEqual(marked(), [], "the first view marks nothing");
    draw(2, [{ key: "cell:0:0,0", sig: "castle" }, { key: "domino:3", sig: "next-0-king1" }, { key: "cell:0:1,0", sig: "wheat1" }]);
    assert.deepEqual(marked(), ["cell:0:1,0", "domino:3"]);
    draw(2, [{ key: "cell:0:0,0", sig: "castle" }, { key: "domino:3", sig: "next-0-king1" }, { key: "cell:0:1,0", sig: "wheat1" }]);
    assert.deepEqual(marked(), ["cell:0:1,0", "domino:3"], "a redraw of the same view keeps the marks");
    // the renderer redrawing on its own (a picked square) keeps them too
    renderer.render(root, { view: { items: [{ key: "cell:0:0,0", sig: "castle" }, { key: "domino:3", sig: "next-0-king1" }, { key: "cell:0:1,0", sig: "wheat1" }] } });
    await settle();
    assert.deepEqual(marked(), ["cell:0:1,0", "domino:3"]);
    draw(3, [{ key: "cell:0:0,0", sig: "castle" }, { key: "domino:3", sig: "next-0-king1" }, { key: "cell:0:1,0", sig: "wheat1" }]);
    assert.deepEqual(marked(), [], "the old marks are gone after the next view");
    host.destroy();
  });
});

test("what moved slides from its old place (FLIP); reduced motion only marks", async () => {
  await withLayout(async (calls) => {
    const { draw, marked, host } = await hostOn();
    draw(1, [{ key: "domino:7", sig: "next-1", x: 300 }, { key: "still", sig: "", x: 5 }]);
    assert.equal(calls.length, 0, "nothing slides on the first view");
    draw(2, [{ key: "domino:7", sig: "current-1", x: 100 }, { key: "still", sig: "", x: 5 }]);
    assert.deepEqual(calls.map((c) => c[0]), ["domino:7"]);
    const [, frames, opts] = calls[0];
    assert.equal(frames[0].transform, "translate(200px, 0px)");
    assert.equal(frames[1].transform, "none");
    assert.ok(opts.duration > 0 && opts.duration <= 400);
    assert.deepEqual(marked(), ["domino:7"]);
    const matchMedia = window.matchMedia;
    window.matchMedia = (q) => ({ matches: q.includes("reduce"), media: q });
    try {
      draw(3, [{ key: "domino:7", sig: "placed", x: 600 }, { key: "still", sig: "", x: 5 }]);
    } finally { window.matchMedia = matchMedia; }
    assert.equal(calls.length, 1, "reduced motion: no slide");
    assert.deepEqual(marked(), ["domino:7"], "but still the mark");
    host.destroy();
  });
});

test("a new element naming data-from slides from that key's old place, a piece as one", async () => {
  await withLayout(async (calls) => {
    const { draw, marked, host } = await hostOn();
    draw(1, [{ key: "domino:23", sig: "current-0-1", x: 500, y: 40 }, { key: "cell:0:0,0", sig: "castle", x: 80, y: 20 }]);
    draw(2, [
      { key: "domino:23", sig: "current-0-", x: 500, y: 40 },
      { key: "cell:0:0,0", sig: "castle", x: 80, y: 20, from: "domino:23" }, // had a place: stays
      { key: "cell:0:1,0", sig: "wheat0", x: 100, y: 20, from: "domino:23" }, // the placed domino's
      { key: "cell:0:1,1", sig: "lake1", x: 100, y: 30, from: "domino:23" }, // two squares
      { key: "cell:0:4,4", sig: "mine2", x: 140, y: 60, from: "domino:99" }, // from a key not there before
    ]);
    assert.deepEqual(calls.map((c) => [c[0], c[1][0].transform]), [
      ["cell:0:1,0", "translate(400px, 20px)"],
      ["cell:0:1,1", "translate(400px, 20px)"],
    ], "both squares take the offset of their common corner to the domino's old place");
    assert.deepEqual(marked(), ["cell:0:1,0", "cell:0:1,1", "cell:0:4,4", "domino:23"]);
    const matchMedia = window.matchMedia;
    window.matchMedia = (q) => ({ matches: q.includes("reduce"), media: q });
    try {
      draw(3, [{ key: "domino:24", sig: "current-1-0", x: 500, y: 90 }]);
      draw(4, [{ key: "cell:0:2,0", sig: "forest0", x: 120, y: 20, from: "domino:24" }]);
    } finally { window.matchMedia = matchMedia; }
    assert.equal(calls.length, 2, "reduced motion: nothing moves");
    assert.deepEqual(marked(), ["cell:0:2,0"], "but the mark is shown");
    host.destroy();
  });
});

test("a renderer without data-key gets no marks", async () => {
  const root = document.createElement("div");
  const host = createHost(root, { game: "plain", url: "/static/games/plain/r.js", t,
    importer: async () => ({ default: { render(r, ctx) { r.innerHTML = `<p>${ctx.view.ply}</p>`; } } }) });
  await host.ready;
  host.draw({ view: { ply: 1 }, legal: [], you: 0, names: [], lang: "en", act: () => true, pending: null });
  host.draw({ view: { ply: 2 }, legal: [], you: 0, names: [], lang: "en", act: () => true, pending: null });
  assert.equal(root.querySelectorAll(".just-changed").length, 0);
});

// The Kingdomino family's renderers annotate their pieces: keys unique in the game area, and a
// placed domino's squares keyed so that the next view marks them.
for (const file of goldens.filter((f) => /^(kingdomino|queendomino)-/.test(f))) {
  const name = file.slice(0, -5);
  test(`${name}: keyed pieces (data-key unique, data-sig present)`, async () => {
    const { root, renderer, golden: g } = await drawGolden(name);
    const keys = [...root.querySelectorAll("[data-key]")].map((el) => el.getAttribute("data-key"));
    assert.equal(new Set(keys).size, keys.length, "keys are unique");
    assert.ok(keys.includes("cell:0:0,0") || keys.some((k) => /^cell:0:/.test(k)), "the kingdoms' squares are keyed");
    assert.ok(keys.filter((k) => k.startsWith("domino:")).length >= g.view.current_line.length + g.view.next_line.length);
    for (const kingdom of g.view.kingdoms) {
      const i = g.view.kingdoms.indexOf(kingdom);
      for (const q of kingdom.squares) {
        const el = root.querySelector(`[data-key="cell:${i}:${q.x},${q.y}"]`);
        assert.ok(el, `square ${q.x},${q.y} of kingdom ${i}`);
        assert.equal(el.getAttribute("data-sig"), `${q.terrain}${q.crowns}`);
        // the squares of the kingdom's newest domino come from that domino in its line
        const newest = kingdom.placements.at(-1).domino;
        assert.equal(el.getAttribute("data-from"), q.domino === newest ? `domino:${newest}` : null);
      }
    }
    assert.equal(root.querySelectorAll("[data-from]").length,
      g.view.kingdoms.filter((k) => k.placements.length).length * 2, "two squares per kingdom come from a line");
    renderer.destroy?.(root);
  });
}

test("Kingdomino: a discard, which changes nothing else on the table, marks its tile in the list", async () => {
  const { golden: g, renderer } = await drawGolden("kingdomino-3p-discard");
  const root = document.createElement("div");
  document.body.replaceChildren(root);
  const host = createHost(root, { game: "kingdomino", url: "/k.js", t, importer: async () => ({ default: renderer }) });
  await host.ready;
  const frame = (seq, view) => ({ view, legal: seq === 1 ? g.legal : [], you: g.you, names: g.names, lang: g.lang,
    act: () => true, pending: null, seq });
  host.draw(frame(1, g.view));
  const acting = g.view.current_line[g.view.acting].number;
  host.draw(frame(2, { ...g.view, discarded: [...g.view.discarded, acting], ply: g.view.ply + 1 }));
  const marked = [...root.querySelectorAll(".just-changed")].map((el) => el.dataset.key);
  assert.ok(marked.includes(`tile:${acting}`), JSON.stringify(marked));
  assert.equal(root.querySelector(`[data-key="tile:${acting}"]`).dataset.state, "discarded");
  host.destroy();
});
