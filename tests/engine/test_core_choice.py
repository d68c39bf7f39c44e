"""``LUDOTECA_CORE`` picks the core (ludoteca/engine/native.py): ``python`` always works,
``native`` without the build is a clear error, ``auto`` falls back and the choice is logged once.
"Without the build" is the real import failing: the module blocked in ``sys.modules``."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from extra_games import python_path

from ludoteca.engine import native
from ludoteca.engine.native import CoreUnavailable, core_setting, which_core

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import sys
if sys.argv[1] == "absent":  # as where it was never built: importing it fails
    sys.modules["ludoteca_native"] = None
    sys.modules["ludoteca_native._core"] = None
from ludoteca.engine.playout import GAME, RANDOM
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
game = get_game("kingdomino")
for seed, policy in enumerate((RANDOM, GAME)):
    state = game.setup(None, 2, seed)
    game.playout(state, policy, Rng(seed))
    print(game.outcome(state).scores)
print("ludoteca_native" in sys.modules and sys.modules["ludoteca_native"] is not None)
"""
"""Kingdomino's playouts to the end with both policies the native core plays (random, the
game's own): the one place a match runs on the native core; then whether it was imported."""


def block_native(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ludoteca_native", None)
    monkeypatch.setitem(sys.modules, "ludoteca_native._core", None)


def test_the_setting_is_checked() -> None:
    assert core_setting({}) == "auto"
    assert core_setting({"LUDOTECA_CORE": " Native "}) == "native"
    with pytest.raises(CoreUnavailable, match="auto, native, python"):
        core_setting({"LUDOTECA_CORE": "rust"})


def test_python_is_always_there(monkeypatch: pytest.MonkeyPatch) -> None:
    block_native(monkeypatch)
    assert which_core({"LUDOTECA_CORE": "python"}) == "python"
    assert which_core({"LUDOTECA_CORE": "auto"}) == "python"


def test_native_without_the_build_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    block_native(monkeypatch)
    with pytest.raises(CoreUnavailable, match=r"not installed: pip install \./native"):
        which_core({"LUDOTECA_CORE": "native"})
    with pytest.raises(CoreUnavailable, match="not installed"):
        native.native_core()


def test_a_core_built_before_a_game_was_native_says_to_rebuild(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's submodule missing from the installed core (built before the game was native)
    is a ``CoreUnavailable`` naming the game and the rebuild, not an AttributeError."""
    old_core = type(sys)("ludoteca_native._core")
    monkeypatch.setitem(sys.modules, "ludoteca_native._core", old_core)
    with pytest.raises(CoreUnavailable, match=r"has no buttons: .* rebuild it \(pip install"):
        native.native_game("buttons")
    old_core.buttons = "the submodule"  # type: ignore[attr-defined]
    assert native.native_game("buttons") == "the submodule"
    block_native(monkeypatch)
    with pytest.raises(CoreUnavailable, match="not installed"):
        native.native_game("buttons")


def test_the_choice_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    block_native(monkeypatch)
    monkeypatch.setattr(native, "_chosen", None)
    monkeypatch.setenv("LUDOTECA_CORE", "auto")
    with caplog.at_level(logging.INFO, logger="ludoteca.core"):
        assert native.chosen_core() == "python"
        assert native.chosen_core() == "python"
        monkeypatch.setenv("LUDOTECA_CORE", "python")  # a new setting is decided (and said) anew
        assert native.chosen_core() == "python"
    said = [r.getMessage() for r in caplog.records if r.name == "ludoteca.core"]
    assert said == ["engine core: python (the native core: not installed)",
                    "engine core: python (the native core: LUDOTECA_CORE=python)"]


def test_auto_takes_the_native_core_when_it_is_built() -> None:
    built = native.load_native() is not None
    assert which_core({"LUDOTECA_CORE": "auto"}) == ("native" if built else "python")
    assert which_core({"LUDOTECA_CORE": "python"}) == "python"


def test_make_says_the_python_engines_play_where_no_compiler_is(tmp_path: Path) -> None:
    """The Makefile's fallback, run for real with no compiler on the PATH (the venv given is
    this one, so nothing is installed)."""
    make = shutil.which("make")
    assert make is not None
    done = subprocess.run(
        [make, "--no-print-directory", "native", f"VENV={sys.prefix}"],
        cwd=ROOT, env={"PATH": str(tmp_path), "CXX": "no-such-compiler"},
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "No C++ compiler (c++, g++): the native core is not built" in done.stdout


def play(core: str | None, package: str) -> subprocess.CompletedProcess[str]:
    """``PLAY`` in a fresh process, with ``LUDOTECA_CORE=core`` (unset: None) and the native
    package ``installed`` as it is here or ``absent``."""
    env = {k: v for k, v in os.environ.items() if k != "LUDOTECA_CORE"}
    env["PYTHONPATH"] = python_path(str(ROOT))
    if core is not None:
        env["LUDOTECA_CORE"] = core
    return subprocess.run([sys.executable, "-c", PLAY, package], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_engines_play_without_the_native_package() -> None:
    """A machine with no compiler (the package absent, the default setting) plays the same
    matches as ``LUDOTECA_CORE=python``, which never imports the package even where it is
    installed, and as this installation's own choice (the native core in CI)."""
    python = play("python", "installed")
    assert python.returncode == 0, python.stderr
    *scores, imported = python.stdout.splitlines()
    assert len(scores) == 2 and imported == "False"
    for core, package in ((None, "absent"), (None, "installed")):
        done = play(core, package)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[:2] == scores


def test_native_without_the_package_stops_with_how_to_build_it() -> None:
    done = play("native", "absent")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "ludoteca.engine.native.CoreUnavailable: LUDOTECA_CORE=native but the native core "
        "(ludoteca_native._core) is not installed: pip install ./native (needs a C++17 "
        "compiler and CMake; `make install` does it)")
