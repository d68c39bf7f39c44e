"""Pieces the per-game search profiles share: ending a rollout with the game's outcome,
rewarding the margin of a round, and playing epsilon-greedy to the end of a round.

Kami and Buttons play many rounds, so a playout to the end of the game drowns the effect of the
move searched in the noise of rounds to come. Their rollouts play to the end of the current
round (or the game), choosing from the determinized state and seeing only what each seat may
see, and value what the round left.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.bots.search import utilities
from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng

EPSILON = 8
"""One move in EPSILON is random, so playouts still explore."""


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


def play_round(
    game: Game[Any, Any],
    state: Any,
    rng: Rng,
    epsilon: int,
    choose: Callable[[Any, int, list[Any], Rng], Any],
) -> None:
    """Play to the end of the current round (or the game): ``choose`` decides, except one move
    in ``epsilon``, which is random."""
    start_round = state.round
    to_act, legal_actions, apply_legal, below = (
        game.to_act,
        game.legal_actions,
        game.apply_legal,
        rng.below,
    )
    while state.round == start_round and (seats := to_act(state)):
        seat = min(seats)
        actions = legal_actions(state, seat)
        if below(epsilon) == 0:
            apply_legal(state, seat, actions[below(len(actions))])
        else:
            apply_legal(state, seat, choose(state, seat, actions, rng))
