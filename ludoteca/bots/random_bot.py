"""The random bot: a uniformly random legal action. The baseline every other bot must beat."""

from __future__ import annotations

from typing import Any

from ludoteca.bots.base import Bot
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(
        self, game: Game[Any, Any], view: JSON, seat: Seat, deadline: float | None = None
    ) -> Any:
        state = game.determinize(view, seat, self.rng)
        actions = game.legal_actions(state, seat)
        return actions[self.rng.below(len(actions))]
