"""How the search plays Buttons: flat Monte Carlo; rollouts play the line-minded policy
(``games/buttons/plan.py``) to the end of the round and value the boards by each seat's modelled
chance to win the game (``games/buttons/value.py``). Star placement is left to that policy.

Medium (0.25 s) against greedy, 2 players, same 20 deals: flat 14, UCT 8.5; on 100 deals the
line-minded policy with the fitted value won 72 (docs/bots.md).
"""

from __future__ import annotations

from typing import Any

from ludoteca.bots.rollouts import finish
from ludoteca.bots.search import game_playout
from ludoteca.engine.game import Game
from ludoteca.engine.playout import GAME, Until
from ludoteca.engine.registry import SearchProfile
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.native_playout import playouts_after


def buttons_rollout(game: Game[Any, Any], state: Any, rng: Rng, score_weight: float) -> list[float]:
    """Epsilon-greedy play of the line-minded policy (``games/buttons/plan.py``, the game's
    playout policy: one move in 32 random) to the end of the round; each seat is rewarded by
    its modelled chance to win the game from the stars on the boards then
    (``games/buttons/value.py``)."""
    from ludoteca.games.buttons.value import win_chances

    game.playout(state, GAME, rng, Until.ROUND)
    if game.is_over(state):
        return finish(game, state, score_weight)
    return win_chances(state.stars)


def buttons_prior(
    game: Game[Any, Any], state: Any, seat: int, legal: list[Any], rng: Rng
) -> list[Any]:
    """Where the new stars go is left to the line-minded policy: a rollout to the end of the
    round cannot tell the choices apart (they all earn the same stars this round)."""
    from ludoteca.games.buttons.plan import choose_state
    from ludoteca.games.buttons.state import STARS

    return [choose_state(state, seat, legal)] if state.phase == STARS else legal


PROFILE = SearchProfile(
    mode="flat", rollout=buttons_rollout, playout=game_playout, prior=buttons_prior,
    playouts_after=playouts_after, analysis_budget=128, analysis_budgets=((2, 1024),),
)
"""The analysis: 128 playouts a candidate, 1024 at 2 players, where they bring the noise floor
from 5.8 to 1.9 points at the p90 for about 12 s of CPU a match, and the shipped calibration
holds (docs/analysis.md, "Cost and noise")."""
