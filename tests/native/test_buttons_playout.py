"""Buttons' ``game.playout`` on the native core (buttons/native_playout.py) against the Python
one: seeded states mid-match of every player count and option, true and determinized (the
hidden answers of a simultaneous step included), played to the end of the match or of the round
(as the search's rollouts play) with the random, the line-minded and the game's policy on both
cores, must end in the same state (the round history too), the same outcome and the same
generator state; an analysis is byte-identical and a search bot chooses the same on both cores;
``State.load`` refuses impossible states with a ValueError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from native_core import require_native
from playout_diff import assert_same_ends, midway, normal, one_by_one, starts

from ludoteca.bots.search import SearchBot
from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, GREEDY, RANDOM, Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games import entry
from ludoteca.games.buttons import native_playout
from ludoteca.games.buttons.rules import GAME as BUTTONS
from ludoteca.games.buttons.state import OVER, PLACE, STARS, ButtonsState

core = require_native()

# (players, options, states): every player count and option.
CASES: list[tuple[int, dict[str, object], int]] = [
    (2, {}, 60),
    (3, {}, 40),
    (4, {}, 40),
    (2, {"winner": "stars"}, 25),
    (3, {"winner": "stars", "boards": "fixed"}, 20),
    (4, {"boards": "fixed"}, 20),
    (2, {"layouts": "alternate", "boards": "fixed"}, 20),
    (3, {"layouts": "alternate"}, 20),
]
IDS = [f"{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for p, o, _ in CASES]


def midmatch(players: int, options: dict[str, object], seed: int) -> ButtonsState:
    """A match played on by random moves for 0 to ~400 plies (some rounds ended)."""
    return midway(BUTTONS, players, options, seed, 400)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_native_playouts_end_as_the_python_ones(players: int, options: dict[str, object],
                                                count: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Same final state (every slot: the round history too), outcome and generator state, per
    policy, stop and seed; from the true state and a determinized world."""
    played_out = 0
    phases: set[int] = set()
    for seed in range(count):
        true = midmatch(players, options, 1000 * players + seed)
        phases.add(true.phase)
        for start in starts(BUTTONS, true, seed):
            for policy in (RANDOM, GAME, GREEDY):
                played_out += 1
                assert_same_ends(BUTTONS, start, policy, seed, monkeypatch)
            assert_same_ends(BUTTONS, start, GAME, seed, monkeypatch, Until.ROUND)
    assert played_out >= 3 * count
    assert phases & {PLACE, STARS}  # mid-step states, hidden answers pending, are among them


def test_whole_matches_from_the_deal_end_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole matches: every round's history entry (stopped, busted, colours, bonus) agrees."""
    statuses: set[int] = set()
    for seed in range(40):
        for players in (2, 3, 4):
            state = BUTTONS.setup({}, players, seed)
            assert_same_ends(BUTTONS, state, GAME, seed, monkeypatch)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            BUTTONS.playout(state, GAME, Rng(seed))
            assert state.phase == OVER and state.history
            statuses.update(e[0] for entry in state.history for e in entry)
    assert statuses == {1, 2}  # stopped and busted seats both recorded


def test_the_native_core_takes_real_and_determinized_states() -> None:
    """``native_playout.playout`` plays (rather than handing back to Python) the states the
    search and the analysis give it, and leaves a refused state and its generator untouched."""
    for players in (2, 3, 4):
        for seed in range(10):
            state = midmatch(players, {}, 77 + seed)
            if state.phase == OVER:
                continue
            seat = min(BUTTONS.to_act(state))
            world = BUTTONS.determinize(BUTTONS.view(state, seat), seat, Rng(1))
            for start in (state.clone(), world):
                assert native_playout.playout(start, 2, Rng(2))
                assert BUTTONS.outcome(start) is not None
    broken = midmatch(2, {}, 5)
    broken.free += 1  # dice in play that the seats out of the round set aside
    before = broken.clone()
    rng = Rng(9)
    assert not native_playout.playout(broken, 0, rng)
    assert rng.state == Rng(9).state
    assert broken.free == before.free and broken.markers == before.markers


