"""Playout policies and stopping points as plain data (docs/engine.md, "Playouts").

``Game.playout(state, policy, rng, until)`` plays a whole playout inside the game, so bots,
analysis, tournaments and RL never loop over Python calls per step. A policy is named by a
small enum and one integer, so a native core can run it without calling back into Python; only
``Policy.python`` carries a Python function (the fallback a native core calls per step).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from ludoteca.engine.rng import Rng

Choose = Callable[[Any, int, list[int], Rng], int]
"""A Python policy: ``(state, seat, legal indices, rng) -> one of those indices``."""


class Kind(IntEnum):
    """Which policy plays (the numbers are the native core's enum)."""

    RANDOM = 0
    """A uniformly random legal index: ``legal[rng.below(len(legal))]``."""
    GREEDY = 1
    """The game's greedy choice from the state (``Game._greedy``), no random moves."""
    EPSILON_GREEDY = 2
    """One move in ``epsilon`` random (``rng.below(epsilon) == 0``), else greedy."""
    GAME = 3
    """The game's own playout policy (``Game.playout_policy``: what its search uses)."""
    PYTHON = 4
    """A Python function chooses (``Policy.choose``): the fallback for anything else."""


class Until(IntEnum):
    """Where a playout stops (the numbers are the native core's enum)."""

    END = 0
    """The end of the match."""
    ROUND = 1
    """The end of the current round (``Game.round_of`` changes) or of the match."""


class Order(IntEnum):
    """Which of several seats to act (a simultaneous step) acts first (the native enum)."""

    LOWEST = 0
    """The lowest seat to act, every step: a seat answers all it has to before the next."""
    SWEEP = 1
    """Sweeps: each seat to act when the sweep began, lowest first, while still to act."""


@dataclass(frozen=True, slots=True)
class Policy:
    """A playout policy: a kind, its one parameter, and for ``PYTHON`` the function."""

    kind: Kind
    epsilon: int = 0
    choose: Choose | None = None

    def __post_init__(self) -> None:
        if self.kind == Kind.EPSILON_GREEDY and self.epsilon < 1:
            raise ValueError("epsilon-greedy needs epsilon >= 1 (one move in epsilon is random)")
        if (self.kind == Kind.PYTHON) != (self.choose is not None):
            raise ValueError("a Python policy, and only it, has a choose function")

    @classmethod
    def python(cls, choose: Choose) -> Policy:
        return cls(Kind.PYTHON, choose=choose)

    @classmethod
    def epsilon_greedy(cls, epsilon: int) -> Policy:
        return cls(Kind.EPSILON_GREEDY, epsilon)

    def spec(self) -> str:
        """The policy's name, as ``parse`` reads it (a Python policy has no spec)."""
        if self.kind == Kind.EPSILON_GREEDY:
            return f"epsilon-greedy({self.epsilon})"
        if self.kind == Kind.PYTHON:
            raise ValueError("a Python policy has no spec")
        return _NAMES[self.kind]


RANDOM = Policy(Kind.RANDOM)
GREEDY = Policy(Kind.GREEDY)
GAME = Policy(Kind.GAME)

_NAMES = {Kind.RANDOM: "random", Kind.GREEDY: "greedy", Kind.GAME: "game"}
_EPSILON = re.compile(r"epsilon-greedy\((\d+)\)")


def parse(spec: str) -> Policy:
    """``"random"``, ``"greedy"``, ``"epsilon-greedy(8)"`` or ``"game"`` as a policy."""
    for kind, name in _NAMES.items():
        if spec == name:
            return Policy(kind)
    found = _EPSILON.fullmatch(spec)
    if found is None:
        raise ValueError(
            f"unknown playout policy {spec!r}: random, greedy, epsilon-greedy(N) or game")
    return Policy.epsilon_greedy(int(found.group(1)))
