"""Kingdomino's greedy playout policy, run inside the game (``Game.playout``).

Every king places greedily (the placement that adds the most territory points, computed
incrementally from the components the new squares join) and claims the domino whose best
placement would gain the most; epsilon-greedy makes one move in ``epsilon`` random instead.
The measurements behind it are in ``games/kingdomino/search.py`` and docs/bots.md.
"""

from __future__ import annotations

from typing import Any

from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games.kingdomino.actions import CLAIMS, PLACES, Action
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
"""The game's playout policy is epsilon-greedy with one move in EPSILON random."""

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


def greedy_action(state: KingdominoState, seat: int, legal: list[Action]) -> Action:
    """The greedy king's choice (no memory between moves): the claim whose domino has the best
    greedy placement, else that placement, else the forced discard (``legal[0]``)."""
    k = state.kingdoms[seat]
    frame = state.cfg.frame
    if state.phase == DRAFT or state.step == CLAIM_STEP:
        owners = state.nxt_owner
        best_n, best_gain = -1, -2
        for i, n in enumerate(state.nxt):
            if owners[i] < 0:
                gain = best_placement(k, n, frame)[0]
                if gain > best_gain:
                    best_n, best_gain = n, gain
        found: Action | None = CLAIMS[best_n]
    else:
        gain, cell, d = best_placement(k, state.cur[state.acting], frame)
        found = legal[0] if gain < 0 else PLACES[(cell << 2) | d]
    assert found is not None  # every claim and placement named here is legal
    return found


def greedy_playout(
    game: Game[Any, Any], state: KingdominoState, rng: Rng, epsilon: int,
    trace: list[tuple[int, int]] | None,
) -> None:
    """Play to the end with (epsilon-)greedy kings (``epsilon`` 0: never random), choosing as
    ``greedy_action`` does.

    A king claims the domino with the best greedy placement; that placement is kept and reused
    when the domino is placed, if the kingdom has not changed in between."""
    frame = state.cfg.frame
    legal_actions, apply_legal, to_act = game.legal_actions, game.apply_legal, game.to_act
    below = rng.below
    planned: dict[int, tuple[int, tuple[int, int, int]]] = {}  # domino -> (occupied, placement)
    action: Any  # CLAIMS and PLACES hold None where no action is, never named here
    while state.phase != OVER:
        (seat,) = to_act(state)
        if epsilon and below(epsilon) == 0:
            legal = legal_actions(state, seat)
            action = legal[below(len(legal))]
        else:
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
                action = CLAIMS[best_n]
            else:
                n = state.cur[state.acting]
                kept = planned.pop(n, None)
                gain, cell, d = (kept[1] if kept is not None and kept[0] == k[OCC]
                                 else best_placement(k, n, frame))
                # no placement fits: the forced discard
                action = legal_actions(state, seat)[0] if gain < 0 else PLACES[(cell << 2) | d]
        apply_legal(state, seat, action)
        if trace is not None:
            trace.append((seat, action.index))
