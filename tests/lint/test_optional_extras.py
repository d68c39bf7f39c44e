"""``pip install -e '.[test]'`` alone collects and runs the suite (issue 38): the tests that need
the ``rl-train`` extra (torch, Stable-Baselines3, sb3-contrib) skip with the reason, and under
``LUDOTECA_REQUIRE_SERVICES=1`` (CI) its absence fails them instead.

Shown on a real ``pytest --collect-only`` of tests/rl in a process where those packages cannot
be imported (stand-ins first on ``PYTHONPATH`` whose import raises ``ImportError``), and kept
so by reading every test module: none imports them at module level before
``require_training()`` (tests/support/training_extra.py)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
TRAINING = ("torch", "stable_baselines3", "sb3_contrib")
TRAINING_MODULES = ("tests/rl/test_sb3_recipe.py", "tests/rl/test_training_examples.py")


def collect_without_training(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    hidden = tmp_path / "hidden"
    for name in TRAINING:
        (hidden / name).mkdir(parents=True, exist_ok=True)
        (hidden / name / "__init__.py").write_text(
            f"raise ImportError('{name} is hidden by tests/lint/test_optional_extras.py')\n")
    paths = [str(hidden), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    clean = {k: v for k, v in os.environ.items() if k != "LUDOTECA_REQUIRE_SERVICES"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-rs", "-p", "no:cacheprovider",
         *TRAINING_MODULES, "tests/rl/test_gym.py"],
        cwd=ROOT, env={**clean, "PYTHONPATH": os.pathsep.join(paths), **env},
        capture_output=True, text=True, timeout=300, check=False)


def test_collection_skips_without_the_training_extra_and_fails_when_required(
    tmp_path: Path,
) -> None:
    found = collect_without_training(tmp_path)
    out = found.stdout + found.stderr
    assert found.returncode == 0, out
    assert "tests/rl/test_gym.py: " in out  # the rest is collected (a count per module)
    skipped = f"SKIPPED [{len(TRAINING_MODULES)}] tests/support/training_extra.py"
    assert skipped in out and "the training extra is not installed" in out, out
    assert "torch is hidden" in out and "pip install -e '.[rl-train]'" in out

    required = collect_without_training(tmp_path, LUDOTECA_REQUIRE_SERVICES="1")
    out = required.stdout + required.stderr
    assert required.returncode != 0, out
    assert out.count("required: LUDOTECA_REQUIRE_SERVICES=1") >= len(TRAINING_MODULES), out


def module_level_training_imports(path: Path) -> list[int]:
    """Lines of ``path``'s module-level imports of a training package that come before a
    ``require_training()`` call (or with none at all)."""
    guarded = False
    found = []
    for node in ast.parse(path.read_text("utf-8")).body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "require_training"):
            guarded = True
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        if not guarded and any(n.split(".")[0] in TRAINING for n in names):
            found.append(node.lineno)
    return found


def test_no_test_module_imports_the_training_extra_unguarded() -> None:
    modules = [p for p in TESTS.rglob("*.py") if "node_modules" not in p.parts]
    assert len(modules) > 100
    bad = {str(p.relative_to(ROOT)): lines for p in modules
           if (lines := module_level_training_imports(p))}
    assert bad == {}, "call require_training() (tests/support/training_extra.py) first"


@pytest.mark.parametrize("source, lines", [
    ("import torch\n", [1]),
    ("from sb3_contrib.common import x\n", [1]),
    ("from training_extra import require_training\nrequire_training()\nimport torch\n", []),
    ("def f():\n    import torch\n", []),
])
def test_the_reading_finds_unguarded_imports(tmp_path: Path, source: str, lines: list[int]) -> None:
    path = tmp_path / "m.py"
    path.write_text(source)
    assert module_level_training_imports(path) == lines
