"""Helpers to build Kingdomino positions by hand.

A kingdom map is rows of space-separated cells: ``C`` the castle, ``.`` empty, or a terrain
letter (w wheat, f forest, l lake, g grassland, s swamp, m mine) followed by its crowns, e.g.
``w1``. The castle fixes the origin: (x, y) are relative to it.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from ludoteca.games.kingdomino.grid import (
    CASTLE_BIT,
    CR1,
    MAXC,
    MAXR,
    MINC,
    MINR,
    OCC,
    STRIDE,
    TERR,
    cell_of,
    new_kingdom,
)
from ludoteca.games.kingdomino.rules import GAME, Kingdomino

LETTERS = {"w": 0, "f": 1, "l": 2, "g": 3, "s": 4, "m": 5}


def build_kingdom(text: str) -> list[int]:
    rows = [line.split() for line in text.strip().splitlines()]
    cy = next(y for y, row in enumerate(rows) if "C" in row)
    cx = rows[cy].index("C")
    k = new_kingdom(6)
    for y, row in enumerate(rows):
        for x, token in enumerate(row):
            if token in (".", "C"):
                continue
            cell = cell_of(x - cx, y - cy)
            bit = 1 << cell
            k[TERR + LETTERS[token[0]]] |= bit
            crowns = int(token[1:] or 0)
            if crowns:
                k[CR1 + crowns - 1] |= bit
            k[OCC] |= bit
    cells = [i for i in range(13 * STRIDE) if k[OCC] >> i & 1]
    assert k[OCC] & CASTLE_BIT
    k[MINR] = min(c // STRIDE for c in cells)
    k[MAXR] = max(c // STRIDE for c in cells)
    k[MINC] = min(c % STRIDE for c in cells)
    k[MAXC] = max(c % STRIDE for c in cells)
    return k


@pytest.fixture
def game() -> Kingdomino:
    return GAME


@pytest.fixture
def kingdom() -> Callable[[str], list[int]]:
    return build_kingdom
