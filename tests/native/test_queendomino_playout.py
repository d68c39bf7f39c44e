"""Queendomino's ``game.playout`` on the native core (native_playout.py) against the Python
one: seeded states mid-match of every player count and option, true and determinized, played to
the end with the random policy (the game's own) on both cores, must end in the same state (the
placement and build histories too), the same outcome and the same generator state; an analysis
is byte-identical on both cores; ``State.load`` refuses impossible states with a ValueError."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from native_core import require_native
from playout_diff import assert_same_ends, midway, normal, one_by_one, starts

from ludoteca.engine.match import Match
from ludoteca.engine.playout import GAME, GREEDY, RANDOM, Policy, Until
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.kingdomino.grid import CASTLE_BIT, MAXR, TERR
from ludoteca.games.queendomino import native_playout
from ludoteca.games.queendomino.rules import GAME as QUEENDOMINO
from ludoteca.games.queendomino.state import QueendominoState

core = require_native()

# (players, options, states): every player count, then every option.
CASES: list[tuple[int, dict[str, object], int]] = [
    (2, {}, 60),
    (3, {}, 30),
    (4, {}, 30),
    (5, {}, 8),
    (6, {}, 6),
    (8, {}, 4),
    (3, {"royal_wedding": True}, 12),
    (4, {"royal_wedding": True, "tax_bonus": "per_turn"}, 12),
    (2, {"tax_bonus": "per_turn", "buildings": "verified"}, 30),
    (6, {"teams": True}, 6),
    (8, {"teams": True, "tax_bonus": "per_turn"}, 4),
]
IDS = [f"{p}p-" + ("-".join(f"{k}={v}" for k, v in o.items()) or "default") for p, o, _ in CASES]


def midmatch(players: int, options: dict[str, object], seed: int) -> QueendominoState:
    """A match played on by random moves for 0 to ~120 plies (past the first rounds' builds,
    knights and Dragons)."""
    return midway(QUEENDOMINO, players, options, seed, 120)  # type: ignore[no-any-return]


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_native_playouts_end_as_the_python_ones(players: int, options: dict[str, object],
                                                count: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Same final state (every slot), outcome and generator state, per seed; from the true
    state and a world determinized from the acting seat's view (its piles only the unseen)."""
    played_out = 0
    for seed in range(count):
        for start in starts(QUEENDOMINO, midmatch(players, options, 1000 * players + seed), seed):
            played_out += 1
            assert_same_ends(QUEENDOMINO, start, GAME, seed, monkeypatch)
    assert played_out >= count


def test_the_native_core_takes_real_and_determinized_states() -> None:
    """``native_playout.playout`` plays (rather than handing back to Python) the states the
    search and the analysis give it, and leaves a refused state and its generator untouched."""
    state = midmatch(3, {}, 77)
    (seat,) = QUEENDOMINO.to_act(state)
    world = QUEENDOMINO.determinize(QUEENDOMINO.view(state, seat), seat, Rng(1))
    for start in (state.clone(), world):
        assert native_playout.playout(start, native_playout.RANDOM, Rng(2))
        assert QUEENDOMINO.outcome(start) is not None
    broken = state.clone()
    broken.kingdoms[0][TERR] |= CASTLE_BIT  # a forest under the castle
    before = broken.clone()
    rng = Rng(9)
    assert not native_playout.playout(broken, native_playout.RANDOM, rng)
    assert rng.state == Rng(9).state
    assert broken == before


