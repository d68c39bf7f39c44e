"""The 32 building tiles: the tables shipped as package data, one of which a match names.

A match picks its table with the ``buildings`` option (rules/queendomino.md; docs/queendomino.md
"Building tables"): ``inferred`` (the default) fills the tile sides nobody could read with the
INFERRED values of SOURCES.md §7.4; ``verified`` keeps only the effects read off a tile or the
rulebook and gives the unread sides none. Every shipped table is read and validated once, at
import, so a game does no I/O after import, and its SHA-256 goes into the match record
(``data_version``) so a record never replays against another table.

``parse_buildings`` and ``load_buildings`` check a candidate table (every row and column, with a
message naming the file, line and column) before it is shipped as a new choice.
"""

from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ludoteca.engine.errors import LudotecaError
from ludoteca.games.queendomino.components import TERRAIN_INDEX, TERRAINS

NUM_TILES = 32
MAX_CROWNS = 3  # the grid keeps 1-, 2- and 3-crown layers
MAX_VALUE = 99

NUMBER_COLUMNS = (
    "immediate_knights",
    "immediate_towers",
    "ongoing_coin_per_knight",
    "ongoing_coin_per_tower",
    "crowns",
    "end_points_fixed",
    "end_points_per_territory",
    "end_points_per_tower",
    "end_points_per_knight",
)
REQUIRED_COLUMNS = ("id", "name", *NUMBER_COLUMNS, "end_territory_terrain")


class BuildingTableError(LudotecaError, ValueError):
    """A building table file that cannot be used; the message names the file, row and column."""


@dataclass(frozen=True, slots=True)
class Building:
    """One tile: what building it gives at once, pays at each tax, and scores at the end."""

    id: int
    name: str
    knights: int  # immediate (grey side, upper left)
    towers: int
    coin_per_knight: int  # ongoing tax bonus (lower-left box)
    coin_per_tower: int
    crowns: int  # a crown of the town territory it stands in
    points: int  # end: fixed points
    per_territory: int  # end: points per separate territory of ``terrain`` ("2 / cross")
    terrain: int  # terrain index for ``per_territory``, -1 when none
    per_tower: int
    per_knight: int
    inferred: tuple[str, ...] = ()  # columns whose values are inferred, not verified

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "knights": self.knights,
            "towers": self.towers,
            "coin_per_knight": self.coin_per_knight,
            "coin_per_tower": self.coin_per_tower,
            "crowns": self.crowns,
            "points": self.points,
            "per_territory": self.per_territory,
            "terrain": TERRAINS[self.terrain] if self.terrain >= 0 else None,
            "per_tower": self.per_tower,
            "per_knight": self.per_knight,
            "inferred": bool(self.inferred),
            "inferred_fields": list(self.inferred),
        }


Table = tuple[Building, ...]  # indexed by id - 1


def parse_buildings(text: str, source: str = "building table") -> Table:
    """Validate and parse a building CSV; BuildingTableError says exactly what is wrong."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise BuildingTableError(f"{source}: missing column(s) {', '.join(missing)}")
    tiles: dict[int, Building] = {}
    for line, raw in enumerate(reader, start=2):
        row = {(k or "").strip(): (v or "").strip() for k, v in raw.items() if k is not None}
        where = f"{source}, line {line}"
        tile_id = _number(row, "id", where, 1, NUM_TILES)
        if tile_id in tiles:
            raise BuildingTableError(f"{where}: building id {tile_id} appears twice")
        name = row["name"]
        if not name:
            raise BuildingTableError(f"{where}: column 'name' is blank")
        top = {c: MAX_CROWNS if c == "crowns" else MAX_VALUE for c in NUMBER_COLUMNS}
        nums = {c: _number(row, c, where, 0, top[c]) for c in NUMBER_COLUMNS}
        terrain_name = row["end_territory_terrain"]
        if nums["end_points_per_territory"]:
            if terrain_name not in TERRAIN_INDEX:
                raise BuildingTableError(
                    f"{where}: column 'end_territory_terrain' must be one of "
                    f"{', '.join(TERRAINS)} when end_points_per_territory is set, "
                    f"not {terrain_name!r}"
                )
            terrain = TERRAIN_INDEX[terrain_name]
        elif terrain_name and terrain_name not in TERRAIN_INDEX:
            raise BuildingTableError(f"{where}: unknown terrain {terrain_name!r}")
        else:
            terrain = -1
        inferred = tuple(f for f in row.get("inferred", "").split(";") if f.strip())
        inferred = tuple(f.strip() for f in inferred)
        for f in inferred:
            if f not in NUMBER_COLUMNS:
                raise BuildingTableError(
                    f"{where}: column 'inferred' names {f!r}, which is not an effect column"
                )
        tiles[tile_id] = Building(
            tile_id, name,
            nums["immediate_knights"], nums["immediate_towers"],
            nums["ongoing_coin_per_knight"], nums["ongoing_coin_per_tower"],
            nums["crowns"], nums["end_points_fixed"], nums["end_points_per_territory"], terrain,
            nums["end_points_per_tower"], nums["end_points_per_knight"], inferred,
        )
    if len(tiles) != NUM_TILES:
        absent = [str(i) for i in range(1, NUM_TILES + 1) if i not in tiles]
        raise BuildingTableError(
            f"{source}: needs all {NUM_TILES} tiles (ids 1-{NUM_TILES}); "
            f"has {len(tiles)}, missing id(s) {', '.join(absent)}"
        )
    return tuple(tiles[i] for i in range(1, NUM_TILES + 1))


def _number(row: dict[str, str], column: str, where: str, lo: int, hi: int) -> int:
    text = row.get(column, "")
    if text == "":
        raise BuildingTableError(
            f"{where}: column {column!r} is blank; every effect needs a number (0 for none)"
        )
    if not (text.isascii() and text.isdigit()):  # "²" or "١" pass isdigit() alone
        raise BuildingTableError(f"{where}: column {column!r} must be a whole number, not {text!r}")
    value = int(text)
    if not lo <= value <= hi:
        raise BuildingTableError(f"{where}: column {column!r} must be {lo}-{hi}, not {value}")
    return value


def load_buildings(path: str | Path) -> Table:
    """A candidate building table from a CSV file, validated (for checking a table before it is
    shipped; games only play the shipped ones)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildingTableError(f"cannot read building table {path}: {exc}") from None
    return parse_buildings(text, str(path))


SHIPPED = {"inferred": "buildings.csv", "verified": "buildings_verified.csv"}
"""Building tables shipped as package data (``data/``), by the name the option uses."""
DEFAULT_TABLE = "inferred"


def _read_shipped() -> tuple[dict[str, Table], dict[str, str]]:
    tables, hashes = {}, {}
    folder = resources.files(__package__ or __name__).joinpath("data")
    for name, filename in SHIPPED.items():
        raw = folder.joinpath(filename).read_bytes()
        tables[name] = parse_buildings(raw.decode("utf-8"), filename)
        hashes[name] = hashlib.sha256(raw).hexdigest()
    return tables, hashes


TABLES, SHA256 = _read_shipped()


def table(name: str) -> Table:
    """The shipped table called ``name`` (an option value, already validated)."""
    return TABLES[name]


def default_buildings() -> Table:
    """The default table: 12 verified tiles and 20 with inferred effects (SOURCES.md §7.4)."""
    return TABLES[DEFAULT_TABLE]
