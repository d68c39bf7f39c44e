"""Chance as explicit outcomes: a random generator whose draws are given from outside.

The engines draw every random thing (shuffles, deals, dice) from the ``Rng`` in their state,
through ``below``, ``shuffle`` and ``shuffle_wide``. ``ChanceRng`` answers those draws from a
script of outcomes; a draw past the end of the script raises ``NeedChance`` with the number of
outcomes that draw has. The OpenSpiel adapter turns that into a chance node: it applies the
action again on an untouched copy with the chosen outcome added to the script, until the action
completes. So a game needs no change to expose its chance: whatever it draws becomes one or more
chance nodes with uniform outcomes, in the order it draws them.

Dice are one chance node each: a draw of ``6 ** k`` outcomes (k ≥ 2, how Buttons rolls k dice
at once, its base-6 digits low die first) is k six-outcome nodes, low die first. Any other draw
of more than ``MAX_OUTCOMES`` outcomes is split the same way into nodes whose outcome counts
multiply to it (the smallest factor from 6 up first); no game makes one today.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

from ludoteca.engine.rng import Rng

T = TypeVar("T")

MAX_OUTCOMES = 64
"""The most outcomes one chance node has (OpenSpiel's ``max_chance_outcomes``)."""


class NeedChance(BaseException):
    """The draw being made needs the next chance outcome, one of ``range(outcomes)``; ``then``
    lists the outcome counts of the draws known to follow whatever it is (the rest of a shuffle
    or of a split draw), so the caller can take those outcomes too before applying again. A
    ``BaseException``, so no ``except Exception`` in game code can swallow it."""

    def __init__(self, outcomes: int, then: tuple[int, ...] = ()) -> None:
        super().__init__(outcomes)
        self.outcomes = outcomes
        self.then = then


DIE = 6


def split(n: int) -> list[int]:
    """The outcome counts of the chance nodes for one draw of ``n`` outcomes, low digit first."""
    dice = 0
    rest = n
    while rest > 1 and rest % DIE == 0:
        rest //= DIE
        dice += 1
    if rest == 1 and dice >= 2:
        return [DIE] * dice
    out: list[int] = []
    while n > MAX_OUTCOMES:
        d = next((d for d in range(6, MAX_OUTCOMES + 1) if n % d == 0), 0)
        if not d:
            raise ValueError(f"a draw of {n} outcomes cannot be split into chance nodes of at "
                             f"most {MAX_OUTCOMES}")
        out.append(d)
        n //= d
    out.append(n)
    return out


_SPLITS: dict[int, list[int]] = {}


class ChanceRng(Rng):
    """An ``Rng`` that reads its draws from ``script`` (outcome indices, one per chance node)."""

    __slots__ = ("at", "refuse", "script")

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script = script
        self.at = 0
        self.refuse = False

    def _next(self, n: int, then: tuple[int, ...]) -> int:
        if self.refuse:
            raise RuntimeError("this engine state's chance belongs to OpenSpiel's chance nodes: "
                               "clone it and give it an Rng to play on outside OpenSpiel")
        if self.at == len(self.script):
            raise NeedChance(n, then)
        k = self.script[self.at]
        if not 0 <= k < n:
            raise ValueError(f"chance outcome {k} is not one of 0-{n - 1}")
        self.at += 1
        return k

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0  # no choice: not a chance node
        sizes = _SPLITS.get(n)
        if sizes is None:
            sizes = _SPLITS[n] = split(n)
        if len(sizes) == 1:
            return self._next(n, ())
        value = 0
        scale = 1
        for i, size in enumerate(sizes):
            value += self._next(size, tuple(sizes[i + 1:])) * scale
            scale *= size
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        """``Rng.shuffle``'s Fisher-Yates, the same draws; a shuffle announces the rest of its
        draws (i, i - 1, ... 2 outcomes) when the script runs out."""
        if len(items) > MAX_OUTCOMES:
            raise ValueError(f"a shuffle of {len(items)} has chance nodes of more than "
                             f"{MAX_OUTCOMES} outcomes")
        for i in range(len(items) - 1, 0, -1):
            j = self._next(i + 1, tuple(range(i, 1, -1)))
            items[i], items[j] = items[j], items[i]

    def shuffle_wide(self, items: MutableSequence[T], words: int = 3) -> None:
        self.shuffle(items)  # the same uniform order, one chance node per position

    def next64(self) -> int:
        raise NotImplementedError("a raw 64-bit draw has too many outcomes for a chance node")

    @classmethod
    def closed(cls) -> ChanceRng:
        """A generator that refuses every draw, for engine states handed out after an action
        completed: their chance is OpenSpiel's."""
        rng = cls([])
        rng.refuse = True
        return rng

    def clone(self) -> ChanceRng:
        copy = ChanceRng(self.script)
        copy.at = self.at
        copy.refuse = self.refuse
        return copy

    def __repr__(self) -> str:
        return f"ChanceRng(at={self.at}, script={len(self.script)})"
