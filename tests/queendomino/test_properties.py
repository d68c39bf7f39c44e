"""Engine invariants on random Queendomino games (Hypothesis): replay, termination, views."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import OVER

game = GAME


@st.composite
def setups(draw: st.DrawFn) -> tuple[int, dict[str, object], int]:
    players = draw(st.integers(2, 6))
    options: dict[str, object] = {"tax_bonus": draw(st.sampled_from(["per_knight", "per_turn"]))}
    if players >= 3:
        options["royal_wedding"] = draw(st.booleans()) or players > 4
    return players, options, draw(st.integers(0, 2**40))


def random_match(players: int, options: dict[str, object], seed: int) -> Match:
    match = Match.new(game, options, players, seed, narrate=False)
    rng = Rng(seed)
    steps = 0
    while not game.is_over(match.state):
        (seat,) = game.to_act(match.state)
        legal = game.legal_actions(match.state, seat)
        match.step(seat, legal[rng.below(len(legal))])
        steps += 1
        assert steps <= game.spec.max_length
    return match


@settings(max_examples=20, deadline=None)
@given(setup=setups())
def test_replay_reproduces_the_match(setup) -> None:
    """DESIGN.md §2: (options, players, seed) plus the action log reproduces the final state and
    the outcome exactly; every game ends within spec.max_length with an outcome."""
    match = random_match(*setup)
    record = MatchRecord.from_json(json.loads(json.dumps(match.record.to_json())))
    final = replay(game, record)
    assert final == match.state and final.phase == OVER
    assert game.outcome(final) == match.outcome
    out = match.outcome
    assert out is not None and min(out.ranks) == 1
    for b, score in zip(out.breakdown, out.scores, strict=True):
        assert b["total"] == score == (b["wealth"]["points"] + b["territory_points"]
                                       + b["building_points"])


@settings(max_examples=20, deadline=None)
@given(setup=setups(), data=st.data())
def test_views_hide_both_piles(setup, data) -> None:
    """rules/queendomino.md Setup (shuffled piles) and DESIGN.md §2: no view holds the order of
    the undrawn dominoes or of the building pile: states differing only there look the same;
    views are JSON and determinize(view) rebuilds a state with the same view and legal moves."""
    players, options, seed = setup
    s = game.setup(options, players, seed)
    rng = Rng(seed ^ 1)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        if data.draw(st.integers(0, 9)) == 0:
            other = s.clone()
            other.deck = s.deck[: s.deck_pos] + s.deck[s.deck_pos :][::-1]
            other.pile = s.pile[: s.pile_pos] + s.pile[s.pile_pos :][::-1]
            other.rng = Rng(12345)
            for who in (None, *range(players)):
                v = game.view(s, who)
                assert game.view(other, who) == v
                text = json.dumps(v)
                assert "rng" not in text and "pile_order" not in text
            v = json.loads(json.dumps(game.view(s, seat)))
            rebuilt = game.determinize(v, seat, rng)
            assert game.view(rebuilt, seat) == v
            assert game.legal_actions(rebuilt, seat) == game.legal_actions(s, seat)
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, data.draw(st.sampled_from(legal)))


@settings(max_examples=15, deadline=None)
@given(setup=setups(), data=st.data())
def test_checked_and_trusted_paths_agree(setup, data) -> None:
    """Engine contract: every legal action passes the full checks, apply and apply_legal give
    equal states, and clones are independent of the original."""
    players, options, seed = setup
    s = game.setup(options, players, seed)
    while not game.is_over(s):
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        assert legal and len({a.index for a in legal}) == len(legal)
        action = data.draw(st.sampled_from(legal))
        fast = s.clone()
        before = s.clone()
        game.apply_legal(fast, seat, action)
        assert s == before
        game.apply(s, seat, action)
        assert s == fast


def test_rounds_and_lengths() -> None:
    """rules/queendomino.md Setup: the game lasts 12 rounds (24 with Royal Wedding at 3-4)."""
    for players, options, rounds in [(2, {}, 12), (3, {}, 12), (4, {}, 12),
                                     (4, {"royal_wedding": True}, 24), (6, {}, 12)]:
        match = random_match(players, options, 5)
        assert match.state.round == rounds
        assert len(match.record.actions) <= game.spec.max_length


@settings(max_examples=12, deadline=None)
@given(setup=setups(), data=st.data())
def test_determinizer_equals_determinize(setup, data) -> None:
    """Engine contract (docs/engine.md, determinizer): for every rng state,
    ``determinizer(view, seat)(rng)`` is ``determinize(view, seat, rng)`` and leaves the rng in
    the same state, call after call on one prepared view, for every seat and the spectator."""
    players, options, seed = setup
    s = game.setup(options, players, seed)
    rng = Rng(seed)
    while not game.is_over(s):
        if data.draw(st.integers(0, 20)) == 0:
            seat = data.draw(st.sampled_from([None, *range(players)]))
            view = json.loads(json.dumps(game.view(s, seat)))
            sample = game.determinizer(view, seat)
            r1, r2 = Rng(seed), Rng(seed)
            for _ in range(3):
                fast, slow = sample(r1), game.determinize(view, seat, r2)
                assert fast == slow and r1.state == r2.state
                assert game.view(fast, seat) == view
                (who,) = game.to_act(fast)
                game.apply_legal(fast, who, game.legal_actions(fast, who)[-1])
        (seat,) = game.to_act(s)
        legal = game.legal_actions(s, seat)
        game.apply(s, seat, legal[rng.below(len(legal))])
