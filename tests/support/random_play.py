"""A game's state played to its end by seeded uniformly random legal moves (the lowest seat
to act moves first), for tests that need finished matches of every shape."""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng


def finished(game: Game[Any, Any], players: int, seed: int,
             options: dict[str, Any] | None = None) -> Any:
    rng = Rng(seed)
    state = game.setup(options or {}, players, seed)
    while not game.is_over(state):
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.below(len(legal))])
    return state
