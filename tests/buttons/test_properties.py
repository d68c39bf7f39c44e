"""Engine invariants for Buttons: hidden simultaneous answers, replay, termination, bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.errors import IllegalAction, MalformedAction, OptionError
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.buttons import actions as actions_module
from ludoteca.games.buttons.actions import NUM_ACTIONS, ROLL
from ludoteca.games.buttons.rules import GAME
from ludoteca.games.buttons.state import PLACE, STARS

SLOW = settings(
    max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def play_until(state, rng: Rng, phase: int, min_deciders: int = 2, limit: int = 5000) -> bool:
    """Random play until a simultaneous step with at least ``min_deciders`` seats to answer."""
    for _ in range(limit):
        seats = GAME.to_act(state)
        if not seats:
            return False
        if state.phase == phase and len(seats) >= min_deciders:
            return True
        seat = sorted(seats)[rng.below(len(seats))]
        acts = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, acts[rng.below(len(acts))])
    return False


def without_ply(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "ply"}


@SLOW
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), phase=st.sampled_from([PLACE, STARS]))
def test_waiting_seat_view_hides_other_answers(seed: int, players: int, phase: int) -> None:
    """rules/buttons.md §3.2 item 3 and §4 (simultaneous): while seat A has not answered, no
    answer of seat B changes A's view (except the public sequence number) or A's legal actions."""
    state = GAME.setup(None, players, seed)
    rng = Rng(seed)
    if not play_until(state, rng, phase):
        return
    seats = sorted(GAME.to_act(state))
    for a in seats:
        base_view = without_ply(GAME.view(state, a))
        base_spectator = without_ply(GAME.view(state, None))
        base_legal = [x.index for x in GAME.legal_actions(state, a)]
        for b in seats:
            if b == a:
                continue
            for answer in GAME.legal_actions(state, b):
                after = state.clone()
                GAME.apply(after, b, answer)
                assert a in GAME.to_act(after)
                assert without_ply(GAME.view(after, a)) == base_view
                assert without_ply(GAME.view(after, None)) == base_spectator
                assert [x.index for x in GAME.legal_actions(after, a)] == base_legal
                # and B's own view does show B's answer
                mine = GAME.view(after, b)["you"]
                assert mine["pending"] is not None or mine["picks"] or answer.index == 2


@SLOW
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_determinize_from_a_view(seed: int, players: int) -> None:
    """rules/buttons.md §3.2 (hidden answers): a state rebuilt from a seat's view has that view
    and those legal actions, and carries none of the others' pending answers."""
    state = GAME.setup(None, players, seed)
    rng = Rng(seed)
    for _ in range(200):
        seats = sorted(GAME.to_act(state))
        if not seats:
            break
        for who in range(players):
            v = json.loads(json.dumps(GAME.view(state, who)))
            rebuilt = GAME.determinize(v, who, Rng(seed + who))
            assert GAME.view(rebuilt, who) == v
            assert [x.index for x in GAME.legal_actions(rebuilt, who)] == [
                x.index for x in GAME.legal_actions(state, who)
            ]
            assert all(p == -1 for i, p in enumerate(rebuilt.pending) if i != who)
        seat = seats[rng.below(len(seats))]
        acts = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, acts[rng.below(len(acts))])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_reproduces_and_games_terminate(players: int) -> None:
    """rules/buttons.md §6 (game end) and the match contract: random games end with an outcome
    and their record replays to the identical state."""
    for seed in range(15):
        opts = {"winner": "stars", "layouts": "alternate"} if seed % 2 else {}
        match = Match.new(GAME, opts, players, seed, narrate=False)
        rng = Rng(seed * 7 + 1)
        steps = 0
        while not GAME.is_over(match.state):
            seats = sorted(GAME.to_act(match.state))
            seat = seats[rng.below(len(seats))]
            acts = GAME.legal_actions(match.state, seat)
            match.step(seat, acts[rng.below(len(acts))])
            steps += 1
            assert steps < GAME.spec.max_length
        record = MatchRecord.from_json(json.loads(json.dumps(match.record.to_json())))
        final = replay(GAME, record)
        assert final == match.state
        assert GAME.outcome(final) == GAME.outcome(match.state)
        json.dumps(GAME.outcome(final).to_json())  # type: ignore[union-attr]


def reveals(s: Any, seat: int, action: Any) -> bool:
    """``Game.reveals`` of ``action`` from ``s``, applied to a copy (``s`` is left as it is)."""
    after = GAME.clone(s)
    GAME.apply(after, seat, action)
    return GAME.reveals(s, seat, action, after)


