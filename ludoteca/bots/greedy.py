"""The greedy bot: one ply of lookahead with a per-game evaluator.

Each game's registry entry names its evaluator, ``choose(game, view, seat, rng) -> action``
(``games/<game>/bot.py``): it determinizes the view (so it never sees hidden information) and
picks the action with the best immediate value by that game's measure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.bots.base import Bot
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng

Evaluator = Callable[[Game[Any, Any], JSON, Seat, Rng], Any]


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, evaluator: Evaluator, seed: int = 0) -> None:
        self.evaluator = evaluator
        self.rng = Rng(seed)

    def choose(
        self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None = None
    ) -> Any:
        return self.evaluator(game, view, seat, self.rng)
