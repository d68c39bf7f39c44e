"""The end-of-deal recap (view ``last_round``): the table as the deal ended, who went out, the
points and the totals. A card played face down stays hidden after the deal as during it (A4),
but to the seat that played it and for a Master Strike's block (A5.3); the rest of the recap is
the same for every seat and a spectator, and never shows a card still in a hand."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.engine.rng import Rng
from ludoteca.games.kami.components import NAMES
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME
from ludoteca.games.kami.state import FACE_DOWN, TYPE_MASK

KEYS = {"round", "seat", "side", "kind", "card", "master_strike", "points", "before", "after",
        "rule", "scores", "target", "defense", "attack_lines", "hand_sizes", "earlier"}


def views(game: Any, s: Any) -> list[Any]:
    return [json.loads(json.dumps(game.view(s, seat)))
            for seat in [None, *range(s.cfg.players)]]


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4), (GOITA, 4)])
def test_the_recap_is_the_ended_deal_and_hides_what_was_played_face_down(
        game: Any, players: int) -> None:
    ended = 0
    for seed in range(6):
        rng = Rng(seed)
        s = game.setup({}, players, seed=seed)
        assert all(v["last_round"] is None for v in views(game, s))
        while game.to_act(s):
            seat = next(iter(game.to_act(s)))
            acts = game.legal_actions(s, seat)
            before = s.clone()
            game.apply(s, seat, acts[rng.below(len(acts))])
            if len(s.history) == len(before.history) or s.history[-1][2] != "out":
                continue
            ended += 1
            seen = views(game, s)
            recap = seen[0]["last_round"]  # the spectator's
            for k, v in enumerate(seen[1:]):  # a seat's differs only by its own hidden cards
                mine = v["last_round"]
                assert {**mine, "defense": None} == {**recap, "defense": None}
                for p, (a, b) in enumerate(zip(mine["defense"], recap["defense"], strict=True)):
                    assert a == b or p == k
            assert set(recap) == KEYS
            assert recap["round"] == before.round and recap["seat"] == seat
            assert recap["kind"] == "out" and recap["earlier"] == []
            assert recap["card"] == recap["attack_lines"][seat][-1]["card"]
            side = s.cfg.side_of[seat]
            assert recap["scores"] == s.scores and recap["after"] == s.scores[side]
            assert recap["points"] == s.scores[side] - before.scores[side] or \
                s.cfg.end_mode != "soldier"
            assert recap["hand_sizes"][seat] == 0
            for p in range(players):
                cards = [NAMES[e & TYPE_MASK] for e in before.defense[p]]
                downs = [bool(e & FACE_DOWN) for e in before.defense[p]]
                line = recap["defense"][p]
                own = seen[1 + p]["last_round"]["defense"][p]
                strike = recap["master_strike"] and p == seat
                for k, (card, down) in enumerate(zip(cards, downs, strict=False)):
                    assert line[k]["face_down"] == down and own[k]["card"] == card
                    hidden = down and not line[k]["mercenary"] and not (
                        strike and k == len(line) - 1)
                    assert line[k]["card"] == (None if hidden else card)
                assert [e["card"] for e in recap["attack_lines"][p]][:len(before.attacks[p])] == [
                    NAMES[e & TYPE_MASK] for e in before.attacks[p]]
                if p != seat:
                    assert recap["hand_sizes"][p] == before.sizes[p]
            # the next deal's views keep it until another deal ends; the bots' rebuilt states too
            d = game.determinize(seen[1], 0, Rng(seed))
            assert game.view(d, 0)["last_round"] == seen[1]["last_round"]
    assert ended >= 6


def test_a_deal_gone_out_then_a_b5_hand_at_once_are_both_told_with_their_own_totals() -> None:
    """Goita: a player goes out and the next deal ends at the deal (B5: six or more Shi), in
    one action. The recap tells both, oldest first, each with the totals right after it, and
    the table of the deal played (the B5 hand has none); the next deal's bots keep it. Seed 12
    played at random does this at its 55th action; without ``earlier`` the deal gone out was
    never told, and the B5 hand came with the new deal's empty lines as its table."""
    chained = 0
    for seed in range(13):
        rng = Rng(seed)
        s = GOITA.setup({}, 4, seed=seed)
        while GOITA.to_act(s):
            seat = next(iter(GOITA.to_act(s)))
            acts = GOITA.legal_actions(s, seat)
            before = s.clone()
            GOITA.apply(s, seat, acts[rng.below(len(acts))])
            new = s.history[len(before.history):]
            if len(new) < 2 or new[0][2] != "out":
                continue
            chained += 1
            seen = views(GOITA, s)
            recap = seen[0]["last_round"]
            told = [*recap["earlier"], recap]
            scored = [e for e in new if e[2] != "redeal"]
            assert [(e["round"], e["kind"], e["points"]) for e in told] == [
                (e[0], e[2], e[5]) for e in scored]
            totals = list(before.scores)
            for e, entry in zip(scored, told, strict=True):
                totals[s.cfg.side_of[e[1]]] = e[7]
                assert entry["scores"] == totals
            assert totals == s.scores
            went_out = told[0]
            assert went_out["hand_sizes"][seat] == 0 and went_out["seat"] == seat
            assert went_out["attack_lines"][seat][-1]["card"] == went_out["card"]
            assert [len(line) for p, line in enumerate(went_out["attack_lines"]) if p != seat] == [
                len(line) for p, line in enumerate(before.attacks) if p != seat]
            assert all(e["defense"] == e["attack_lines"] == e["hand_sizes"] == []
                       for e in told[1:])
            for k in range(4):  # each seat's rebuilt state tells the same recap
                d = GOITA.determinize(seen[1 + k], k, Rng(seed))
                assert GOITA.view(d, k)["last_round"] == seen[1 + k]["last_round"]
    assert chained >= 1
