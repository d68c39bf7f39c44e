"""Playout policies for the search bots, one per game where a smarter one pays for its cost.

Kingdomino: every king places greedily (the placement that adds the most territory points,
computed incrementally from the components the new squares join) and claims the domino whose
best placement would gain the most, each with a small chance of a random move instead. Gedda
et al. (2018) found greedy playouts far more informative than random ones in this game; the
incremental gain keeps a greedy move at tens of microseconds.

Kami and Buttons play many rounds, so a playout to the end of the game drowns the effect of the
move searched in the noise of rounds to come. Their rollouts play to the end of the current
round (or the game), choosing from the determinized state and seeing only what each seat may
see. Kami plays the greedy bot's choices and values the points each side scored in the deal.
Buttons plays a line-minded policy (``buttons_plan.py``) and values the boards at the round's
end by each seat's modelled chance to win the game (``buttons_value.py``).

Every constant here was chosen on the same deals against the greedy bot; docs/bots.md lists
the runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.actions import CLAIMS, PLACES
from ludoteca.games.kingdomino.components import DOMINOES
from ludoteca.games.kingdomino.grid import (
    DELTA,
    OCC,
    SIZE,
    STRIDE,
    TERR,
    components,
    crowns_in,
    neighbours,
    placement_masks,
)
from ludoteca.games.kingdomino.state import CLAIM_STEP, DRAFT, OVER, KingdominoState

EPSILON = 8
"""One move in EPSILON is random, so playouts still explore."""

_NEIGH = [neighbours(1 << c) for c in range(SIZE * STRIDE)]
_T1 = [0] * 49
_T2 = [0] * 49
_C1 = [0] * 49
_C2 = [0] * 49
for _n, _d in DOMINOES.items():
    _T1[_n], _T2[_n] = _d.terrains
    _C1[_n], _C2[_n] = _d.crowns


def _groups(k: list[int], t: int) -> list[tuple[int, int, int]]:
    """(mask, squares, crowns) of every territory of terrain t."""
    return [(m, m.bit_count(), crowns_in(k, m)) for m in components(k[TERR + t])]


def _join_gain(groups: list[tuple[int, int, int]], touch: int, squares: int, crowns: int) -> int:
    """Points gained when ``squares`` new squares with ``crowns`` crowns join the groups that
    ``touch`` reaches."""
    s = squares
    c = crowns
    old = 0
    for mask, size, cr in groups:
        if mask & touch:
            s += size
            c += cr
            old += size * cr
    return s * c - old


def best_placement(k: list[int], n: int, frame: int) -> tuple[int, int, int]:
    """(gain, cell, direction) of the greedy placement of domino n; gain -1 if none fits.

    A half that touches no territory of its terrain gains just its crowns, so the group scan
    runs only for the few cells next to one, once per cell."""
    t1, t2, c1, c2 = _T1[n], _T2[n], _C1[n], _C2[n]
    masks = placement_masks(k, t1, t2, frame)
    g1 = _groups(k, t1)
    g2 = g1 if t2 == t1 else _groups(k, t2)
    near1 = neighbours(k[TERR + t1])
    near2 = near1 if t2 == t1 else neighbours(k[TERR + t2])
    best_gain, best_cell, best_d = -1, -1, 0
    neigh = _NEIGH
    memo1: dict[int, int] = {}
    memo2: dict[int, int] = {}
    same = t1 == t2
    own_terrain = k[TERR + t1]
    for d in range(4):
        m = masks[d]
        step = DELTA[d]
        while m:
            low = m & -m
            a = low.bit_length() - 1
            m ^= low
            b = a + step
            if same:
                touch = neigh[a] | neigh[b]
                gain = 2 * (c1 + c2)  # a new territory, unless it joins others
                if touch & own_terrain:
                    gain = _join_gain(g1, touch, 2, c1 + c2)
            else:
                if near1 >> a & 1:
                    x = memo1.get(a)
                    if x is None:
                        x = memo1[a] = _join_gain(g1, neigh[a], 1, c1)
                else:
                    x = c1
                if near2 >> b & 1:
                    y = memo2.get(b)
                    if y is None:
                        y = memo2[b] = _join_gain(g2, neigh[b], 1, c2)
                else:
                    y = c2
                gain = x + y
            if gain > best_gain:
                best_gain, best_cell, best_d = gain, a, d
    return best_gain, best_cell, best_d


def kingdomino_playout(game: Game[Any, Any], state: KingdominoState, rng: Rng) -> None:
    """Play to the end with epsilon-greedy kings (see the module docstring).

    A king claims the domino with the best greedy placement; that placement is kept and reused
    when the domino is placed, if the kingdom has not changed in between."""
    frame = state.cfg.frame
    legal_actions, apply_legal, to_act = game.legal_actions, game.apply_legal, game.to_act
    below = rng.below
    planned: dict[int, tuple[int, tuple[int, int, int]]] = {}  # domino -> (occupied, placement)
    while state.phase != OVER:
        (seat,) = to_act(state)
        if below(EPSILON) == 0:
            legal = legal_actions(state, seat)
            apply_legal(state, seat, legal[below(len(legal))])
            continue
        k = state.kingdoms[seat]
        if state.phase == DRAFT or state.step == CLAIM_STEP:
            owners = state.nxt_owner
            best_n, best_gain, best = -1, -2, (-1, -1, 0)
            for i, n in enumerate(state.nxt):
                if owners[i] < 0:
                    found = best_placement(k, n, frame)
                    if found[0] > best_gain:
                        best_n, best_gain, best = n, found[0], found
            planned[best_n] = (k[OCC], best)
            apply_legal(state, seat, CLAIMS[best_n])
            continue
        n = state.cur[state.acting]
        kept = planned.pop(n, None)
        gain, cell, d = kept[1] if kept is not None and kept[0] == k[OCC] else best_placement(
            k, n, frame
        )
        if gain < 0:
            legal = legal_actions(state, seat)
            apply_legal(state, seat, legal[0])  # the forced discard
            continue
        apply_legal(state, seat, PLACES[(cell << 2) | d])


def _finish(game: Game[Any, Any], state: Any, score_weight: float) -> list[float]:
    from ludoteca.bots.search import utilities

    outcome = game.outcome(state)
    assert outcome is not None
    return utilities(outcome, score_weight)


def _margins(gains: list[int], scale: float) -> list[float]:
    """Reward in [0, 1] from each seat's gain against the best other seat's gain."""
    out = []
    for i, g in enumerate(gains):
        best_other = max(x for j, x in enumerate(gains) if j != i)
        out.append(min(1.0, max(0.0, 0.5 + (g - best_other) / (2 * scale))))
    return out


def _play_round(
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


def kami_rollout(game: Game[Any, Any], state: Any, rng: Rng, score_weight: float) -> list[float]:
    """Epsilon-greedy play to the end of the deal; each seat is rewarded by its side's points
    in it."""
    from ludoteca.bots.greedy.kami import playout_choice

    cfg = state.cfg
    start_scores = list(state.scores)
    _play_round(game, state, rng, EPSILON, playout_choice)
    if game.is_over(state):
        return _finish(game, state, score_weight)
    gains = [
        state.scores[cfg.side_of[seat]] - start_scores[cfg.side_of[seat]]
        for seat in range(cfg.players)
    ]
    return _margins(gains, 2.0 * max(cfg.values))  # a doubled Empress is the most a deal gives


def buttons_rollout(game: Game[Any, Any], state: Any, rng: Rng, score_weight: float) -> list[float]:
    """Epsilon-greedy play of the line-minded policy (``bots/buttons_plan.py``) to the end of
    the round; each seat is rewarded by its modelled chance to win the game from the stars on
    the boards then (``bots/buttons_value.py``)."""
    from ludoteca.bots.buttons_plan import choose_state
    from ludoteca.bots.buttons_value import win_chances

    _play_round(
        game, state, rng, BUTTONS_EPSILON, lambda s, seat, acts, _rng: choose_state(s, seat, acts)
    )
    if game.is_over(state):
        return _finish(game, state, score_weight)
    return win_chances(state.stars)


BUTTONS_EPSILON = 32
"""Buttons playouts move at random less often than the others: a random stop or a random roll
decides a whole round there."""


PLAYOUTS: dict[str, Callable[[Game[Any, Any], Any, Rng], None]] = {
    "kingdomino": kingdomino_playout,
}
"""Playout policy per game name; the search falls back to random playouts for the others."""

ROLLOUTS: dict[str, Callable[[Game[Any, Any], Any, Rng, float], list[float]]] = {
    "kami": kami_rollout,
    "goita": kami_rollout,
    "buttons": buttons_rollout,
}
"""Rollouts that stop early and value the leaf themselves (see the module docstring)."""


def buttons_prior(
    game: Game[Any, Any], state: Any, seat: int, legal: list[Any], rng: Rng
) -> list[Any]:
    """Where the new stars go is left to the line-minded policy: a rollout to the end of the
    round cannot tell the choices apart (they all earn the same stars this round)."""
    from ludoteca.bots.buttons_plan import choose_state
    from ludoteca.games.buttons.state import STARS

    return [choose_state(state, seat, legal)] if state.phase == STARS else legal


def kami_prior(
    game: Game[Any, Any], state: Any, seat: int, legal: list[Any], rng: Rng
) -> list[Any]:
    """Kami's legal actions, best first by the greedy evaluator."""
    from ludoteca.bots.greedy.kami import ranked, state_unseen
    from ludoteca.games.kami.actions import Decide, Declare

    if isinstance(legal[0], (Declare, Decide)):
        return legal
    return ranked(legal, state, seat, state_unseen(state, seat), rng)


