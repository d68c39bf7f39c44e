"""A table's core owns plain state (issue 35): ``TableCore`` and the modules it is made of
(its state, its effects, its snapshot, the clock rules) never import the store, its rows or
SQLAlchemy, directly or through any module they import. Rows become plain state in the store
layer (``server/state_rows.py``), so the core is tested without a database and nothing it holds
is written behind its back."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLAIN = ("ludoteca.server.table.core", "ludoteca.server.table.state",
         "ludoteca.server.table.effects", "ludoteca.server.table.snapshot",
         "ludoteca.server.table.view", "ludoteca.server.table.log_items",
         "ludoteca.server.clocks")
"""The core and the modules of plain state and rules it is made of."""
FORBIDDEN = ("sqlalchemy", "ludoteca.server.db", "ludoteca.server.store",
             "ludoteca.server.state_rows")


def source_of(module: str) -> Path | None:
    """The file of a module of ours (None: not ours, or a name inside a module)."""
    base = ROOT.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imports(source: str) -> list[tuple[int, str]]:
    """Each module ``source`` imports, with its line (``from a import b``: ``a`` and ``a.b``,
    since ``b`` may be a module)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)


def reached(start: str) -> dict[str, list[str]]:
    """Every module of ours ``start`` imports, directly or not (its parent packages too), and
    the forbidden imports found in each, as ``line: name``."""
    seen: dict[str, list[str]] = {}
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        parts = module.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        path = source_of(module)
        if path is None:
            continue
        seen[module] = []
        for line, name in imports(path.read_text("utf-8")):
            if forbidden(name):
                seen[module].append(f"{line}: {name}")
            elif name.startswith("ludoteca.") and source_of(name) is not None:
                todo.append(name)
    return seen


def test_the_check_sees_a_forbidden_import_however_it_is_spelled() -> None:
    assert forbidden("sqlalchemy.orm") and forbidden("ludoteca.server.db")
    assert not forbidden("ludoteca.server.dbx") and not forbidden("ludoteca.server.table.state")
    found = imports("from ludoteca.server import db\nimport sqlalchemy as sa\n")
    assert [name for _, name in found if forbidden(name)] == ["ludoteca.server.db", "sqlalchemy"]


def test_the_core_and_its_plain_state_reach_no_database_code() -> None:
    for start in PLAIN:
        found = reached(start)
        assert start in found, start  # the module exists and was read
        assert {m: hits for m, hits in found.items() if hits} == {}, start
    assert "ludoteca.server.table.state" in reached("ludoteca.server.table.core")
