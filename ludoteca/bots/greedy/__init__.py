"""The greedy bot: one ply of lookahead with a per-game evaluator.

Each game has a module ``ludoteca.bots.greedy.<game>`` with
``choose(game, view, seat, rng) -> action``: it determinizes the view (so it never sees hidden
information) and picks the action with the best immediate value by that game's measure.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng

_MODULES: dict[str, str] = {
    "kingdomino": "ludoteca.bots.greedy.kingdomino",
    "queendomino": "ludoteca.bots.greedy.queendomino",
    "buttons": "ludoteca.bots.greedy.buttons",
    "kami": "ludoteca.bots.greedy.kami",
    "goita": "ludoteca.bots.greedy.kami",
}


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game[Any, Any], view: JSON, seat: Seat) -> Any:
        module = _MODULES.get(game.spec.name)
        if module is None:
            raise OptionError(f"the greedy bot cannot play {game.spec.name} yet")
        return import_module(module).choose(game, view, seat, self.rng)
