"""Greedy Buttons: one roll of lookahead with a hand-made value of this round's markers.

The value of a set of markers is what stopping now would earn (rules §4) plus partial credit
for colours on their way to three, weighted double for bonus colours. Rolling is worth the
expected value of the best cell the dice will offer (0 on a bust, computed exactly from the
number of black dice); the bot rolls while that beats stopping. Stars go where they build the
longest lines (a 5-line ends the game, rules §6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.actions import DECLINE, ROLL, STOP, Place, Star
from ludoteca.games.buttons.grid import LINES_THROUGH, NEIGH, ROW_MASK, SIZE, blocked, cells
from ludoteca.games.buttons.scoring import round_stars
from ludoteca.games.buttons.state import PLACE, TURN, ButtonsState

PARTIAL = (0.0, 0.08, 0.35)  # credit for 0, 1, 2 markers of a colour (3+ is a real star)
BLOCK_COST = 0.04  # per legal cell a marker takes away from future rolls
LINE_WEIGHT = 0.1  # per star already in the best line through a cell


def value(markers: int, board: tuple[int, ...], cards: int) -> float:
    """Expected-ish stars of this round's markers if the player keeps going sensibly."""
    v = 1.0
    for i in range(4):
        n = (markers & board[i]).bit_count()
        weight = 2.0 if cards >> i & 1 else 1.0
        v += weight * (1.0 if n >= 3 else PARTIAL[n])
    return v


def line_bonus(stars: int, cell: int) -> float:
    return LINE_WEIGHT * max((stars & line).bit_count() for line in LINES_THROUGH[cell])


def cell_value(s: ButtonsState, seat: int, cell: int, lines: bool = True) -> float:
    """Value after a marker on ``cell``, minus the legal cells it takes away, plus (when
    choosing a cell, not when pricing a roll) how well it would extend a line of stars."""
    m, st = s.markers[seat], s.stars[seat]
    free_now = ~blocked(m, st)
    lost = (free_now & (NEIGH[cell] | 1 << cell)).bit_count()
    return (
        value(m | 1 << cell, s.boards[seat], s.cards[seat])
        - BLOCK_COST * lost
        + (line_bonus(st, cell) if lines else 0.0)
    )


def expected_best(s: ButtonsState, seat: int, worth: Callable[[int], float]) -> float:
    """Exact expectation over the next roll of the best offered cell's ``worth`` (0 when
    busting): in a row, the i-th best cell is the best offered when no black die shows one of
    the i better columns and some die shows its own."""
    dice = 1 + s.free  # gold + white-pip black dice
    free = ~blocked(s.markers[seat], s.stars[seat])
    total = 0.0
    for white in range(1, 7):
        vals = sorted((worth(c) for c in cells(ROW_MASK[white] & free)), reverse=True)
        for i, v in enumerate(vals):
            p = ((6 - i) / 6) ** dice - ((5 - i) / 6) ** dice
            total += p * v
    return total / 6


def roll_value(s: ButtonsState, seat: int) -> float:
    return expected_best(s, seat, lambda c: cell_value(s, seat, c, False))


def choose(game: Game[Any, Any], view: JSON, seat: Seat, rng: Rng) -> Any:
    s: ButtonsState = game.determinize(view, seat, rng)
    return choose_state(s, seat, game.legal_actions(s, seat))


def choose_state(s: ButtonsState, seat: Seat, legal: list[Any]) -> Any:
    """The greedy choice from a state; it reads only the seat's own board, which is all a
    player needs here (so playouts may call it on a determinized state)."""
    if len(legal) == 1:
        return legal[0]
    if s.phase == TURN:
        stop_now = round_stars(s.markers[seat], s.boards[seat], s.cards[seat])[2]
        return ROLL if roll_value(s, seat) > stop_now else STOP
    if s.phase == PLACE:
        places = [a for a in legal if isinstance(a, Place)]
        best = max(places, key=lambda a: cell_value(s, seat, a.cell))
        if DECLINE in legal:
            here = value(s.markers[seat], s.boards[seat], s.cards[seat])
            if cell_value(s, seat, best.cell) <= here:
                return DECLINE
        return best
    stars = s.stars[seat] | s.picks[seat]
    picks = [a for a in legal if isinstance(a, Star)]
    return max(picks, key=lambda a: (line_bonus(stars, a.cell), -a.cell % SIZE))
