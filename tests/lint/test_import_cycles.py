"""No import cycle in ``ludoteca/``, not even a type-only one (DESIGN.md §1); and the checker
finds every kind of cycle."""

from __future__ import annotations

from pathlib import Path

from tools.import_cycles import ROOT, cycles, import_graph, main


def test_ludoteca_has_no_import_cycle() -> None:
    assert cycles(import_graph(ROOT / "ludoteca")) == []
    assert main([]) == 0


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_type_only_function_level_relative_and_package_cycles_are_found(tmp_path: Path) -> None:
    pkg = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n"
        ),
        "pkg/b.py": "import pkg.a\nB = 1\n",
        "pkg/c.py": "def f():\n    from . import d\n",
        "pkg/d.py": "from pkg.c import f\n",
        "pkg/sub/__init__.py": "from pkg.sub.e import E\n",
        "pkg/sub/e.py": "from pkg.sub import F\nE = 1\n",
        "pkg/leaf.py": "import os\nfrom pkg import a\n",
    })
    found = cycles(import_graph(pkg))
    assert found == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"], ["pkg.sub", "pkg.sub.e"]]
    kinds = {(e.source, e.kind) for e in import_graph(pkg)}
    assert ("pkg.a", "type-only") in kinds and ("pkg.c", "function") in kinds
    assert main([str(pkg)]) == 1
