"""The games: one package each, declaring its registry entries in its ``__init__.py``.

``PACKAGES`` is the one list of games in the code: a new game is a new package here plus one
line. Everything else (search, terminal, tournaments, bench, ``ludoteca games``) asks the
registry. Entries load their games, bots and renderers on first use, so ``ludoteca`` starts fast.
"""

from __future__ import annotations

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


@cache
def registry() -> Registry:
    entries: list[GameEntry] = []
    for package in PACKAGES:
        entries.extend(import_module(package).ENTRIES)
    return Registry(entries)


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