def test_the_native_path_is_taken_only_where_it_plays_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Native: random, line-minded and the game's policy to the end of the match or the round,
    no trace, not over; Python otherwise, and always with ``LUDOTECA_CORE=python``."""
    state = midmatch(2, {}, 5)
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) == 0
    assert native_playout.native_policy(GREEDY, Until.END, None, state) == 1
    assert native_playout.native_policy(BUTTONS.playout_policy, Until.ROUND, None, state) == 2
    assert native_playout.native_policy(Policy.epsilon_greedy(8), Until.END, None, state) is None
    assert native_playout.native_policy(RANDOM, Until.END, [], state) is None
    over = state.clone()
    BUTTONS.playout(over, RANDOM, Rng(1))
    assert native_playout.native_policy(RANDOM, Until.END, None, over) is None
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) is None


def test_load_refuses_impossible_states() -> None:
    """Each broken field is a ValueError, never a crash or a state that plays."""
    load = core.buttons.State.load
    state: ButtonsState = midway(BUTTONS, 3, {}, 40, 60)
    assert state.phase != OVER and any(state.markers)
    good = dict(
        config=native_playout.config_of(state.cfg), rng=state.rng.state, ply=state.ply,
        round=state.round, phase=state.phase, active=state.active, deciders=state.deciders,
        waiting=state.waiting, in_round=state.in_round, free=state.free,
        removed_card=state.removed_card, options_mask=state.options_mask,
        dice=list(state.dice), layout_ids=list(state.layout_ids), cards=state.cards,
        status=state.status, earned=state.earned, last_placed=state.last_placed,
        pending=state.pending, markers=state.markers, stars=state.stars, picks=state.picks,
        stop_stars=[0, 0, 0], colour_stars=[0, 0, 0], bonus_stars=[0, 0, 0])
    load(**good)
    broken: list[dict[str, Any]] = [
        {**good, "phase": OVER},
        {**good, "round": 0},
        {**good, "ply": -1},
        {**good, "active": 3},
        {**good, "waiting": 8},
        {**good, "free": 5},
        {**good, "dice": [0, 1]},
        {**good, "dice": [1] * 7},
        {**good, "layout_ids": [0, 0, 1]},
        {**good, "layout_ids": [0, 1, 8]},
        {**good, "cards": [15, 0, 0]},
        {**good, "status": [3, 0, 0]},
        {**good, "pending": [36, -1, -1]},
        {**good, "markers": [1 << 36, 0, 0]},
        {**good, "stars": state.markers},  # a marker on a star
        {**good, "stop_stars": [-1, 0, 0]},
        {**good, "earned": state.earned[:2]},
    ]
    for args in broken:
        with pytest.raises(ValueError):
            load(**args)


def test_an_analysis_is_byte_identical_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same record, budget and seed: the same JSON on the Python and the native core (a
    whole 2-player match at a budget of 2: the Python core takes minutes at the default)."""
    from ludoteca.analysis.analyse import analyse

    match = Match.new(BUTTONS, {}, 2, 21, narrate=False)
    match.play_random(random.Random(21).random)
    texts = []
    for core_name in ("python", "native"):
        monkeypatch.setenv("LUDOTECA_CORE", core_name)
        texts.append(json.dumps(analyse(match.record, budget=2, seed=3), sort_keys=True))
    assert texts[0] == texts[1]


def test_a_search_bot_chooses_the_same_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed number of search iterations with the game's rollouts: the same choice from the
    same seed on either core, at every decision of a 2-player match's first plies."""
    state = BUTTONS.setup({}, 2, 8)
    profile = entry("buttons").search_profile()
    moves = Rng(8)
    for _ in range(12):
        seat = min(BUTTONS.to_act(state))
        view = BUTTONS.view(state, seat)
        chosen = []
        for core_name in ("python", "native"):
            monkeypatch.setenv("LUDOTECA_CORE", core_name)
            bot = SearchBot(seconds=None, iterations=20, seed=4, profile=profile)
            chosen.append(bot.choose(BUTTONS, view, seat))
        assert chosen[0] == chosen[1]
        actions = BUTTONS.legal_actions(state, seat)
        BUTTONS.apply_legal(state, seat, actions[moves.below(len(actions))])


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_playouts_after_are_the_one_by_one_playouts(players: int, options: dict[str, object],
                                                    count: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis's batch (``playouts_after``: every candidate of one drawn world in one
    native call) gives, action by action and with None (the policy's own move), the rank and
    score the Python core's clone, apply and playout give, for any seat to act (not only the
    lowest); the state and generator are left as they were."""
    compared = 0
    for seed in range(count // 4):
        true = midmatch(players, options, 7000 * players + seed)
        for start in starts(BUTTONS, true, seed):
            seats = sorted(BUTTONS.to_act(start))
            if not seats:
                continue
            seat = seats[-1]
            legal = BUTTONS.legal_actions(start, seat)
            actions: list[Any] = [None, *legal[:: max(1, len(legal) // 8)]]
            before, rng = start.clone(), Rng(seed)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            got = native_playout.playouts_after(BUTTONS, start, seat, actions, rng)
            assert got is not None
            assert start == before and rng.state == Rng(seed).state
            assert normal(got) == one_by_one(BUTTONS, start, seat, actions, seed, monkeypatch)
            compared += len(actions)
    assert compared >= count // 4


def test_playouts_after_stays_in_python_where_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    """None (the analysis then plays one by one) on the Python core, for a match over and for
    a state the native core refuses."""
    state: ButtonsState = midway(BUTTONS, 2, {}, 5, 60)
    seat = min(BUTTONS.to_act(state))
    actions = BUTTONS.legal_actions(state, seat)
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.playouts_after(BUTTONS, state, seat, actions, Rng(1)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.playouts_after(BUTTONS, state, seat, actions, Rng(1)) is not None
    over = state.clone()
    BUTTONS.playout(over, RANDOM, Rng(1))
    assert native_playout.playouts_after(BUTTONS, over, None, [None], Rng(1)) is None
    broken = state.clone()
    broken.free += 1
    assert native_playout.playouts_after(BUTTONS, broken, seat, actions, Rng(1)) is None
