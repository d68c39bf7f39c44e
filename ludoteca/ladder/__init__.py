"""The bot ladder: each bot level a rated identity per game, a fixed yardstick.

A level's rating is measured by calibration (``ludoteca ladder calibrate``: the levels play
each other) and shipped in ``data/<game>.json``; play against people never moves it, the way an
engine rating list anchors its scale. The server reads the shipped ladder with ``ladder()``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ludoteca.bots import identity
from ludoteca.rating_scale import plus_minus, shown


@dataclass(frozen=True)
class Rung:
    """One level's calibrated rating (OpenSkill Plackett-Luce units) and how it was measured."""

    level: str
    identity: str
    """The participant name results and pools use: ``bot:<level>@<version>``."""
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> int:
        return shown(self.mu)

    @property
    def plus_minus(self) -> int:
        return plus_minus(self.sigma)


@dataclass(frozen=True)
class Ladder:
    game: str
    players: int
    rungs: tuple[Rung, ...]
    """Weakest first."""
    meta: dict[str, Any]
    """How it was calibrated (seed, games, date, budgets): shown to whoever asks."""

    def rung(self, level: str) -> Rung | None:
        return next((r for r in self.rungs if r.level == level), None)

    def anchor(self, level: str) -> Rung | None:
        """The level's rung if it was calibrated with today's bots (its identity names the
        current ``BOT_VERSION``): only then does its rating measure the bot that plays."""
        found = self.rung(level)
        return found if found is not None and found.identity == identity(level) else None


def from_json(data: dict[str, Any]) -> Ladder:
    rungs = tuple(
        Rung(level=r["level"], identity=r["identity"], mu=float(r["mu"]),
             sigma=float(r["sigma"]), games=int(r["games"]))
        for r in data["rungs"]
    )
    return Ladder(game=data["game"], players=int(data["players"]),
                  rungs=tuple(sorted(rungs, key=lambda r: r.mu)), meta=dict(data.get("meta", {})))


def ladder(game: str, folder: Path | None = None) -> Ladder | None:
    """The shipped ladder of ``game``, None where no calibration was shipped; with ``folder``,
    the one in ``folder/<game>.json`` instead (an operator's own calibration, a test's)."""
    path = (folder / f"{game}.json" if folder is not None
            else resources.files("ludoteca.ladder").joinpath("data", f"{game}.json"))
    if not path.is_file():
        return None
    return from_json(json.loads(path.read_text(encoding="utf-8")))


def shipped_path(game: str) -> Path:
    """The file of ``game``'s shipped ladder (where ``ladder calibrate`` writes by default)."""
    return Path(__file__).resolve().parent / "data" / f"{game}.json"
