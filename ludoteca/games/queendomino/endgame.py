"""Exact values of 2-player Queendomino's perfect-information tail, for the post-game analysis.

In the last round nothing is left to chance and nothing hidden matters: its line was turned up
a round earlier, the builders' board was refilled for the last time as it began, and what is
left of the buildings' draw pile never comes out again. From there the match between the two
players is a finite game of perfect information, solved by ``bots/exact.py`` over the engine's
own moves and scoring: placements, knights, buildings, towers and the Queen, the Dragon.

The whole last round is too large to search within a second per decision: its four turns
multiply a few dozen placements by the knights, the buildings on the board and the Dragon. The
last ``TURNS`` turns are searched (measured: docs/analysis.md), counted from the acting king.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ludoteca.bots.exact import Solved, TwoSides
from ludoteca.engine.game import Game
from ludoteca.games.queendomino.state import OVER, PLAY, QueendominoState

TURNS = 2
"""Turns of the last round searched exactly, the acting king's included."""


def solvable(state: QueendominoState) -> bool:
    """Whether the state is in the tail solved here: two players alone (no teams), the last
    round (no next line), at most ``TURNS`` turns left (or the match over). Nothing the two
    players cannot both see plays a part from there: the rest of the buildings' pile never
    comes out."""
    cfg = state.cfg
    if cfg.players != 2 or cfg.teams:
        return False
    if state.phase == OVER:
        return True
    if state.phase != PLAY or state.nxt:
        return False
    left = sum(1 for i in range(state.acting, len(state.cur_owner)) if state.cur_owner[i] >= 0)
    return left <= TURNS


def key(s: QueendominoState) -> Hashable:
    """What the rest of the last round depends on: every side's kingdom, treasury, knights,
    towers and buildings, the board, the Dragon and the Queen, and where the turn stands."""
    return (tuple(tuple(k) for k in s.kingdoms), tuple(s.coins), tuple(s.knights),
            tuple(s.knight_cells), tuple(s.towers), tuple(tuple(sorted(b)) for b in s.built),
            tuple(s.built_cells), tuple(s.board), s.dragon, s.queen, s.acting, s.step,
            s.last_cells, s.taxed, s.phase)


_solvers: dict[tuple[int, Any], TwoSides] = {}
"""This process's solvers, per game and options, kept while the analysis runs."""


def exact(game: Game[Any, Any], state: QueendominoState) -> Solved | None:
    """Each seat's share of the win and final score with both playing their best, or None
    outside the solved tail (``SearchProfile.exact``)."""
    if not solvable(state):
        return None
    solver = _solvers.get((id(game), state.cfg))
    if solver is None:
        _solvers.clear()  # one match's options at a time
        solver = _solvers[(id(game), state.cfg)] = TwoSides(game, (0, 1), key)
    return solver.solve(state)
