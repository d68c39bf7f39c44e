// Buttons, Kami and Goita boards (issue 24): the Kami recap says what the view's last_round says
// and goes away as it should; every keyed element (last-move marks) has a unique key; legends
// name every colour or card in the viewer's language; a hand is "yours" only when it is.
import assert from "node:assert/strict";
import test from "node:test";

import { translator } from "/static/i18n.js";
import { recapDue, recapId } from "/static/games/kami/kami_recap.js";
import { click, draw, golden, rendererOf } from "./render.mjs";

const qa = (root, sel) => [...root.querySelectorAll(sel)];

test("Kami recap: the deal's points, every side's total and each seat's table, as the view says", async () => {
  const { root, renderer, golden: g } = await draw("kami-2p-recap");
  const last = g.view.last_round;
  const panel = root.querySelector('[data-testid="kami-recap"]');
  assert.ok(panel, "the recap is shown over the new deal");
  assert.deepEqual(qa(root, '[data-testid^="kami-recap-total-"]').map((e) => Number(e.dataset.points)), last.scores);
  assert.ok(root.querySelector('[data-testid="kami-recap-what"]').textContent.includes(`+${last.points}`));
  for (let s = 0; s < g.view.players; s++) {
    const row = root.querySelector(`[data-testid="kami-recap-seat-${s}"]`);
    const cards = qa(row, ".kc-card").length;
    assert.equal(cards, last.defense[s].length + last.attack_lines[s].length);
  }
  // a card played face down is named now, and said to have been face down
  const down = last.defense.flat().filter((d) => d.face_down).length;
  assert.equal(qa(panel, ".kc-was-down").length, down);
  click(root.querySelector('[data-testid="kami-recap-close"]'));
  assert.equal(root.querySelector('[data-testid="kami-recap"]'), null, "closed");
  renderer.destroy(root);
});

test("Goita recap: a deal gone out and the next ended at once (6 Shi) are each told with their own totals", async () => {
  const { root, renderer, golden: g } = await draw("goita-4p-chain");
  const last = g.view.last_round;
  const ends = [...last.earlier, last];
  assert.equal(ends.length, 2, "the golden position is a deal gone out, then a B5 hand");
  assert.deepEqual(ends.map((e) => e.kind), ["out", "shi6"]);
  const parts = qa(root, '[data-testid="kami-recap"] [data-testid="kami-recap-end"]');
  assert.deepEqual(parts.map((p) => p.querySelector("h3").textContent), ends.map((e) => `Round ${e.round} is over`));
  parts.forEach((part, i) => {
    const e = ends[i];
    assert.ok(part.querySelector('[data-testid="kami-recap-what"]').textContent.endsWith(`+${e.points}`), "its own points");
    assert.deepEqual(qa(part, '[data-testid^="kami-recap-total-"]').map((li) => Number(li.dataset.points)), e.scores, "the totals right after it");
    // the table of the deal played; none for a hand that ended at the deal
    assert.equal(qa(part, '[data-testid^="kami-recap-seat-"]').length, e.defense.length ? g.view.players : 0);
  });
  assert.deepEqual(ends.at(-1).scores, g.view.scores);
  assert.notDeepEqual(ends[0].scores, ends[1].scores);
  assert.equal(qa(root, '[data-testid="kami-recap-close"]').length, 1, "one close for the whole recap");
  click(root.querySelector('[data-testid="kami-recap-close"]'));
  assert.equal(root.querySelector('[data-testid="kami-recap"]'), null, "closed");
  renderer.destroy(root);
});

test("Kami recap: due until the next deal is played, and for a player until their first decision", () => {
  const v = golden("kami-2p-recap").view;
  const fresh = { id: null, ply: null };
  assert.equal(recapDue({ ...v, last_round: null }, 0, fresh), false, "no deal has ended");
  assert.equal(recapDue(v, 0, fresh), true, "nothing of the new deal is played");
  const played = { ...v, ply: v.ply + 2, attack_lines: v.attack_lines.map((l, s) => (s === 1 ? ["spear"] : l)) };
  assert.equal(recapDue(played, null, fresh), false, "a spectator: gone once the deal is played");
  assert.equal(recapDue(played, 0, fresh), true, "a player who has not decided yet still sees it");
  assert.equal(recapDue(played, 0, { id: recapId(v), ply: v.ply + 2 }), true, "at that decision");
  assert.equal(recapDue({ ...played, ply: v.ply + 3 }, 0, { id: recapId(v), ply: v.ply + 2 }), false, "after it");
  assert.equal(recapDue({ ...played, phase: "over" }, 0, { id: recapId(v), ply: 0 }), true, "the game's last deal");
});

