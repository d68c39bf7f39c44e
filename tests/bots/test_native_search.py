"""Kingdomino's flat and tree searches whole on the native core (games/kingdomino/native_search.py,
native/cpp/kingdomino_search.hpp) against the Python loop of bots/search.py: with an iteration
budget the root statistics (iterations, each action's visits, total reward and availability,
and the order the actions were first tried) are equal to the last bit, at every player count and
option, with early stops on and off and with either reward shape, so a bot with a playout budget
chooses the same moves on both cores. Where the native search cannot run (the Python core, a
Dynasty) the loop runs; a budget in seconds or CPU seconds binds it."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest
from native_core import require_native

from ludoteca.bots.search import SearchBot, search
from ludoteca.engine.registry import RootBudget, SearchProfile
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino import native_search
from ludoteca.games.kingdomino.rules import GAME as KINGDOMINO
from ludoteca.games.kingdomino.search import PROFILE
from ludoteca.games.kingdomino.state import KingdominoState

require_native("kingdomino", "tree_search")


@pytest.fixture(autouse=True)
def _native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests compare the native search with the loop, so the native core is on even in
    the suite's pass on the Python core (``LUDOTECA_CORE=python``); a test that wants the
    loop alone says so itself."""
    monkeypatch.setenv("LUDOTECA_CORE", "native")

