"""Helpers to put a Queendomino match in a chosen position.

A kingdom map is rows of space-separated cells: ``C`` the castle, ``.`` empty, or a terrain
letter (w wheat, f forest, l lake, g grassland, s swamp, m mine, t town) followed by its crowns,
e.g. ``g1``. The castle fixes the origin: (x, y) are relative to it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

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
from ludoteca.games.queendomino.actions import Claim, Pass
from ludoteca.games.queendomino.rules import GAME
from ludoteca.games.queendomino.state import DRAFT, PLACE, QueendominoState

LETTERS = {"w": 0, "f": 1, "l": 2, "g": 3, "s": 4, "m": 5, "t": 6}


def paint(text: str) -> list[int]:
    """A 7-terrain kingdom grid from a map."""
    rows = [line.split() for line in text.strip().splitlines()]
    cy = next(y for y, row in enumerate(rows) if "C" in row)
    cx = rows[cy].index("C")
    k = new_kingdom(7)
    for y, row in enumerate(rows):
        for x, token in enumerate(row):
            if token in (".", "C"):
                continue
            bit = 1 << cell_of(x - cx, y - cy)
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


def seat_of(s: QueendominoState) -> int:
    (seat,) = GAME.to_act(s)
    return seat


def started(players: int = 4, seed: int = 1, **options: Any) -> QueendominoState:
    """A match after the first draft (each king took the first free domino): round 1, step A."""
    s = GAME.setup(options, players, seed)
    while s.phase == DRAFT:
        seat = seat_of(s)
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    return s


def set_domino(s: QueendominoState, n: int) -> None:
    """Make the acting king's domino be ``n`` (the current line is shared: replace it)."""
    cur = s.cur[:]
    cur[s.acting] = n
    s.cur = cur


def end_turn(s: QueendominoState) -> None:
    """Finish the acting seat's turn by claiming the first free domino (or passing)."""
    seat = seat_of(s)
    if s.step == PLACE:
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    ends = [a for a in GAME.legal_actions(s, seat) if isinstance(a, Claim | Pass)]
    GAME.apply(s, seat, ends[0])


def finish_round(s: QueendominoState) -> None:
    """Play quiet turns (place first, then claim) until the round changes."""
    r = s.round
    while s.round == r and not GAME.is_over(s):
        end_turn(s)


@pytest.fixture
def kingdom() -> Callable[[str], list[int]]:
    return paint


@pytest.fixture
def q() -> SimpleNamespace:
    """The helpers above, for tests (conftest modules are not importable by name)."""
    return SimpleNamespace(
        paint=paint, seat_of=seat_of, started=started, set_domino=set_domino,
        end_turn=end_turn, finish_round=finish_round,
    )
