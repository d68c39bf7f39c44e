"""The building table: shipped data, inferred tiles, and the operator's override file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludoteca.games.kingdomino.components import read_data
from ludoteca.games.queendomino import buildings as bmod
from ludoteca.games.queendomino.actions import Build, Place
from ludoteca.games.queendomino.buildings import (
    BuildingTableError,
    configured_buildings,
    default_buildings,
    load_buildings,
    parse_buildings,
)
from ludoteca.games.queendomino.rules import GAME, Queendomino

INFERRED_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 24, 25, 30, 31, 32]
SHIPPED = read_data("ludoteca.games.queendomino", "buildings.csv")


def test_shipped_table_matches_the_box_and_marks_inferred_tiles() -> None:
    """SOURCES.md §7.4: the 20 tiles whose immediate effects are inferred are marked; with them
    the buildings give 18 knights (+4 starting = 22) and 15 towers, the box counts."""
    tiles = default_buildings()
    assert len(tiles) == 32 and [t.id for t in tiles] == list(range(1, 33))
    assert [t.id for t in tiles if t.inferred] == INFERRED_IDS
    assert sum(t.knights for t in tiles) == 18 and sum(t.towers for t in tiles) == 15
    assert tiles[24].name == "Fortified Castle" and tiles[24].towers == 3
    assert tiles[29].towers == 1 and tiles[29].crowns == 1
    assert tiles[23].coin_per_knight == 1 and tiles[22].coin_per_tower == 1


def test_view_marks_inferred_buildings() -> None:
    """rules/queendomino.md (building effects): the inferred tiles are marked where a player can
    see building details."""
    s = GAME.setup({}, 4, 1)
    for space in GAME.view(s, 0)["board"]:
        b = space["building"]
        assert b["inferred"] is (b["id"] in INFERRED_IDS)
        assert bool(b["inferred_fields"]) is b["inferred"]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "buildings.csv"
    path.write_text(text, encoding="utf-8")
    return path


def edit(line_id: int, column: str, value: str) -> str:
    """The shipped CSV with one cell changed."""
    lines = SHIPPED.splitlines()
    header = lines[0].split(",")
    col = header.index(column)
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        if cells[0] == str(line_id):
            cells[col] = value
        out.append(",".join(cells))
    return "\n".join(out) + "\n"


def test_override_file_changes_the_effects(tmp_path: Path, monkeypatch) -> None:
    """rules/queendomino.md (building effects): a server operator can override the table with a
    file; the game then uses those effects (here: Queen's Towers give no tower)."""
    path = write(tmp_path, edit(30, "immediate_towers", "0"))
    table = load_buildings(path)
    assert table[29].towers == 0 and table[30].towers == 1
    game = Queendomino(buildings=table)
    s = game.setup({}, 4, 1)
    while s.phase == 0:
        (seat,) = game.to_act(s)
        game.apply(s, seat, game.legal_actions(s, seat)[0])
    (seat,) = game.to_act(s)
    cur = s.cur[:]
    cur[s.acting] = 46
    s.cur = cur
    s.board[0] = 30
    game.apply(s, seat, Place(1, 0, "E"))
    game.apply(s, seat, Build(0, 1, 0))
    assert s.towers[seat] == 0 and s.queen == -1
    view = game.view(s, seat)
    json.dumps(view)
    assert game.view(game.determinize(view, seat, s.rng.clone()), seat) == view
    monkeypatch.setenv(bmod.ENV_VAR, str(path))
    assert configured_buildings() == table
    monkeypatch.delenv(bmod.ENV_VAR)
    assert configured_buildings() == default_buildings()


def test_override_without_inferred_column(tmp_path: Path) -> None:
    """An operator's own table needs only the effect columns; nothing is then marked inferred."""
    keep = ["id", "name", *bmod.NUMBER_COLUMNS, "end_territory_terrain"]
    lines = SHIPPED.splitlines()
    header = lines[0].split(",")
    idx = [header.index(c) for c in keep]
    text = "\n".join(",".join(line.split(",")[i] for i in idx) for line in lines)
    table = load_buildings(write(tmp_path, text))
    assert not any(t.inferred for t in table)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (SHIPPED.replace("immediate_towers", "towers_now"), "missing column(s) immediate_towers"),
        ("\n".join(SHIPPED.splitlines()[:-1]), "missing id(s) 32"),
        (SHIPPED.replace("\n32,", "\n31,"), "id 31 appears twice"),
        (edit(5, "immediate_knights", ""), "'immediate_knights' is blank"),
        (edit(5, "immediate_knights", "one"), "must be a whole number"),
        (edit(5, "immediate_knights", "-1"), "must be a whole number"),
        (edit(5, "immediate_knights", "\u00b2"), "must be a whole number"),
        (edit(5, "immediate_knights", "\u0661"), "must be a whole number"),
        (edit(30, "crowns", "4"), "'crowns' must be 0-3"),
        (edit(1, "end_territory_terrain", "desert"), "must be one of wheat"),
        (edit(15, "end_territory_terrain", "sand"), "unknown terrain 'sand'"),
        (edit(1, "id", "33"), "'id' must be 1-32"),
        (edit(1, "name", ""), "'name' is blank"),
        (edit(1, "inferred", "colour"), "not an effect column"),
        ("", "missing column(s) id"),
    ],
)
def test_bad_override_files(tmp_path: Path, text: str, words: str) -> None:
    """Bad building files fail at load with a message naming the problem (DESIGN.md §5;
    rules/queendomino.md: the operator's table is validated). Non-ASCII digits such as "²" or
    "١" are refused too: ``str.isdigit`` alone let one crash ``int()`` and read the other as 1."""
    with pytest.raises(BuildingTableError) as err:
        load_buildings(write(tmp_path, text))
    assert words in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unreadable_override_file(tmp_path: Path, monkeypatch) -> None:
    """A missing or binary file is a clear BuildingTableError, also through the env variable."""
    with pytest.raises(BuildingTableError, match="cannot read"):
        load_buildings(tmp_path / "nope.csv")
    bad = tmp_path / "bin.csv"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BuildingTableError, match="cannot read"):
        load_buildings(bad)
    monkeypatch.setenv(bmod.ENV_VAR, str(tmp_path / "nope.csv"))
    with pytest.raises(BuildingTableError, match=r"nope\.csv"):
        Queendomino()


def test_parse_names_the_line() -> None:
    """Errors name the file and line so an operator can fix it."""
    with pytest.raises(BuildingTableError, match=r"ops\.csv, line 6"):
        parse_buildings(edit(5, "crowns", "x"), "ops.csv")
