"""Small modules (issue 22): none under ``ludoteca/server/`` over 500 lines, migrations
aside, so each stays named after the one thing it holds."""

from __future__ import annotations

from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "ludoteca" / "server"
LIMIT = 500


def test_no_server_module_is_over_500_lines() -> None:
    sizes = {str(p.relative_to(SERVER)): len(p.read_text("utf-8").splitlines())
             for p in SERVER.rglob("*.py") if "migrations" not in p.parts}
    assert len(sizes) > 40
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
