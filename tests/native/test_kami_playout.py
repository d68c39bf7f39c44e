"""Kami's and Goita's ``game.playout`` on the native core (kami/native_playout.py) against the
Python one: seeded states mid-match of every player count and option, true and determinized,
played to the end of the match or of the deal (as the search's rollouts play) with the random,
the greedy and the game's policy on both cores, must end in
the same state (the deal history and the last scored table too), the same outcome and the same
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
from ludoteca.engine.game import Game
from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, GREEDY, RANDOM, Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games import entry, get_game
from ludoteca.games.kami import native_playout
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME as KAMI
from ludoteca.games.kami.state import KamiState

core = require_native()

# (game, players, options, states): every player count, end mode and option.
CASES: list[tuple[Game[Any, Any], int, dict[str, object], int]] = [
    (KAMI, 2, {}, 80),
    (KAMI, 3, {}, 60),
    (KAMI, 4, {}, 60),
    (KAMI, 4, {"demoralized": False}, 30),
    (KAMI, 2, {"end_mode": "lord"}, 30),
    (KAMI, 3, {"end_mode": "kami", "target": 20}, 30),
    (KAMI, 4, {"end_mode": "lord", "target": 25}, 20),
    (GOITA, 4, {}, 60),
    (GOITA, 4, {"target": 50}, 60),
]
IDS = [f"{g.spec.name}-{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default")
       for g, p, o, _ in CASES]


def midmatch(game: Game[Any, Any], players: int, options: dict[str, object],
             seed: int) -> KamiState:
    """A match played on by random moves for 0 to ~150 plies (some deals scored)."""
    return midway(game, players, options, seed, 150)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("game", "players", "options", "count"), CASES, ids=IDS)
def test_native_playouts_end_as_the_python_ones(game: Game[Any, Any], players: int,
                                                options: dict[str, object], count: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Same final state (every slot: the history and the last table too), outcome and generator
    state, per policy, stop and seed; from the true state and a determinized world."""
    played_out = 0
    for seed in range(count):
        true = midmatch(game, players, options, 1000 * players + seed)
        for start in starts(game, true, seed):
            for policy in (RANDOM, GAME, GREEDY):
                played_out += 1
                assert_same_ends(game, start, policy, seed, monkeypatch)
            assert_same_ends(game, start, GAME, seed, monkeypatch, Until.ROUND)
    assert played_out >= 3 * count


def test_a_match_from_its_deal_ends_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole matches from the deal, Goita's special hands and redeals included: the history and
    every scored deal's table agree (many seeds, so every history kind turns up)."""
    kinds: set[str] = set()
    for seed in range(150):
        for game in (GOITA, KAMI):
            state = game.setup({}, 4, seed)
            assert_same_ends(game, state, GAME, seed, monkeypatch)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            game.playout(state, GAME, Rng(seed))
            kinds.update(entry[2] for entry in state.history)
    assert kinds >= {"out", "redeal", "shi6"}


def test_the_native_core_takes_real_and_determinized_states() -> None:
    """``native_playout.playout`` plays (rather than handing back to Python) the states the
    search and the analysis give it, and leaves a refused state and its generator untouched."""
    for game, players in ((KAMI, 2), (KAMI, 3), (KAMI, 4), (GOITA, 4)):
        state = midmatch(game, players, {}, 77)
        (seat,) = game.to_act(state)
        world = game.determinize(game.view(state, seat), seat, Rng(1))
        for start in (state.clone(), world):
            assert native_playout.playout(start, native_playout.SEARCH, Rng(2))
            assert game.outcome(start) is not None
    broken = midmatch(KAMI, 2, {}, 5)
    broken.sizes[0] += 1  # a hand size that is not the hand's
    before = broken.clone()
    rng = Rng(9)
    assert not native_playout.playout(broken, native_playout.RANDOM, rng)
    assert rng.state == Rng(9).state
    assert broken == before


