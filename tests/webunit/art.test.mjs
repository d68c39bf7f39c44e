// The Kingdomino family's art (domino_draw.js): one sprite per page whatever the number of
// boards and redraws; every terrain a pattern of its own (texture shapes differ, not only the
// colour); a square is one rect filled with its terrain's pattern and shows one crown icon per
// crown, its accessible name saying the number; the legend lists the terrains; kings are crowned
// pawns in their seat's colour with the seat number, not plain discs.
import assert from "node:assert/strict";
import test from "node:test";

import { TERRAINS } from "/static/games/kingdomino/domino_draw.js";
import { SEAT_COLORS } from "/static/games/kingdomino/domino_draw.js";
import { draw } from "./render.mjs";

test("one sprite per page, with a distinct textured pattern per terrain", async () => {
  const { root, renderer, ctx } = await draw("kingdomino-2p-place");
  renderer.render(root, ctx);
  renderer.render(root, ctx);
  assert.equal(document.querySelectorAll("#kd-sprite").length, 1);
  const shapes = TERRAINS.map((ter) => {
    const pattern = document.getElementById(`kd-ter-${ter}`);
    assert.ok(pattern, ter);
    const marks = [...pattern.children].slice(1); // after the background
    assert.ok(marks.length >= 2, `${ter} has a texture`);
    return marks.map((m) => m.outerHTML.replace(/class="[^"]*"/g, "")).join("");
  });
  assert.equal(new Set(shapes).size, TERRAINS.length, "every texture differs in shape");
  for (const name of ["crown", "castle", "king", "knight", "tower", "queen", "dragon", "building", "coin"]) {
    assert.ok(document.getElementById(`kd-sym-${name}`), name);
  }
  renderer.destroy?.(root);
});

test("squares use their terrain's pattern and show their crowns", async () => {
  const { root, renderer, golden: g } = await draw("kingdomino-3p-discard"); // in Spanish
  const kingdom = g.view.kingdoms[g.you];
  assert.ok(kingdom.squares.some((q) => q.crowns), "the position has crowns to show");
  const board = root.querySelector('[data-testid="my-kingdom"]');
  for (const q of kingdom.squares) {
    const cell = board.querySelector(`[data-testid="cell-${q.x}-${q.y}"]`);
    assert.equal(cell.querySelector("rect").getAttribute("fill"), `url(#kd-ter-${q.terrain})`);
    assert.equal(cell.querySelectorAll('use[href="#kd-sym-crown"]').length, q.crowns);
    const name = cell.querySelector("title")?.textContent ?? cell.getAttribute("aria-label") ?? "";
    if (q.crowns) assert.ok(name.includes(String(q.crowns)), name);
  }
  const legend = [...root.querySelectorAll('[data-testid="legend-list"] [data-terrain]')].map((li) => li.textContent);
  assert.deepEqual(legend, ["trigo", "bosque", "lago", "pradera", "pantano", "mina"]);
  renderer.destroy?.(root);
});

for (const name of ["kingdomino-2p-place", "queendomino-2p-place"]) {
  test(`${name}: kings are crowned pawns in the seat's colour, with the seat number and a name`, async () => {
    const { root, renderer, golden: g } = await draw(name);
    const lines = [...g.view.current_line, ...g.view.next_line].filter((d) => d.king != null);
    assert.ok(lines.length > 0, "the position has kings on the lines");
    for (const d of lines) {
      const king = root.querySelector(`[data-key="domino:${d.id ?? d.number}"] .kd-king`);
      assert.ok(king, `the king on domino ${d.number}`);
      assert.equal(king.querySelector("circle"), null, "not a plain disc");
      const pawn = king.querySelector('use[href="#kd-sym-king"]');
      assert.equal(pawn.getAttribute("fill"), SEAT_COLORS[d.king]);
      assert.equal(king.querySelector("title").textContent, `king of ${g.names[d.king]} (seat ${d.king + 1})`);
      // the seat number, drawn on the pawn (a claimable domino's letters are lifted above it)
      const texts = [...root.querySelectorAll('[data-testid^="line-"] text')].map((e) => e.textContent);
      assert.ok(texts.includes(String(d.king + 1)));
    }
    for (let seat = 0; seat < g.names.length; seat++) {
      const head = root.querySelector(`[data-testid="kingdom-${g.view.sides ? g.view.sides[seat] : seat}"] .kd-khead .kd-king`);
      assert.equal(head.querySelector(".kd-king-n").textContent, String(seat + 1), "the kingdom's heading shows its king");
    }
    assert.ok(root.querySelector('[data-testid="legend-list"] [data-piece="king"]'), "the legend names the king");
    renderer.destroy?.(root);
  });
}
