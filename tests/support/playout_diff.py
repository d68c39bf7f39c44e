"""Differential checks of ``Game.playout`` on the two cores (tests/native/test_*_playout.py):
a seeded state mid-match, played to the end on the Python and on the native core, must end in
the same state, outcome and generator state."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.engine.game import Game
from ludoteca.engine.playout import GAME, Policy, Until
from ludoteca.engine.rng import Rng


def midway(game: Game[Any, Any], players: int, options: dict[str, object], seed: int,
           most: int) -> Any:
    """A match dealt from ``seed`` and played on by random moves for 0 to ``most`` - 1 plies."""
    state = game.setup(options, players, seed)
    moves = Rng(seed ^ 0x5EED)
    for _ in range(moves.below(most)):
        seats = game.to_act(state)
        if not seats:
            break
        seat = min(seats)
        actions = game.legal_actions(state, seat)
        game.apply_legal(state, seat, actions[moves.below(len(actions))])
    return state


def starts(game: Game[Any, Any], true: Any, seed: int) -> list[Any]:
    """The true state and, for odd seeds, a world determinized from the acting seat's view (as
    the search and the analysis play from)."""
    out = [true]
    if seed % 2 and (seats := game.to_act(true)):
        seat = min(seats)
        out.append(game.determinize(game.view(true, seat), seat, Rng(seed)))
    return out


def played(game: Game[Any, Any], state: Any, policy: Policy, seed: int, core_name: str,
           monkeypatch: pytest.MonkeyPatch, until: Until = Until.END) -> tuple[Any, Rng]:
    monkeypatch.setenv("LUDOTECA_CORE", core_name)
    state, rng = state.clone(), Rng(seed)
    game.playout(state, policy, rng, until)
    return state, rng


def assert_same_ends(game: Game[Any, Any], start: Any, policy: Policy, seed: int,
                     monkeypatch: pytest.MonkeyPatch, until: Until = Until.END) -> None:
    """The same generator state, outcome and whole state (every slot) after the playout."""
    py, py_rng = played(game, start, policy, seed, "python", monkeypatch, until)
    nat, nat_rng = played(game, start, policy, seed, "native", monkeypatch, until)
    assert nat_rng.state == py_rng.state
    assert until != Until.END or game.outcome(nat) is not None
    assert game.outcome(nat) == game.outcome(py)
    slots = [n for cls in type(py).__mro__ for n in getattr(cls, "__slots__", ())]
    differ = [n for n in slots if getattr(nat, n) != getattr(py, n)]
    assert not differ, f"slots that differ: {differ}"
    assert nat == py


def one_by_one(game: Game[Any, Any], state: Any, seat: int, actions: list[Any], seed: int,
               monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What the analysis plays without ``playouts_after``: per action (None: none) a clone, the
    action applied and ``game.playout`` on the Python core; each seat's rank, score and side
    (sides numbered by their first seat). Leaves the native core chosen."""
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    out = []
    for action in actions:
        copy = state.clone()
        if action is not None:
            game.apply_legal(copy, seat, action)
        if not game.is_over(copy):
            game.playout(copy, GAME, Rng(seed))
        outcome = game.outcome(copy)
        assert outcome is not None
        sides = outcome.side_of
        out.append((list(outcome.ranks), list(outcome.scores),
                    [sides.index(sides[s]) for s in range(len(sides))]))
    monkeypatch.setenv("LUDOTECA_CORE", "native")
    return out


def normal(results: list[Any]) -> list[Any]:
    """``playouts_after``'s results with the sides numbered by their first seat (any numbering
    of the sides is the same result), as ``one_by_one`` gives them."""
    return [(list(r), list(s), [list(side).index(side[p]) for p in range(len(side))])
            for r, s, side in results]
