"""How the search plays Kami and Goita: flat Monte Carlo over the greedy evaluator's best 8
root plays, with epsilon-greedy rollouts to the end of the deal. The post-game analysis values
the rare perfect-information tail exactly (``endgame.py``).

Medium (0.25 s) against greedy, 2 players, same 20 deals: flat won 19, UCT 9 (docs/bots.md).
Kami's root keeps the greedy evaluator's best 8 plays of up to ~150 with mercenaries. Goita
shares Kami's engine and bot and follows it.
"""

from __future__ import annotations

from typing import Any

from ludoteca.bots.rollouts import finish, margins
from ludoteca.bots.search import game_playout
from ludoteca.engine.game import Game
from ludoteca.engine.playout import GAME, Until
from ludoteca.engine.registry import SearchProfile
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.endgame import exact
from ludoteca.games.kami.native_playout import playouts_after


def kami_rollout(game: Game[Any, Any], state: Any, rng: Rng, score_weight: float) -> list[float]:
    """Epsilon-greedy play to the end of the deal (the game's playout policy); each seat is
    rewarded by its side's points in it."""
    cfg = state.cfg
    start_scores = list(state.scores)
    game.playout(state, GAME, rng, Until.ROUND)
    if game.is_over(state):
        return finish(game, state, score_weight)
    gains = [
        state.scores[cfg.side_of[seat]] - start_scores[cfg.side_of[seat]]
        for seat in range(cfg.players)
    ]
    return margins(gains, 2.0 * max(cfg.values))  # a doubled Empress is the most a deal gives


def kami_prior(
    game: Game[Any, Any], state: Any, seat: int, legal: list[Any], rng: Rng
) -> list[Any]:
    """Kami's legal actions, best first by the greedy evaluator."""
    from ludoteca.games.kami.actions import Decide, Declare
    from ludoteca.games.kami.bot import ranked, state_unseen

    if isinstance(legal[0], (Declare, Decide)):
        return legal
    return ranked(legal, state, seat, state_unseen(state, seat), rng)


PROFILE = SearchProfile(
    mode="flat", rollout=kami_rollout, playout=game_playout, prior=kami_prior, width=8,
    playouts_after=playouts_after, analysis_budget=16, exact=exact,
)
