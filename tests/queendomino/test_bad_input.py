"""Bad input from people (DESIGN.md §5): a clear error, and nothing changes."""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import (
    IllegalAction,
    MalformedAction,
    OptionError,
    RecordError,
    StaleAction,
)
from ludoteca.engine.match import Match
from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino import actions as act
from ludoteca.games.queendomino.actions import PASS, Build, Claim, Dragon, Knight, Place
from ludoteca.games.queendomino.rules import GAME


@pytest.mark.parametrize(
    ("options", "players", "words"),
    [
        ({"queen": True}, 4, "unknown option 'queen'"),
        ({"tax_bonus": "sometimes"}, 4, "must be one of"),
        ({"royal_wedding": "maybe"}, 4, "takes true or false"),
        ({"royal_wedding": True}, 2, "only for 3/4/5/6/7/8 players"),
        ({}, 1, "2-8 players"),
        ({}, 9, "2-8 players"),
        ({}, "4", "whole number"),
    ],
)
def test_bad_setup(options, players, words: str) -> None:
    """rules/queendomino.md Setup: player counts 2-4 (5-8 with Royal Wedding, §7.4-7.5); options
    checked. (Before issue 12 item 10, 7 players were refused here.)"""
    with pytest.raises(OptionError) as err:
        GAME.setup(options, players, 1)
    assert words in str(err.value)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([], "JSON object"),
        ({"type": "fly"}, "unknown action type"),
        ({"type": "knight", "x": 1}, "'y'"),
        ({"type": "knight", "x": 9, "y": 0}, "off the board"),
        ({"type": "build", "space": 6, "x": 0, "y": 1}, "space is 0-5"),
        ({"type": "build", "space": True, "x": 0, "y": 1}, "'space'"),
        ({"type": "dragon", "space": -1}, "space is 0-5"),
        ({"type": "claim", "domino": 97}, "no domino 97"),
        ({"type": "place", "x": 0, "y": 1, "dir": "up"}, "direction"),
        ({"type": "place", "x": 0, "y": 1}, "'dir'"),
    ],
)
def test_malformed_actions(data, words: str) -> None:
    """Malformed action JSON is MalformedAction, kept apart from IllegalAction."""
    with pytest.raises(MalformedAction) as err:
        GAME.action_from_json(data)
    assert words in str(err.value)


def test_action_json_and_index_round_trip() -> None:
    """Every action has one canonical JSON form and a stable index in 0-num_actions."""
    samples = [Place(1, 0, "E"), act.DISCARD, Claim(96), PASS, Knight(-6, 6), Dragon(5),
               Build(5, 6, 6), Build(0, -6, -6)]
    seen = set()
    for a in samples:
        assert GAME.action_from_json(a.to_json()) == a
        assert GAME.action_from_index(a.index) == a
        assert eval(repr(a), vars(act)) == a
        assert 0 <= a.index < GAME.spec.num_actions
        seen.add(a.index)
    assert len(seen) == len(samples)
    for bad in (-1, GAME.spec.num_actions, True, "3"):
        with pytest.raises(MalformedAction):
            GAME.action_from_index(bad)  # type: ignore[arg-type]
    with pytest.raises(MalformedAction, match="names no square"):
        GAME.action_from_index(act.KNIGHT_BASE + 13)  # the guard column


def test_out_of_turn_and_illegal_actions_change_nothing(q) -> None:
    """Engine contract: out-of-turn, illegal and foreign actions raise IllegalAction and leave the
    state untouched; a stale sequence number is refused."""
    s = q.started(4, seed=2)
    seat = q.seat_of(s)
    before = s.clone()
    other = (seat + 1) % 4
    for who, action, words in [
        (other, Place(1, 0, "E"), f"not P{other + 1}'s turn"),
        (seat, Claim(s.nxt[0]), "place domino"),
        (seat, Place(3, 0, "E"), "domino"),
        (seat, Knight(1, 0), "place domino"),
        (seat, "build", "not a Queendomino action"),
    ]:
        with pytest.raises(IllegalAction, match=words):
            GAME.apply(s, who, action)  # type: ignore[arg-type]
        assert s == before
    match = Match.new(GAME, {}, 4, 2, narrate=False)
    with pytest.raises(StaleAction):
        match.step(match.state.seat_acting(), GAME.legal_actions(s, seat)[0], seq=1)
    assert GAME.legal_actions(s, other) == []


def test_actions_after_the_end(q) -> None:
    """After the last round nothing may be played."""
    s = q.started(2, seed=2)
    while not GAME.is_over(s):
        q.end_turn(s)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(s, 0, PASS)
    assert GAME.legal_actions(s, 0) == [] and GAME.to_act(s) == frozenset()


def test_determinize_rejects_a_broken_view(q) -> None:
    """determinize needs a real view: a broken one is a RecordError, not a crash."""
    s = q.started(4, seed=2)
    v = GAME.view(s, 0)
    for broken in ({}, {**v, "kingdoms": "x"}, {**v, "deck_remaining": 3},
                   {**v, "building_pile": 99}):
        with pytest.raises(RecordError):
            GAME.determinize(broken, 0, Rng(1))