def test_reveals_marks_rolls_and_last_answers() -> None:
    """rules/buttons.md §3.2: a roll reveals dice; only the last answer reveals the others'."""
    s = GAME.setup(None, 4, 3)
    assert reveals(s, s.active, ROLL)
    rng = Rng(2)
    assert play_until(s, rng, PLACE, 2)
    seats = sorted(GAME.to_act(s))
    first = seats[0]
    assert not reveals(s, first, GAME.legal_actions(s, first)[0])
    for x in seats[:-1]:
        GAME.apply(s, x, GAME.legal_actions(s, x)[0])
    last = seats[-1]
    assert reveals(s, last, GAME.legal_actions(s, last)[0])


def test_actions_round_trip_and_malformed_input() -> None:
    """rules/buttons.md §3 (actions): every index and JSON form round-trips; bad input raises
    MalformedAction."""
    for i in range(NUM_ACTIONS):
        a = GAME.action_from_index(i)
        assert a.index == i
        assert GAME.action_from_json(json.loads(json.dumps(a.to_json()))) == a
        assert eval(repr(a), vars(actions_module)) == a
    bad = [
        None, [], "roll", {"type": "jump"}, {"type": "place"},
        {"type": "place", "row": 0, "col": 1},
        {"type": "star", "row": 3, "col": 7}, {"type": "place", "row": "3", "col": 1},
        {"type": "place", "row": True, "col": 1},
    ]
    for data in bad:
        with pytest.raises(MalformedAction):
            GAME.action_from_json(data)
    for index in (-1, NUM_ACTIONS, True, "0"):
        with pytest.raises(MalformedAction):
            GAME.action_from_index(index)  # type: ignore[arg-type]


def test_bad_options_and_player_counts() -> None:
    """rules/buttons.md §2 (setup): 2-4 players; unknown options and values are refused."""
    for players in (1, 5):
        with pytest.raises(OptionError, match="2-4 players"):
            GAME.setup(None, players, 0)
    with pytest.raises(OptionError, match="unknown option"):
        GAME.setup({"colour": "red"}, 2, 0)
    with pytest.raises(OptionError, match="winner"):
        GAME.setup({"winner": "most"}, 2, 0)
    assert get_game("buttons") is GAME
    assert {o.name for o in GAME.spec.options} == {"winner", "boards", "layouts"}
    with pytest.raises(OptionError, match="layouts"):
        GAME.setup({"layouts": "nowhere"}, 2, 0)


def test_apply_after_game_over_and_wrong_seat() -> None:
    """rules/buttons.md §6: nothing applies once the game is over."""
    s = GAME.setup(None, 2, 1)
    rng = Rng(5)
    while GAME.to_act(s):
        seat = min(GAME.to_act(s))
        acts = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, acts[rng.below(len(acts))])
    before = s.clone()
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(s, 0, ROLL)
    assert s == before
    assert GAME.legal_actions(s, 0) == []


@SLOW
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_determinizer_equals_determinize(seed: int, players: int) -> None:
    """rules/buttons.md §3.2 (hidden answers, dice to come): the prepared sampler gives, for
    every generator state, exactly the state ``determinize`` rebuilds, and draws the same
    numbers from the generator, call after call."""
    state = GAME.setup({"layouts": "alternate"} if seed % 2 else None, players, seed)
    rng = Rng(seed)
    for ply in range(400):
        seats = sorted(GAME.to_act(state))
        if not seats:
            break
        if ply % 7 == 0:
            for who in (*range(players), None):
                v = json.loads(json.dumps(GAME.view(state, who)))
                sample = GAME.determinizer(v, who)
                slow, fast = Rng(seed + ply), Rng(seed + ply)
                for _ in range(3):
                    assert sample(fast) == GAME.determinize(v, who, slow)
                    assert fast.state == slow.state
        seat = seats[rng.below(len(seats))]
        acts = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, acts[rng.below(len(acts))])


def test_determinizer_samples_are_independent_states() -> None:
    """Each sample is a state of its own: playing one never changes the next."""
    state = GAME.setup(None, 3, 4)
    sample = GAME.determinizer(GAME.view(state, 0), 0)
    rng = Rng(1)
    one = sample(rng)
    GAME.apply(one, one.active, ROLL)
    two = sample(Rng(1))
    assert two.phase != one.phase and two.markers == state.markers and two.dice == ()
