"""Our own layout sets (rules/buttons.md §1.2): generated, checked, shipped, chosen by an option,
named in the match record."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from ludoteca.engine.errors import OptionError, RecordError
from ludoteca.engine.match import Match, replay
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons import layouts
from ludoteca.games.buttons.layouts import LayoutError
from ludoteca.games.buttons.rules import GAME, board_masks

DATA = resources.files("ludoteca.games.buttons").joinpath("data")


@pytest.mark.parametrize(("name", "seed"), sorted(layouts.GENERATED.items()))
def test_shipped_files_are_the_generators_output(name: str, seed: int) -> None:
    """rules/buttons.md §1.2: fixed seeded layouts; each shipped set is exactly that output."""
    text = DATA.joinpath(f"layouts-{name}.json").read_text(encoding="utf-8")
    assert json.loads(text) == layouts.to_json(layouts.generate(seed), name, seed)
    assert layouts.generate(seed) == layouts.generate(seed), "deterministic"
    assert list(layouts.get(name)) == layouts.generate(seed)


@pytest.mark.parametrize("name", sorted(layouts.GENERATED))
def test_shipped_layouts_meet_the_recommended_constraints(name: str) -> None:
    """rules/buttons.md §1.2: 9 cells per colour, each colour spread over every row and column,
    all 8 pairwise different (even turned, mirrored or recoloured)."""
    table = list(layouts.get(name))
    assert layouts.check_all(table) == []
    for lay in table:
        assert sorted("".join(lay).count(x) for x in "RYGB") == [9, 9, 9, 9]


def test_the_two_shipped_sets_differ_and_default_comes_first() -> None:
    """rules/buttons.md §1.2: the alternate set shares no board with ours, even up to symmetry;
    the option offers every set, ``ludoteca`` (the default) first."""
    ours = {layouts.canonical(lay) for lay in layouts.get()}
    alternate = {layouts.canonical(lay) for lay in layouts.get("alternate")}
    assert not ours & alternate
    assert layouts.NAMES[0] == layouts.DEFAULT == "ludoteca"
    assert {"ludoteca", "alternate"} <= set(layouts.NAMES)
    option = next(o for o in GAME.spec.options if o.name == "layouts")
    assert option.default == "ludoteca" and option.choices == layouts.NAMES


def test_checker_catches_problems() -> None:
    """rules/buttons.md §1.2: the checker refuses unbalanced, clumped or repeated layouts."""
    table = list(layouts.get())
    clumped = ("RRRYYY", "RRRYYY", "RRRYYY", "GGGBBB", "GGGBBB", "GGGBBB")
    assert layouts.problems(clumped)
    turned = tuple("".join(row) for row in zip(*table[0][::-1], strict=True))
    assert any("same board" in p for p in layouts.check_all([*table[:7], turned]))
    assert any("not 8" in p for p in layouts.check_all(table[:7]))


def test_the_option_deals_from_the_named_set() -> None:
    """rules/buttons.md §2 item 1: with ``boards=fixed`` seat i plays layout i of the chosen set;
    the view shows that board."""
    for name in ("ludoteca", "alternate"):
        s = GAME.setup({"boards": "fixed", "layouts": name}, 4, 0)
        for seat in range(4):
            assert s.boards[seat] == board_masks(layouts.get(name)[seat])
            assert GAME.view(s, seat)["seats"][seat]["board"] == list(layouts.get(name)[seat])


def test_data_version_names_the_set_and_its_hash() -> None:
    """DESIGN.md §2: the record names the data a match played with."""
    for name in ("ludoteca", "alternate"):
        opts = GAME.validate({"layouts": name}, 2)
        assert GAME.data_version(opts) == {
            "layouts": name,
            "layouts_sha256": layouts.digest(layouts.get(name)),
        }
    assert layouts.HASHES["ludoteca"] != layouts.HASHES["alternate"]
    assert GAME.data_version({}) == GAME.data_version(GAME.validate(None, 2))


def _write(folder: Path, name: str, data: object) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    (folder / f"layouts-{name}.json").write_text(text, encoding="utf-8")


def test_an_operator_set_is_found_and_dealt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rules/buttons.md §1.2: an operator adds a ``layouts-<name>.json`` file of the same shape;
    it need not meet the recommended balance, only the format. (The package's own data folder
    is read at import; here a folder of our own stands in for it.)"""
    own = [list(lay) for lay in layouts.generate(seed=11)]
    own[0] = ["RRRRRR"] * 6
    _write(tmp_path, "real", {"format": layouts.FORMAT, "layouts": own})
    (tmp_path / "notes.txt").write_text("not a layouts file")
    sets, broken = layouts.discover(tmp_path)
    assert list(sets) == ["real"] and broken == {}
    monkeypatch.setitem(layouts.SETS, "real", sets["real"])
    s = GAME.start({"winner": "bga", "boards": "fixed", "layouts": "real"}, 2, 0)
    assert s.boards[0] == board_masks(("RRRRRR",) * 6)
    assert GAME.view(s, 0)["seats"][0]["board"] == ["RRRRRR"] * 6