Prior = Callable[[Game[Any, Any], Any, int, list[Any], Rng], list[Any]]

PRIORS: dict[str, Prior] = {"kami": kami_prior, "goita": kami_prior, "buttons": buttons_prior}
"""Per game, the seat's root actions worth searching, best first; ``WIDTHS`` caps how many."""

WIDTHS: dict[str, int] = {"kami": 8, "goita": 8}
"""How many of the prior's best root actions the search considers, per game."""

SCORE_WEIGHTS: dict[str, float] = {"kingdomino": 0.4}
"""Share of the search reward paid for points (``search.utilities``), where measured to help.
Kingdomino, 4 players with Harmony and Middle Kingdom, 0.5 s per move against three greedy bots,
the same 24 deals: weight 0 won 13 (mean 58.4), 0.3 won 17 (61.2), 0.4 won 16 (64.8). Winning
alone saturates once the bot is clearly ahead; points keep it building."""

SCORE_SCALES: dict[str, float] = {"kingdomino": 100.0}
"""Score that earns the whole score share of a reward (``search.utilities``): a strong
4-player kingdom with both bonuses scores 60-80, so the share keeps growing with every point."""

MODES: dict[str, str] = {"kingdomino": "flat", "kami": "flat", "goita": "flat", "buttons": "flat"}
"""Search mode per game where it was measured to matter (docs/bots.md). Kingdomino, 4 players
with Harmony and Middle Kingdom, 1.5 s per move against three greedy bots, same deals: flat Monte
Carlo won 11 of 12 games (mean 63.9) where UCT won 8 of 12 (mean 59.6), as Gedda et al. (2018)
found. Medium (0.25 s) against greedy, 2 players, same 20 deals: Kami flat 19, UCT 9; Buttons
flat 14, UCT 8.5. Goita shares Kami's engine and bot and follows it."""
