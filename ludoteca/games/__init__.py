"""The games: one package each, declaring its registry entries in its ``__init__.py``.

``PACKAGES`` is the one list of games in the code: a new game is a new package here plus one
line. Everything else (search, terminal, tournaments, bench, ``ludoteca games``) asks the
registry. Entries load their games, bots and renderers on first use, so ``ludoteca`` starts fast.

An operator (or a test run) adds game packages that live outside Ludoteca with
``LUDOTECA_GAMES``: importable package names, comma-separated, each with ``ENTRIES`` like the
packages here (docs/engine.md, "Games from outside Ludoteca"). Every process that plays the
games reads it: ``ludoteca serve``, its bot processes, ``ludoteca worker`` and the commands.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import import_module
from typing import Any

from ludoteca.engine.game import Game
from ludoteca.engine.registry import GameEntry, Registry

PACKAGES: tuple[str, ...] = (
    "ludoteca.games.kingdomino",
    "ludoteca.games.queendomino",
    "ludoteca.games.buttons",
    "ludoteca.games.kami",
)

EXTRA_GAMES = "LUDOTECA_GAMES"
"""The environment variable naming extra game packages (comma-separated module names)."""


class GamesError(ValueError):
    """``LUDOTECA_GAMES`` names a package the registry cannot take. The message is the one line
    the operator sees (``ludoteca`` prints it and exits with status 2)."""


def extra_packages() -> tuple[str, ...]:
    """The packages ``LUDOTECA_GAMES`` adds, in its order."""
    raw = os.environ.get(EXTRA_GAMES, "")
    return tuple(name.strip() for name in raw.split(",") if name.strip())


def _entries(package: str) -> tuple[GameEntry, ...]:
    """``package``'s ``ENTRIES``; a package named in ``LUDOTECA_GAMES`` that cannot be imported
    or declares no entries is a ``GamesError`` naming it (a shipped one's failure is a bug, and
    keeps its traceback)."""
    if package in PACKAGES:
        return tuple(import_module(package).ENTRIES)
    where = f"{EXTRA_GAMES} names {package!r}"
    try:
        module = import_module(package)
    except ImportError as exc:
        raise GamesError(f"{where}, which cannot be imported ({exc}): give importable game "
                         "packages, comma-separated, on the Python path") from None
    entries = getattr(module, "ENTRIES", None)
    if not isinstance(entries, (tuple, list)) or not entries or not all(
            isinstance(e, GameEntry) for e in entries):
        raise GamesError(f"{where}, which is not a game package: it must declare ENTRIES, "
                         "a tuple of ludoteca.engine.registry.GameEntry (docs/engine.md)")
    return tuple(entries)


@cache
def registry() -> Registry:
    entries: list[GameEntry] = []
    for package in (*PACKAGES, *extra_packages()):
        entries.extend(_entries(package))
    try:
        return Registry(entries)
    except ValueError as exc:  # two games of one name: an extra package repeats one
        raise GamesError(f"{EXTRA_GAMES} ({os.environ.get(EXTRA_GAMES)!r}): {exc}") from None


def game_names() -> list[str]:
    return registry().names()


def entry(name: str) -> GameEntry:
    """The registry entry of ``name`` (case-insensitive), or OptionError listing the games."""
    return registry().entry(name)


def get_game(name: str) -> Game[Any, Any]:
    """The registered game called ``name`` (case-insensitive), or OptionError listing them."""
    return registry().game(name)


def all_games() -> list[Game[Any, Any]]:
    return [get_game(n) for n in game_names()]
