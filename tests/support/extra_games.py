"""The test game, Nim (``tests/fifth_game/nim``, a package outside Ludoteca), registered the way an
operator adds a game: ``LUDOTECA_GAMES`` naming a package on the Python path (docs/engine.md).

tests/conftest.py calls ``register()`` for the whole run, so every suite that runs "for every
game" plays Nim too, in the test process and in every process it starts (they inherit the
variable and ``PYTHONPATH``); scripts that write files for every game (tests/golden/
playthrough.py, tests/webunit/golden.py) call it too."""

from __future__ import annotations

import os
import sys
from pathlib import Path

FIFTH_GAME = Path(__file__).resolve().parents[1] / "fifth_game"
TEST_GAMES = ("nim",)


def register() -> None:
    """Add the test games to ``LUDOTECA_GAMES`` and their folder to the paths (idempotent).
    Call it before anything asks the registry (it reads the variable once, on first use)."""
    if str(FIFTH_GAME) not in sys.path:
        sys.path.insert(0, str(FIFTH_GAME))
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(FIFTH_GAME) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(FIFTH_GAME), *paths])
    games = [g for g in os.environ.get("LUDOTECA_GAMES", "").split(",") if g.strip()]
    os.environ["LUDOTECA_GAMES"] = ",".join([*games, *(g for g in TEST_GAMES if g not in games)])


def python_path(*first: str) -> str:
    """``PYTHONPATH`` for a child process with ``first`` ahead of the run's own entries (which
    hold the test games' folder: a child that replaced them could not import the games that
    ``LUDOTECA_GAMES`` names)."""
    inherited = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([*first, *inherited])