CASES: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"mighty_duel": True}),
    (2, {"first_draft": "abba"}),
    (3, {"three_player_draft": "bga"}),
    (4, {"harmony": True, "middle_kingdom": True}),
    (3, {"tiebreak": "bga"}),
]
IDS = [f"{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for p, o in CASES]


def decisions(players: int, options: dict[str, object], seed: int,
              count: int) -> list[tuple[KingdominoState, int]]:
    """``count`` decisions with a choice, spread over a match of random moves."""
    state = KINGDOMINO.setup(options, players, seed)
    moves = Rng(seed ^ 0xC0FFEE)
    found = []
    while seats := KINGDOMINO.to_act(state):
        seat = min(seats)
        actions = KINGDOMINO.legal_actions(state, seat)
        if len(actions) > 1 and moves.below(4) == 0:
            found.append((state.clone(), seat))
        KINGDOMINO.apply_legal(state, seat, actions[moves.below(len(actions))])
    step = max(1, len(found) // count)
    return found[::step][:count]


def searched(state: KingdominoState, seat: int, core: str, monkeypatch: pytest.MonkeyPatch,
             profile: SearchProfile = PROFILE, **options: Any) -> tuple[Any, ...]:
    monkeypatch.setenv("LUDOTECA_CORE", core)
    stats, root = search(KINGDOMINO, KINGDOMINO.view(state, seat), seat, profile=profile,
                         **options)
    children = [(a, c.visits, c.value, c.avail, c.seat) for a, c in root.children.items()]
    return stats.iterations, root.visits, stats.visits, stats.values, children


@pytest.mark.parametrize("mode", ["flat", "uct"])
@pytest.mark.parametrize(("players", "options"), CASES, ids=IDS)
def test_the_native_search_equals_the_python_loop(players: int, options: dict[str, object],
                                                  mode: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Flat, and the tree (``tree_search``: every node's draws and UCB choices as the loop's,
    so the root's statistics come out the same)."""
    for k, (state, seat) in enumerate(decisions(players, options, 40 + players, 6)):
        budget = {"iterations": 150 + 40 * k, "seed": 9 + k, "early_stop": k % 2 == 0,
                  "mode": mode}
        native = searched(state, seat, "native", monkeypatch, **budget)
        assert native == searched(state, seat, "python", monkeypatch, **budget), (k, state.ply)
        assert native[0] > 0 and sum(native[2].values()) == native[0] == native[1]


def test_the_reward_without_a_score_scale_is_the_loops_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No score scale: the points share is over the game's best score; no points share at all."""
    unscaled = dataclasses.replace(PROFILE, score_scale=None)
    for state, seat in decisions(2, {}, 7, 3):
        for weight in (None, 0.0):
            budget = {"iterations": 200, "seed": 1, "score_weight": weight}
            native = searched(state, seat, "native", monkeypatch, unscaled, **budget)
            assert native == searched(state, seat, "python", monkeypatch, unscaled, **budget)


@pytest.mark.parametrize("mode", ["flat", "uct"])
def test_a_bot_with_a_playout_budget_plays_the_same_match_on_both_cores(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree too: no tree is kept between the bot's own decisions on either core."""
    moves = {}
    for core in ("native", "python"):
        monkeypatch.setenv("LUDOTECA_CORE", core)
        bots = [SearchBot(seconds=None, iterations=60, seed=s, profile=PROFILE, mode=mode)
                for s in (1, 2)]
        state = KINGDOMINO.setup({}, 2, 5)
        played = []
        while seats := KINGDOMINO.to_act(state):
            (seat,) = seats
            action = bots[seat].choose(KINGDOMINO, KINGDOMINO.view(state, seat), seat)
            played.append(action.index)
            KINGDOMINO.apply_legal(state, seat, action)
        moves[core] = played, KINGDOMINO.outcome(state)
    assert moves["native"] == moves["python"]


def budget(**changes: Any) -> RootBudget:
    base = RootBudget(iterations=1 << 62, seconds=float("inf"), cpu_seconds=float("inf"),
                      elapsed=0.0, by_iterations=False, by_cpu=False, early_stop=False,
                      exploration=0.7, win_weight=0.6, score_weight=0.4, score_scale=100.0)
    return dataclasses.replace(base, **changes)


def test_the_native_search_stops_at_its_seconds_and_cpu_seconds() -> None:
    ((state, seat),) = decisions(2, {}, 3, 1)
    view = KINGDOMINO.view(state, seat)
    for limit in ({"seconds": 0.15}, {"cpu_seconds": 0.15}):
        start = time.perf_counter()
        found = native_search.whole_search(KINGDOMINO, view, seat, Rng(2), budget(**limit))
        took = time.perf_counter() - start
        assert found is not None
        done, children = found
        assert done > 100 and sum(c[1] for c in children) == done
        assert took < 0.15 + 0.1 or "cpu_seconds" in limit  # the CPU may be shared


def test_a_cpu_budget_alone_stops_early_on_its_cpu_clock(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU seconds alone (the same compute under any load): the native search spends at most
    them, and with early stops ends once the leader cannot be caught in the CPU time left."""
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    state, seat = decisions(2, {}, 1, 4)[0]  # the first claim: one of 4 stands out
    view = KINGDOMINO.view(state, seat)
    spent = {}
    for early_stop in (False, True):
        began = time.process_time()
        stats, _ = search(KINGDOMINO, view, seat, cpu_seconds=0.3, early_stop=early_stop,
                          profile=PROFILE, score_weight=0)
        spent[early_stop] = time.process_time() - began, stats.iterations
    assert 0.25 < spent[False][0] < 0.45 and spent[False][1] > 1000
    assert spent[True][0] < 0.9 * 0.3  # stopped before its budget


def test_it_leaves_the_search_to_the_loop_where_it_cannot_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ((state, seat),) = decisions(2, {}, 4, 1)
    view = KINGDOMINO.view(state, seat)
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert not native_search.available()
    assert native_search.whole_search(KINGDOMINO, view, seat, Rng(1), budget(iterations=5)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_search.available()
    dynasty = KINGDOMINO.setup({"dynasty": True}, 2, 4)
    (first,) = KINGDOMINO.to_act(dynasty)
    dynasty_view = KINGDOMINO.view(dynasty, first)
    rng = Rng(1)
    assert native_search.whole_search(KINGDOMINO, dynasty_view, first, rng,
                                     budget(iterations=5)) is None
    assert rng == Rng(1)  # nothing drawn: the loop draws as if it had not been asked
    stats, _ = search(KINGDOMINO, dynasty_view, first, iterations=20, profile=PROFILE)
    assert stats.iterations == 20  # the Python loop searched it


def test_the_native_search_is_many_times_the_loops_playouts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The reason it exists: the same CPU time buys many more playouts (measured about 5 to 30
    times the loop's with native playouts, docs/bots.md); 3 times holds on a busy machine."""
    ((state, seat),) = decisions(2, {}, 11, 1)
    view = KINGDOMINO.view(state, seat)
    counts = {}
    for core in ("native", "python"):
        monkeypatch.setenv("LUDOTECA_CORE", core)
        stats, _ = search(KINGDOMINO, view, seat, cpu_seconds=0.3, iterations=10**9,
                          early_stop=False, profile=PROFILE)
        counts[core] = stats.iterations
    assert counts["native"] > 3 * counts["python"]