def test_the_native_path_is_taken_only_where_it_plays_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Native: random (the game's policy) to the end, no trace, not over; Python otherwise, and
    always with ``LUDOTECA_CORE=python``."""
    state = midmatch(2, {}, 5)
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert QUEENDOMINO.playout_policy == RANDOM
    assert native_playout.native_policy(RANDOM, Until.END, None, state) == native_playout.RANDOM
    assert native_playout.native_policy(GREEDY, Until.END, None, state) is None
    assert native_playout.native_policy(Policy.epsilon_greedy(8), Until.END, None, state) is None
    assert native_playout.native_policy(RANDOM, Until.ROUND, None, state) is None
    assert native_playout.native_policy(RANDOM, Until.END, [], state) is None
    over = state.clone()
    QUEENDOMINO.playout(over, RANDOM, Rng(1))
    assert native_playout.native_policy(RANDOM, Until.END, None, over) is None
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.native_policy(RANDOM, Until.END, None, state) is None


def test_load_refuses_impossible_states() -> None:
    """Each broken field is a ValueError, never a crash or a state that plays."""
    state = midmatch(2, {}, 40)
    assert state.round > 1  # kingdoms with squares on them
    load = core.queendomino.State.load
    load(**native_playout.load_args(state))  # the sound state loads
    args = native_playout.load_args

    def side(i: int, **change: Any) -> dict[str, Any]:
        a = args(state)
        fields = list(a["sides"][0])
        for k, v in change.items():
            fields[("kingdom", "box", "coins", "knights", "towers", "knight_cells",
                    "built_cells", "built").index(k)] = v
        a["sides"][i] = tuple(fields)
        return a

    k = state.kingdoms[0]
    broken: list[dict[str, Any]] = [
        {**args(state), "deck": [*state.deck[:-1], state.deck[0]]},
        {**args(state), "deck": [*state.deck, 97]},
        {**args(state), "deck_pos": len(state.deck) + 4},
        {**args(state), "cur": [*state.cur, 0]},
        {**args(state), "nxt_owner": [5] * len(state.nxt)},
        {**args(state), "nxt_owner": state.nxt_owner[:-1]},
        {**args(state), "phase": 2},
        {**args(state), "phase": 300},
        {**args(state), "step": 5},
        {**args(state), "acting": 9},
        {**args(state), "board": state.board[:-1]},
        {**args(state), "board": [33, *state.board[1:]]},
        {**args(state), "pile": [*state.pile, 0]},
        {**args(state), "dragon": 6},
        {**args(state), "queen": 2},
        {**args(state), "draft_order": [0, 1, 0, 1, 0]},
        {**args(state), "sides": args(state)["sides"][:1]},
        {**args(state), "last_cells": b"\xff" * 24},
        {**args(state), "taxed": b""},
        {**args(state), "ply": -1},
        side(0, coins=-1),
        side(0, knights=20000),
        side(1, built=[(33, 0)]),
        side(1, built=[(1, 500)]),
        side(0, kingdom=b""),
        side(0, box=(k[MAXR], k[MAXR], k[MAXR], k[MAXR])),
    ]
    for a in broken:
        with pytest.raises(ValueError):
            load(**a)


def test_an_analysis_is_byte_identical_on_both_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same record, budget and seed: the same JSON, on the Python and the native core."""
    from ludoteca.analysis.analyse import analyse

    match = Match.new(get_game("queendomino"), {}, 2, 21, narrate=False)
    match.play_random(random.Random(21).random)
    texts = []
    for core_name in ("python", "native"):
        monkeypatch.setenv("LUDOTECA_CORE", core_name)
        texts.append(json.dumps(analyse(match.record, budget=4, seed=3), sort_keys=True))
    assert texts[0] == texts[1]


@pytest.mark.parametrize(("players", "options", "count"), CASES, ids=IDS)
def test_playouts_after_are_the_one_by_one_playouts(players: int, options: dict[str, object],
                                                    count: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis's batch (``playouts_after``: every candidate of one drawn world in one
    native call) gives, action by action and with None (the policy's own move), the rank, score
    and side the Python core's clone, apply and playout give, teams included; the state and
    generator are left as they were."""
    compared = 0
    for seed in range(max(2, count // 4)):
        true = midmatch(players, options, 7000 * players + seed)
        for start in starts(QUEENDOMINO, true, seed):
            seats = QUEENDOMINO.to_act(start)
            if not seats:
                continue
            seat = min(seats)
            legal = QUEENDOMINO.legal_actions(start, seat)
            actions: list[Any] = [None, *legal[:: max(1, len(legal) // 6)]]
            before, rng = start.clone(), Rng(seed)
            monkeypatch.setenv("LUDOTECA_CORE", "native")
            got = native_playout.playouts_after(QUEENDOMINO, start, seat, actions, rng)
            assert got is not None
            assert start == before and rng.state == Rng(seed).state
            assert normal(got) == one_by_one(QUEENDOMINO, start, seat, actions, seed,
                                             monkeypatch)
            compared += len(actions)
    assert compared >= 2


def test_playouts_after_stays_in_python_where_it_must(monkeypatch: pytest.MonkeyPatch) -> None:
    """None (the analysis then plays one by one) on the Python core and for a match over."""
    state = midmatch(2, {}, 5)
    seat = min(QUEENDOMINO.to_act(state))
    actions = QUEENDOMINO.legal_actions(state, seat)
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    assert native_playout.playouts_after(QUEENDOMINO, state, seat, actions, Rng(1)) is None
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    assert native_playout.playouts_after(QUEENDOMINO, state, seat, actions, Rng(1)) is not None
    over = state.clone()
    QUEENDOMINO.playout(over, RANDOM, Rng(1))
    assert native_playout.playouts_after(QUEENDOMINO, over, None, [None], Rng(1)) is None
