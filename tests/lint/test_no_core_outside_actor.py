"""Tables take only typed commands (issue 35): outside the table's own package
(``ludoteca/server/table/``), no module reads a ``.core`` attribute or imports ``TableCore``.
Routes, sockets, the hub and a tournament director hold a ``TableRef`` (``send``, ``snapshot``,
``subscribe``), so what a table is made of can change, or live in another process, unseen."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ludoteca"
ACTOR = PACKAGE / "server" / "table"


def reaches_in(source: str) -> list[str]:
    """Each ``.core`` attribute read or ``TableCore`` import in ``source``, with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "core":
            found.append(f"{node.lineno}: .core")
        elif isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: import TableCore" for alias in node.names
                      if alias.name == "TableCore"]
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {alias.name}" for alias in node.names
                      if alias.name.endswith(".table.core")]
    return found


def test_the_check_sees_both_kinds() -> None:
    assert reaches_in("actor.core.table.status\n") == ["1: .core"]
    assert reaches_in("from ludoteca.server.table.core import TableCore\n") == [
        "1: import TableCore"]
    assert reaches_in("from typer.core import TyperGroup\nref.snapshot().status\n") == []


def test_no_module_outside_the_actor_touches_the_core() -> None:
    modules = [p for p in PACKAGE.rglob("*.py") if ACTOR not in p.parents]
    assert len(modules) > 100
    found = {str(p.relative_to(ROOT)): hits for p in modules
             if (hits := reaches_in(p.read_text("utf-8")))}
    assert found == {}
