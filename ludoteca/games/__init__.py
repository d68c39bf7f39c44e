"""The game registry: each game module is imported on first use and registers one Game."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game

# name -> module that defines ``GAME``. Imported lazily so `ludoteca` starts fast.
_MODULES: dict[str, str] = {
    "kingdomino": "ludoteca.games.kingdomino.rules",
    "buttons": "ludoteca.games.buttons.rules",
    "queendomino": "ludoteca.games.queendomino.rules",
    "kami": "ludoteca.games.kami.rules",
    "goita": "ludoteca.games.kami.goita",
}

_CACHE: dict[str, Game[Any, Any]] = {}


def game_names() -> list[str]:
    return list(_MODULES)


def get_game(name: str) -> Game[Any, Any]:
    """The registered game called ``name``, or OptionError listing the known games."""
    game = _CACHE.get(name)
    if game is None:
        module = _MODULES.get(name)
        if module is None:
            raise OptionError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
        game = import_module(module).GAME
        _CACHE[name] = game
    return game


def all_games() -> list[Game[Any, Any]]:
    return [get_game(n) for n in _MODULES]
