"""Small modules (issue 22): none under ``ludoteca/server/`` or ``ludoteca/cli/`` over 500
lines, migrations aside, so each stays named after the one thing it holds."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "ludoteca"
LIMIT = 500


@pytest.mark.parametrize(("folder", "least"), [("server", 40), ("cli", 7)])
def test_no_module_is_over_500_lines(folder: str, least: int) -> None:
    root = PACKAGE / folder
    sizes = {str(p.relative_to(root)): len(p.read_text("utf-8").splitlines())
             for p in root.rglob("*.py") if "migrations" not in p.parts}
    assert len(sizes) > least  # the folder is where the test thinks it is
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