def test_the_native_path_is_taken_only_where_it_plays_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Native: random, greedy and the game's policy to the end of the match or the deal, no
    trace, not over; Python
    otherwise, and always with ``LUDOTECA_CORE=python``."""
    state = midmatch(KAMI, 2, {}, 5)
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) == native_playout.RANDOM
    assert native_playout.native_policy(GREEDY, Until.END, None, state) == \
        native_playout.GREEDY_KIND
    assert native_playout.native_policy(KAMI.playout_policy, Until.END, None, state) == \
        native_playout.SEARCH
    assert native_playout.native_policy(Policy.epsilon_greedy(3), Until.END, None, state) is None
    assert native_playout.native_policy(GAME, Until.ROUND, None, state) is None  # unresolved
    assert native_playout.native_policy(KAMI.playout_policy, Until.ROUND, None, state) == \
        native_playout.SEARCH
    assert native_playout.native_policy(RANDOM, Until.END, [], state) is None
    over = state.clone()
    KAMI.playout(over, RANDOM, Rng(1))
    assert native_playout.native_policy(RANDOM, Until.END, None, over) is None
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) is None


def test_load_refuses_impossible_states() -> None:
    """Each broken field is a ValueError, never a crash or a state that plays."""
    args = native_playout.load_args
    load = core.kami.State.load
    two, three = midmatch(KAMI, 2, {}, 40), midmatch(KAMI, 3, {}, 40)
    load(**args(two))
    load(**args(three))
    broken: list[dict[str, Any]] = [
        {**args(two), "phase": 3},
        {**args(two), "winner": 0},
        {**args(two), "round": 0},
        {**args(two), "ply": -1},
        {**args(two), "turn": 2},
        {**args(two), "attack": 8},
        {**args(two), "scores": [0]},
        {**args(two), "hands": [two.hands[0] + (11 << 0), two.hands[1]]},
        {**args(two), "sizes": [two.sizes[0] + 1, two.sizes[1]]},
        {**args(two), "sizes": two.sizes[:1]},
        {**args(two), "looked": [0, 0]},
        {**args(two), "unused": [1, 2]},
        {**args(two), "merc_up": two.merc_up[:7]},
        {**args(two), "merc_down": [9] * 8},
        {**args(two), "defense": [[32], []]},
        {**args(two), "attacks": [[0] * 33, []]},
        {**args(three), "unused": []},
        {**args(three), "merc_up": [0] * 8, "merc_down": [0] * 8},
        {**args(two), "phase": 0},  # the questions are asked with 4 players only
    ]
    for a in broken:
        with pytest.raises(ValueError):
            load(**a)


@pytest.mark.parametrize(("name", "players", "options"),
                         [("kami", 2, {"target": 10}), ("goita", 4, {"target": 50})])
def test_an_analysis_is_byte_identical_on_both_cores(name: str, players: int,
                                                     options: dict[str, object],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The same record, budget and seed: the same JSON, on the Python and the native core (a
    short match: the Python core takes minutes over a whole one)."""
    from ludoteca.analysis.analyse import analyse

    match = Match.new(get_game(name), options, players, 21, narrate=False)
    match.play_random(random.Random(21).random)
    texts = []
    for core_name in ("python", "native"):
        monkeypatch.setenv("LUDOTECA_CORE", core_name)
        texts.append(json.dumps(analyse(match.record, budget=4, seed=3), sort_keys=True))
    assert texts[0] == texts[1]


def test_a_search_bot_chooses_the_same_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fixed number of search iterations with the game's playouts: the same choice from the
    same seed on either core, at every decision of a Goita match's opening."""
    state = GOITA.setup({}, 4, 8)
    profile = entry("goita").search_profile()
    moves = Rng(8)
    for _ in range(10):
        (seat,) = GOITA.to_act(state)
        view = GOITA.view(state, seat)
        chosen = []
        for core_name in ("python", "native"):
            monkeypatch.setenv("LUDOTECA_CORE", core_name)
            bot = SearchBot(seconds=None, iterations=30, seed=4, profile=profile)
            chosen.append(bot.choose(GOITA, view, seat))
        assert chosen[0] == chosen[1]
        actions = GOITA.legal_actions(state, seat)
        GOITA.apply_legal(state, seat, actions[moves.below(len(actions))])


@pytest.mark.parametrize(("game", "players", "options", "count"), CASES, ids=IDS)
def test_playouts_after_are_the_one_by_one_playouts(game: Game[Any, Any], players: int,
                                                    options: dict[str, object], count: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis's batch (``playouts_after``: every action of one drawn world in one native
    call) gives, action by action and with None (no action: the policy's own move), the rank,
    score and side the Python core's clone, apply and playout give; the state and generator
    are left as they were."""
    compared = 0
    for seed in range(count // 2):
        true = midmatch(game, players, options, 7000 * players + seed)
        for start in starts(game, true, seed):
            seats = game.to_act(start)
            if not seats:
                continue
            seat = min(seats)
            legal = game.legal_actions(start, seat)
            actions: list[Any] = [None, *legal[:: max(1, len(legal) // 8)]]  # at most ~9
            before, rng = start.clone(), Rng(seed)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            got = native_playout.playouts_after(game, start, seat, actions, rng)
            assert got is not None
            assert start == before and rng.state == Rng(seed).state
            want = one_by_one(game, start, seat, actions, seed, monkeypatch)
            assert normal(got) == want
            compared += len(actions)
    assert compared >= count


def test_playouts_after_value_a_move_that_ends_the_match(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A deciding move that wins the match: its result is the match's, with no playout."""
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    found = 0
    for seed in range(200):
        state = KAMI.setup({"target": 10}, 2, seed)
        moves = Rng(seed)
        while not KAMI.is_over(state) and found < 20:
            (seat,) = KAMI.to_act(state)
            actions = KAMI.legal_actions(state, seat)
            ending = []
            for action in actions:
                after = state.clone()
                KAMI.apply_legal(after, seat, action)
                if KAMI.is_over(after):
                    ending.append(action)
            if ending:
                got = native_playout.playouts_after(KAMI, state, seat, actions, Rng(seed))
                assert got is not None
                assert normal(got) == one_by_one(KAMI, state, seat, actions, seed,
                                                   monkeypatch)
                found += 1
            KAMI.apply_legal(state, seat, actions[moves.below(len(actions))])
        if found >= 20:
            break
    assert found >= 20


def test_playouts_after_stays_in_python_where_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    """None (the analysis then plays one by one) on the Python core, for a match over and for
    a state the native core refuses."""
    state = midmatch(KAMI, 2, {}, 5)
    (seat,) = KAMI.to_act(state)
    actions = KAMI.legal_actions(state, seat)
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.playouts_after(KAMI, state, seat, actions, Rng(1)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.playouts_after(KAMI, state, seat, actions, Rng(1)) is not None
    over = state.clone()
    KAMI.playout(over, RANDOM, Rng(1))
    assert native_playout.playouts_after(KAMI, over, None, [None], Rng(1)) is None
    broken = state.clone()
    broken.sizes[0] += 1
    assert native_playout.playouts_after(KAMI, broken, seat, actions, Rng(1)) is None
