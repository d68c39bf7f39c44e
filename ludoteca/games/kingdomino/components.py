"""Kingdomino components: terrains and the 48 dominoes (package data ``data/dominoes.csv``)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

TERRAINS = ("wheat", "forest", "lake", "grassland", "swamp", "mine")
TERRAIN_INDEX = {name: i for i, name in enumerate(TERRAINS)}


@dataclass(frozen=True, slots=True)
class Domino:
    number: int
    terrains: tuple[int, int]
    crowns: tuple[int, int]

    def to_json(self, terrain_names: tuple[str, ...] = TERRAINS) -> dict[str, object]:
        return {
            "number": self.number,
            "terrains": [terrain_names[t] for t in self.terrains],
            "crowns": list(self.crowns),
        }


def load_dominoes(text: str, terrain_index: dict[str, int] = TERRAIN_INDEX) -> dict[int, Domino]:
    """Parse a domino CSV (number,left_terrain,left_crowns,right_terrain,right_crowns)."""
    out: dict[int, Domino] = {}
    for row in csv.DictReader(io.StringIO(text)):
        n = int(row["number"])
        out[n] = Domino(
            n,
            (terrain_index[row["left_terrain"]], terrain_index[row["right_terrain"]]),
            (int(row["left_crowns"]), int(row["right_crowns"])),
        )
    return out


def read_data(package: str, name: str) -> str:
    return resources.files(package).joinpath("data").joinpath(name).read_text(encoding="utf-8")


DOMINOES: dict[int, Domino] = load_dominoes(read_data(__package__ or __name__, "dominoes.csv"))
NUM_DOMINOES = len(DOMINOES)
