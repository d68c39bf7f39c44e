"""Pieces the per-game search profiles share: ending a rollout with the game's outcome and
rewarding the margin of a round.

Kami and Buttons play many rounds, so a playout to the end of the game drowns the effect of the
move searched in the noise of rounds to come. Their rollouts play to the end of the current
round (or the game) with the game's own playout policy (``Game.playout(state, GAME, rng,
Until.ROUND)``), choosing from the determinized state and seeing only what each seat may see,
and value what the round left.
"""

from __future__ import annotations

from typing import Any

from ludoteca.bots.search import utilities
from ludoteca.engine.game import Game


def finish(game: Game[Any, Any], state: Any, score_weight: float) -> list[float]:
    outcome = game.outcome(state)
    assert outcome is not None
    return utilities(outcome, score_weight)


def margins(gains: list[int], scale: float) -> list[float]:
    """Reward in [0, 1] from each seat's gain against the best other seat's gain."""
    out = []
    for i, g in enumerate(gains):
        best_other = max(x for j, x in enumerate(gains) if j != i)
        out.append(min(1.0, max(0.0, 0.5 + (g - best_other) / (2 * scale))))
    return out
