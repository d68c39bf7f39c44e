"""Queendomino components: seven terrains (town is the seventh), the 48 dominoes (package data
``data/dominoes.csv``), the Kingdomino box for Royal Wedding, and the fixed counts.

Domino ids: 1-48 are the Queendomino box; with Royal Wedding, 49-96 are the Kingdomino box's
1-48 (each box keeps its own printed number, ``box_number``). Kingdomino's six terrains have the
same indices here, so its dominoes drop into a Queendomino kingdom unchanged.
"""

from __future__ import annotations

from ludoteca.games.kingdomino import components as kd
from ludoteca.games.kingdomino.components import Domino, load_dominoes, read_data

TERRAINS = (*kd.TERRAINS, "town")
TERRAIN_INDEX = {name: i for i, name in enumerate(TERRAINS)}
TOWN = TERRAIN_INDEX["town"]

QUEENDOMINO_BOX = 48
KINGDOMINO_OFFSET = 48  # id of Kingdomino box domino n is 48 + n
MAX_ID = 96

BOARD_SPACES = 6  # the builders' board; space p costs p coins (5 is next to the draw pile)


def queen_price(space: int) -> int:
    """What the Queen's host pays for the building on board space ``space``: 1 less, never
    below 0 (ruling 2; a team hosts her for both partners, ruling 13)."""
    return max(space - 1, 0)
START_COINS = 7
START_KNIGHTS = 1
DRAGON_COST = 1

_QUEEN = load_dominoes(read_data(__package__ or __name__, "dominoes.csv"), TERRAIN_INDEX)
DOMINOES: dict[int, Domino] = dict(_QUEEN)
for _n, _d in kd.DOMINOES.items():
    DOMINOES[KINGDOMINO_OFFSET + _n] = Domino(KINGDOMINO_OFFSET + _n, _d.terrains, _d.crowns)

# Per domino id: halves' terrain and crowns, looked up in the hot path.
T1 = [0] * (MAX_ID + 1)
T2 = [0] * (MAX_ID + 1)
C1 = [0] * (MAX_ID + 1)
C2 = [0] * (MAX_ID + 1)
for _n, _d in DOMINOES.items():
    T1[_n], T2[_n] = _d.terrains
    C1[_n], C2[_n] = _d.crowns


def box_of(domino: int) -> str:
    return "queendomino" if domino <= QUEENDOMINO_BOX else "kingdomino"


def box_number(domino: int) -> int:
    """The number printed on the domino (each box numbers its own 1-48)."""
    return domino if domino <= QUEENDOMINO_BOX else domino - KINGDOMINO_OFFSET


def domino_json(domino: int) -> dict[str, object]:
    d = DOMINOES[domino]
    return {
        "id": domino,
        "number": box_number(domino),
        "box": box_of(domino),
        "terrains": [TERRAINS[t] for t in d.terrains],
        "crowns": list(d.crowns),
    }
