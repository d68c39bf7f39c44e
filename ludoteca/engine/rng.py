"""A seeded random generator whose whole state is one int.

Games keep it inside their state, so cloning a state is copying an int and a match replays
exactly from its seed. It is SplitMix64 (Steele, Lea, Flood 2014): tiny, fast in pure Python, and
statistically fine for shuffling and dice. Never used for anything secret.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + _GAMMA) & _MASK
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & _MASK
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform int in [0, n). Rejection sampling keeps it unbiased."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle_wide(self, items: MutableSequence[T], words: int = 3) -> None:
        """Fisher-Yates reading every choice from one number of ``64 * words`` random bits (the
        first draw is the low word): for a short list far fewer draws than ``shuffle`` (Kami's 32
        cards: 3 instead of 31), with a bias below ``len(items)! / 2**(64 * words)``."""
        r = 0
        for k in range(words):
            r |= self.next64() << (64 * k)
        for i in range(len(items) - 1, 0, -1):
            r, j = divmod(r, i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def spawn(self) -> Rng:
        """An independent generator, e.g. for the next game of a multi-game match."""
        return Rng(self.next64())

    def clone(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return "Rng(<hidden>)"