BAD = [
    ("not json", "not valid JSON"),
    ([], "JSON object"),
    ({"layouts": "x"}, "list of 8"),
    ({"layouts": [["RYGBRY"] * 6] * 7}, "exactly 8"),
    ({"layouts": [["RYGBRY"] * 5] * 8}, "layout 1 must be"),
    ({"layouts": [["RYGBRX"] * 6] * 8}, "use only R, Y, G, B"),
    ({"layouts": [["RYGBR"] * 6] * 8}, "string of 6"),
    ({"layouts": [["RYGBRY"] * 6] * 8}, "identical"),
    ({"format": "other", "layouts": []}, "format"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_operator_files_are_refused_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: object, message: str
) -> None:
    """rules/buttons.md §1.2: a bad set is still listed, and a table that picks it is refused
    with the reason (an option error, before any setup)."""
    _write(tmp_path, "bad", data)
    sets, broken = layouts.discover(tmp_path)
    assert sets == {} and message in broken["bad"] and "layouts-bad.json" in broken["bad"]
    monkeypatch.setitem(layouts.BROKEN, "bad", broken["bad"])
    with pytest.raises(LayoutError, match=message):
        layouts.get("bad")
    with pytest.raises(OptionError, match=message):
        GAME._check_options({"layouts": "bad"}, 2)


def test_binary_operator_file(tmp_path: Path) -> None:
    """rules/buttons.md §1.2: a file that is not text is named as such."""
    (tmp_path / "layouts-bin.json").write_bytes(b"\xff\xfe\x00")
    assert "not UTF-8" in layouts.discover(tmp_path)[1]["bin"]


def test_games_read_no_file_and_no_environment_after_import() -> None:
    """DESIGN.md §2: the sets are read once, at import; the old environment variable is gone."""
    source = Path(layouts.__file__).read_text(encoding="utf-8")
    assert "environ" not in source and "LUDOTECA_BUTTONS_LAYOUTS" not in source
    assert not hasattr(layouts, "current")


def _played(options: dict[str, str], players: int, seed: int) -> Match:
    match = Match.new(GAME, options, players, seed, narrate=False)
    rng = Rng(seed)
    while not match.is_over():
        seats = sorted(match.to_act())
        seat = seats[rng.below(len(seats))]
        legal = match.legal(seat)
        match.step(seat, legal[rng.below(len(legal))])
    return match


REPLAY = """
import json, sys
from ludoteca.engine.match import replay
from ludoteca.engine.record import MatchRecord
from ludoteca.games.buttons.rules import GAME
record = MatchRecord.load(sys.argv[1])
final = replay(GAME, record)
print(json.dumps({"view": GAME.view(final, None), "stars": final.stars,
                  "boards": [list(b) for b in final.boards]}))
"""


def test_a_record_with_the_alternate_set_replays_in_a_fresh_process(tmp_path: Path) -> None:
    """DESIGN.md §2 and issue 12 ("must show"): a record played with non-default layouts
    replays identically in a new process with no environment variable at all."""
    match = _played({"layouts": "alternate", "boards": "random"}, 3, 5)
    record = match.record
    assert record.data == {"layouts": "alternate", "layouts_sha256": layouts.HASHES["alternate"]}
    path = tmp_path / "match.json"
    record.save(path)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", REPLAY, str(path)],
        env={}, cwd=root, capture_output=True, text=True, timeout=120, check=True,
    )
    got = json.loads(done.stdout)
    final = match.state
    assert got["view"] == json.loads(json.dumps(GAME.view(final, None)))
    assert got["stars"] == final.stars
    assert got["boards"] == [list(b) for b in final.boards]
    alternate = {board_masks(lay) for lay in layouts.get("alternate")}
    assert {tuple(b) for b in got["boards"]} <= alternate


def test_a_record_names_its_layouts_and_refuses_others(tmp_path: Path) -> None:
    """DESIGN.md §2: a record whose layouts differ from this installation's does not replay
    silently against other boards; a record without the field (format v1) uses its option."""
    record = _played({"layouts": "alternate"}, 2, 3).record
    tampered = MatchRecord.from_json({**record.to_json(), "data": {
        "layouts": "alternate", "layouts_sha256": "0" * 64}})
    with pytest.raises(RecordError, match="layouts_sha256"):
        replay(GAME, tampered)
    old = MatchRecord.from_json({**record.to_json(), "version": 1, "data": {}})
    assert replay(GAME, old) == replay(GAME, record)
    with pytest.raises(RecordError, match="layouts"):
        replay(GAME, MatchRecord.from_json(
            {**record.to_json(), "options": {**record.options, "layouts": "gone"}, "data": {}}))
