"""The building tables: shipped data, inferred tiles, the ``buildings`` option, the data version
in match records, and checking a candidate table file."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from ludoteca.engine.errors import OptionError
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.components import read_data
from ludoteca.games.queendomino import buildings as bmod
from ludoteca.games.queendomino.actions import Build, Place
from ludoteca.games.queendomino.buildings import (
    SHIPPED as TABLE_FILES,
)
from ludoteca.games.queendomino.buildings import (
    BuildingTableError,
    default_buildings,
    load_buildings,
    parse_buildings,
    table,
)
from ludoteca.games.queendomino.rules import GAME

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


def test_verified_table_gives_only_what_was_read() -> None:
    """docs/queendomino.md "Building tables": the ``verified`` table keeps every effect read off
    a tile or the rulebook and gives the 20 unread sides nothing (SOURCES.md §3, §7.4)."""
    inferred, verified = table("inferred"), table("verified")
    assert not any(t.inferred for t in verified)
    for a, b in zip(inferred, verified, strict=True):
        assert (a.name, a.crowns, a.points, a.per_territory, a.terrain) == (
            b.name, b.crowns, b.points, b.per_territory, b.terrain)
        for column, field in [("immediate_knights", "knights"), ("immediate_towers", "towers"),
                              ("ongoing_coin_per_knight", "coin_per_knight"),
                              ("ongoing_coin_per_tower", "coin_per_tower")]:
            expected = 0 if column in a.inferred else getattr(a, field)
            assert getattr(b, field) == expected
    assert sum(t.knights for t in verified) == 11 and sum(t.towers for t in verified) == 9


def test_the_option_picks_the_table() -> None:
    """rules/queendomino.md (building effects): with ``buildings=verified`` a Queen's Tower gives
    no tower, so building it does not bring the Queen; views say which table is in play and
    determinize rebuilds the same position."""
    s = GAME.setup({"buildings": "verified"}, 4, 1)
    while s.phase == 0:
        (seat,) = GAME.to_act(s)
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[0])
    (seat,) = GAME.to_act(s)
    cur = s.cur[:]
    cur[s.acting] = 46
    s.cur = cur
    s.board[0] = 30
    GAME.apply(s, seat, Place(1, 0, "E"))
    GAME.apply(s, seat, Build(0, 1, 0))
    assert s.towers[seat] == 0 and s.queen == -1
    view = GAME.view(s, seat)
    assert view["options"]["buildings"] == "verified"
    json.dumps(view)
    assert GAME.view(GAME.determinize(view, seat, Rng(3)), seat) == view
    with pytest.raises(OptionError, match="must be one of: inferred, verified"):
        GAME.setup({"buildings": "/etc/passwd"}, 4, 1)


def test_data_version_names_the_table_and_its_hash() -> None:
    """DESIGN.md §2: a record names the building table (and a hash of its content)."""
    for name, filename in TABLE_FILES.items():
        raw = resources.files("ludoteca.games.queendomino").joinpath("data", filename).read_bytes()
        assert GAME.data_version({"buildings": name}) == {
            "buildings": name, "buildings_sha256": hashlib.sha256(raw).hexdigest()}
    assert GAME.data_version({})["buildings"] == "inferred"
    assert GAME.data_version(GAME.validate({}, 2)) == GAME.data_version({})


def test_no_environment_variable_is_read() -> None:
    """Issue 12 item 6: the game reads no environment variable and no file after import."""
    source = Path(bmod.__file__).read_text(encoding="utf-8")
    assert "environ" not in source and "getenv" not in source


REPLAY = """
import json, sys
from ludoteca.engine.match import replay
from ludoteca.engine.record import MatchRecord
from ludoteca.games.queendomino.rules import GAME
record = MatchRecord.load(sys.argv[1])
final = replay(GAME, record)
print(json.dumps({"view": GAME.view(final, None), "outcome": GAME.outcome(final).to_json()}))
"""


def test_a_record_with_the_verified_table_replays_in_a_fresh_process(tmp_path: Path) -> None:
    """Issue 12 item 6: a match played with the non-default table, saved as a MatchRecord,
    replays identically in a fresh process with no environment variables."""
    match = Match.new(GAME, {"buildings": "verified"}, 3, 11, narrate=False)
    rng = Rng(5)
    while not match.is_over():
        (seat,) = match.to_act()
        legal = match.legal(seat)
        match.step(seat, legal[rng.below(len(legal))])
    record = match.record
    assert record.data == GAME.data_version({"buildings": "verified"})
    path = tmp_path / "verified.json"
    record.save(path)
    assert replay(GAME, MatchRecord.load(path)) == match.state
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", REPLAY, str(path)],
        capture_output=True, text=True, env={}, cwd=root, check=True, timeout=120,
    )
    replayed = json.loads(done.stdout)
    assert replayed["view"] == json.loads(json.dumps(GAME.view(match.state, None)))
    assert replayed["outcome"] == json.loads(json.dumps(match.outcome.to_json()))  # type: ignore[union-attr]


def test_candidate_table_without_inferred_column(tmp_path: Path) -> None:
    """A candidate table needs only the effect columns; nothing is then marked inferred."""
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
def test_bad_table_files(tmp_path: Path, text: str, words: str) -> None:
    """Bad building files fail at load with a message naming the problem (DESIGN.md §5; a
    table is validated in full before it is shipped). Non-ASCII digits such as "²" or
    "١" are refused too: ``str.isdigit`` alone let one crash ``int()`` and read the other as 1."""
    with pytest.raises(BuildingTableError) as err:
        load_buildings(write(tmp_path, text))
    assert words in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unreadable_table_file(tmp_path: Path) -> None:
    """A missing or binary file is a clear BuildingTableError."""
    with pytest.raises(BuildingTableError, match="cannot read"):
        load_buildings(tmp_path / "nope.csv")
    bad = tmp_path / "bin.csv"
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(BuildingTableError, match="cannot read"):
        load_buildings(bad)


def test_parse_names_the_line() -> None:
    """Errors name the file and line so a table can be fixed."""
    with pytest.raises(BuildingTableError, match=r"ops\.csv, line 6"):
        parse_buildings(edit(5, "crowns", "x"), "ops.csv")
