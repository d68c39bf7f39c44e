"""What every game family's differential driver shares: the configurations (``Case``), how a
disagreement is raised (``same``), where the index choices come from (``Draws``) and the seam
that proves a driver sees a disagreement (``fault``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ludoteca.engine.rng import Rng

POLICIES = ("random", "greedy", "mixed")
"""The policies every family plays (a family may have more for its tests, e.g. ``spend``)."""


class Disagreement(AssertionError):
    """The native core and the Python engine differ (an ``AssertionError``, so a test that
    meets one fails with its message)."""


class Draws(Protocol):
    """Where the index choices come from: an ``Rng`` (seeded matches) or Hypothesis's draws."""

    def below(self, bound: int) -> int: ...


@dataclass(frozen=True)
class Case:
    """One game, player count and option set; ``matches`` is the test suite's budget for it."""

    game: str
    players: int
    options: Mapping[str, object] = field(default_factory=dict)
    matches: int = 10

    @property
    def label(self) -> str:
        """A stable name (``kingdomino-3p-dynasty=True-tiebreak=bga``), as ``--config`` takes it."""
        opts = "-".join(f"{k}={v}" for k, v in self.options.items()) or "default"
        return f"{self.game}-{self.players}p-{opts}"

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "game": self.game, "players": self.players,
                "options": dict(self.options)}


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 400 else text[:400] + "…"


def same(what: str, python: object, native: object) -> None:
    """Raise ``Disagreement`` naming ``what`` and both values unless they are equal."""
    if python != native:
        raise Disagreement(f"{what}: python {_short(python)}, native {_short(native)}")


def same_bytes(what: str, python: bytes, native: bytes) -> None:
    """``same`` for long byte strings (observations): the first differing offset, not a dump."""
    if python != native:
        at = next((i for i, (a, b) in enumerate(zip(python, native, strict=False)) if a != b),
                  min(len(python), len(native)))
        raise Disagreement(f"{what}: {len(python)} python and {len(native)} native bytes, "
                           f"first differing at byte {at}")


def tie_rng(draws: Draws, seed: int) -> Rng:
    """The generator a greedy bot breaks ties with: the match's chooser when it is one."""
    return draws if isinstance(draws, Rng) else Rng(seed)


def fault(legal: list[int], index: int, ply: int, at: int | None) -> int:
    """The index the native core is given: ``index``, or, from ply ``at`` on (where the seat has
    a choice), another legal one. The seam that shows a driver catches a wrong action result:
    ``python -m tools.differential --fault-at-ply``, tests/native/test_differential.py."""
    if at is None or ply < at or len(legal) < 2:
        return index
    return legal[(legal.index(index) + 1) % len(legal)]


def observe_all(players: int, nat: Any, encode: Any, py: Any, out: np.ndarray[Any, Any],
                ply: int) -> None:
    """Every seat's RL observation, the native core's against the encoder's, as float32 bytes."""
    for seat in range(players):
        nat.observe(seat, out)
        same_bytes(f"seat {seat}'s observation at ply {ply}", encode(py, seat).tobytes(),
                   out.tobytes())


def outcome_triple(outcome: Any) -> tuple[Any, Any, Any]:
    """``Outcome`` as the native ``outcome()`` gives it: (scores, ranks, tiebreaks)."""
    if outcome is None:
        raise Disagreement("the Python match is over without an outcome")
    return (outcome.scores, outcome.ranks, outcome.tiebreaks)


@dataclass(frozen=True)
class Family:
    """What one tile-laying family's turn-by-turn comparison needs (``play``): its Python game
    and native module, the state and outcome comparisons, and its policies' choice."""

    game: Any
    native: Any
    encoder: Callable[[Any, int], Any]
    """``(validated options, players) -> Encoder`` (its ``shape`` and ``encode``)."""
    assert_same: Callable[[Any, Any], None]
    assert_same_outcome: Callable[[Any, Any], None]
    choose: Callable[[Any, int, list[int], str, Draws, Rng], int]


def play(family: Family, case: Case, seed: int, policy: str, draws: Draws | None,
         observe: bool, fault_at: int | None) -> tuple[int, Any]:
    """One match on both cores, compared at every state (legal indices, the state each applied
    index gives, the generator's draws, that its snapshot restores, every seat's observation
    when ``observe``) and at the end (no legal index, the outcome): the states compared and the
    finished Python match. Raises ``Disagreement``."""
    game, native = family.game, family.native
    py = game.setup(case.options, case.players, seed)
    nat = native.setup(case.options, case.players, seed)
    draws = draws or Rng(seed ^ 0xC0FFEE)
    rng = tie_rng(draws, seed)
    encoder = family.encoder(game.validate(case.options, case.players), case.players)
    out = np.zeros(native.config(case.options, case.players).observation_size,
                   dtype=np.float32)
    same("observation shape", encoder.shape, out.shape)
    family.assert_same(py, nat)
    states = 1
    while True:
        if observe:
            observe_all(case.players, nat, encoder.encode, py, out, py.ply)
        if game.is_over(py):
            break
        seat = py.seat_acting()
        legal = game.legal_indices(py, seat)
        same(f"ply {py.ply}: seat {seat}'s legal indices", legal, nat.legal_indices(seat))
        index = family.choose(py, seat, legal, policy, draws, rng)
        nat.apply(seat, fault(legal, index, py.ply, fault_at))
        game.apply_legal(py, seat, game.action_from_index(index))
        family.assert_same(py, nat)
        data = nat.snapshot()  # every state the rules reach restores
        same(f"ply {py.ply}: snapshot restored", data, nat.restore(data).snapshot())
        states += 1
    if not nat.is_over():
        raise Disagreement("the Python match is over, the native one is not")
    same("legal indices once over", [], nat.legal_indices(0))
    family.assert_same_outcome(py, nat)
    return states, py
