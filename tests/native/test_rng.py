"""The native SplitMix64 draws exactly what ``engine/rng.py`` draws: the raw stream, ``below``
(its rejection sampling too) and the shuffle, draw for draw."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from native_core import require_native

from ludoteca.engine.rng import Rng

core = require_native()

SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


@given(SEEDS)
def test_the_stream_is_the_same(seed: int) -> None:
    py, nat = Rng(seed), core.Rng(seed)
    assert [nat.next64() for _ in range(64)] == [py.next64() for _ in range(64)]
    assert nat.state == py.state


@given(SEEDS, st.lists(st.integers(min_value=1, max_value=(1 << 63) - 1), min_size=1, max_size=40))
def test_below_draws_the_same(seed: int, bounds: list[int]) -> None:
    py, nat = Rng(seed), core.Rng(seed)
    assert [nat.below(n) for n in bounds] == [py.below(n) for n in bounds]
    assert nat.state == py.state


def test_below_rejects_as_python_does() -> None:
    """A bound just above 2**62 rejects about a quarter of the draws: both cores retry alike."""
    for seed in range(200):
        py, nat = Rng(seed), core.Rng(seed)
        for n in (3, 7, (1 << 62) + 1, (1 << 63) - 25, 1 << 40, 1):
            assert nat.below(n) == py.below(n)
        assert nat.state == py.state


@given(SEEDS, st.integers(min_value=0, max_value=60))
def test_shuffle_is_the_same(seed: int, length: int) -> None:
    py, nat = Rng(seed), core.Rng(seed)
    items = list(range(1, length + 1))
    expected = items[:]
    py.shuffle(expected)
    assert nat.shuffle(items) == expected
    assert nat.state == py.state
