"""Bitboard helpers: a set of cells is one Python int."""

from __future__ import annotations

from collections.abc import Iterator


def scan_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bit_list(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