for (const name of ["buttons-2p-place", "buttons-2p-stars", "kami-2p-lead", "kami-2p-end", "goita-4p-counter"]) {
  test(`${name}: keyed elements (last-move marks) have unique keys and a sig`, async () => {
    const { root, renderer } = await draw(name);
    const keyed = qa(root, "[data-key]");
    assert.ok(keyed.length > 0);
    const keys = keyed.map((e) => e.getAttribute("data-key"));
    assert.equal(new Set(keys).size, keys.length, "unique");
    assert.ok(keyed.every((e) => e.hasAttribute("data-sig")));
    renderer.destroy?.(root);
  });
}

for (const [name, lang, words] of [
  ["buttons-2p-roll", "en", ["red", "yellow", "green", "blue", "a star"]],
  ["buttons-2p-roll", "es", ["rojo", "amarillo", "verde", "azul", "una estrella"]],
  ["kami-2p-lead", "en", ["Soldier, worth 1", "Empress, worth 5"]],
  ["kami-2p-lead", "es", ["Soldado, vale 1", "Emperatriz, vale 5"]],
]) {
  test(`${name}: the legend in ${lang}`, async () => {
    const g = golden(name);
    const renderer = await rendererOf(g.game);
    const root = document.createElement("div");
    document.body.replaceChildren(root);
    renderer.render(root, { ...g, t: translator(renderer.messages, lang), lang, act: () => true, notify: () => {}, pending: false });
    const legend = root.querySelector('[data-testid$="-legend"]').textContent;
    for (const w of words) assert.ok(legend.includes(w), `${w} in ${legend}`);
    renderer.destroy?.(root);
  });
}

for (const [name, other] of [["kami-2p-lead", "kami-seat-1"], ["buttons-2p-roll", "buttons-board-1"]]) {
  test(`${name}: another player's panel folds away and stays folded when the next view comes`, async () => {
    const { root, renderer, ctx } = await draw(name);
    const panel = () => root.querySelector(`[data-testid="${other}"]`);
    assert.equal(panel().tagName, "DETAILS");
    assert.equal(panel().open, true, "open at first");
    assert.equal(root.querySelector(`[data-testid="${name.startsWith("kami") ? "kami-seat-0" : "buttons-board-0"}"]`).tagName, "DIV", "one's own never folds");
    panel().open = false;
    panel().dispatchEvent(new window.Event("toggle"));
    renderer.render(root, { ...ctx, view: { ...ctx.view, ply: ctx.view.ply + 1 } });
    assert.equal(panel().open, false, "still folded");
    renderer.destroy?.(root);
  });
}

for (const name of ["kami-2p-lead", "goita-4p-counter"]) {
  test(`${name}: the hand is titled "Your hand" only for the viewer's own seat (the replay shows any)`, async () => {
    const { root, renderer, ctx: drawn, golden: g } = await draw(name);
    const ctx = { ...drawn, lang: "en", t: translator(renderer.messages, "en") };
    const seat = g.view.seat;
    const hand = () => root.querySelector('[data-testid="kami-hand"]');
    const title = () => [hand().querySelector("h3").textContent, hand().getAttribute("aria-label")];
    renderer.render(root, ctx);
    assert.deepEqual(title(), ["Your hand", "Your hand"], "the table page: the player's own");
    // the replay: `you` is null, the reader's own seat (`own`) is still known
    const replay = { ...ctx, you: null, legal: [] };
    renderer.render(root, { ...replay, own: seat });
    assert.deepEqual(title(), ["Your hand", "Your hand"]);
    const other = g.names[seat];
    renderer.render(root, { ...replay, own: (seat + 1) % g.view.players });
    assert.deepEqual(title(), [`Hand of ${other}`, `Hand of ${other}`], "another player's hand, after the end");
    renderer.render(root, { ...replay, own: null, lang: "es", t: translator(renderer.messages, "es") });
    assert.deepEqual(title(), [`Mano de ${other}`, `Mano de ${other}`], "a spectator's pick");
    renderer.destroy?.(root);
  });
}

test("goita-4p-counter: a face-down card says who alone sees it: you, or in a replay that seat", async () => {
  const { root, renderer, ctx: drawn, golden: g } = await draw("goita-4p-counter");
  const seat = g.view.seat;
  const down = () => root.querySelector(`[data-key="card:def:${seat}:0"] [aria-label]`)?.getAttribute("aria-label")
    ?? root.querySelector(`[data-key="card:def:${seat}:0"]`).textContent;
  const ctx = { ...drawn, lang: "en", t: translator(renderer.messages, "en") };
  renderer.render(root, ctx);
  assert.match(down(), /face down \(only you see it\)/);
  renderer.render(root, { ...ctx, you: null, legal: [], own: (seat + 1) % g.view.players });
  assert.match(down(), new RegExp(`face down \\(only ${g.names[seat]} sees it\\)`), "another seat's view in a replay");
  renderer.render(root, { ...ctx, you: null, legal: [], own: null, lang: "es", t: translator(renderer.messages, "es") });
  assert.match(down(), new RegExp(`boca abajo \\(solo ${g.names[seat]} la ve\\)`));
  renderer.destroy?.(root);
});
