// Unit tests of the browser's score modules (node --test): parts are shown as sent, never added up.
import assert from "node:assert/strict";
import test from "node:test";

import { partText, say } from "../../ludoteca/web/static/parts.js";

test("a part's server sentence wins over its English message", () => {
  assert.equal(partText({ id: "wealth", msg: "Wealth: {coins} coins", points: 2, args: { coins: 7 }, text: "Riqueza" }), "Riqueza");
});

test("without a sentence the English message is filled in, nested messages and players too", () => {
  const part = {
    id: "out", msg: "Deal {round}, {player}: {why}", points: 3,
    args: { round: 2, player: { seat: 1 }, why: { msg: "last attack: {card}", args: { card: { msg: "the Tower" } } } },
  };
  assert.equal(partText(part, ["Ana", "Luis"]), "Deal 2, Luis: last attack: the Tower");
  assert.equal(partText(part), "Deal 2, P2: last attack: the Tower");
});

test("a field without an argument stays as written", () => {
  assert.equal(say("{terrain}: {squares} squares", { squares: 3 }), "{terrain}: 3 squares");
});
