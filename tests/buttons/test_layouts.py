"""Our own 8 layouts (rules/buttons.md §1.2): generated, checked, shipped, replaceable."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from ludoteca.games.buttons import layouts
from ludoteca.games.buttons.layouts import ENV_VAR, LayoutError
from ludoteca.games.buttons.rules import GAME, board_masks


def test_shipped_file_is_the_generators_output() -> None:
    """rules/buttons.md §1.2: 8 fixed seeded layouts; the package data is exactly that output."""
    text = resources.files("ludoteca.games.buttons").joinpath("data/layouts.json").read_text()
    assert json.loads(text) == layouts.to_json(layouts.generate())
    assert layouts.generate() == layouts.generate(), "deterministic"


def test_shipped_layouts_meet_the_recommended_constraints() -> None:
    """rules/buttons.md §1.2: 9 cells per colour, each colour spread over every row and column,
    all 8 pairwise different (even turned, mirrored or recoloured)."""
    table = layouts.shipped()
    assert layouts.check_all(table) == []
    for lay in table:
        assert sorted("".join(lay).count(x) for x in "RYGB") == [9, 9, 9, 9]


def test_checker_catches_problems() -> None:
    """rules/buttons.md §1.2: the checker refuses unbalanced, clumped or repeated layouts."""
    table = layouts.shipped()
    clumped = ("RRRYYY", "RRRYYY", "RRRYYY", "GGGBBB", "GGGBBB", "GGGBBB")
    assert layouts.problems(clumped)
    turned = tuple("".join(row) for row in zip(*table[0][::-1], strict=True))
    assert any("same board" in p for p in layouts.check_all([*table[:7], turned]))
    assert any("not 8" in p for p in layouts.check_all(table[:7]))


def _write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "layouts.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_operator_file_replaces_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """rules/buttons.md §1.2: an operator may replace the table (env LUDOTECA_BUTTONS_LAYOUTS)."""
    own = [list(lay) for lay in layouts.generate(seed=7)]
    own[0] = ["RRRRRR"] * 6  # a file need not meet the recommended balance, only the format
    monkeypatch.setenv(ENV_VAR, _write(tmp_path, {"layouts": own}))
    s = GAME.setup({"boards": "fixed"}, 2, 0)
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
    """rules/buttons.md §1.2: a bad replacement file gives a clear error at table setup."""
    monkeypatch.setenv(ENV_VAR, _write(tmp_path, data))
    with pytest.raises(LayoutError, match=message):
        GAME.setup(None, 2, 0)


def test_missing_operator_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """rules/buttons.md §1.2: a missing file is named in the error."""
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nope.json"))
    with pytest.raises(LayoutError, match="cannot read"):
        GAME.setup(None, 2, 0)
