"""Each seat's chance to win a Buttons game from the stars on the boards between rounds.

A round's stars and markers say little about the game unless they are weighed against the
race to a 5-line or 12 stars (rules §6). The search's rollouts stop at the end of a round and
value it with this model: a logistic regression fitted on the round boundaries of 30,000
self-play games (``benchmarks/fit_buttons_value.py``, which prints these tables). A board's
strength is

    STARS[star count] + BEST[most stars in one 5-cell window] + sum of WINDOWS[stars in window]

and two boards' win chances are the logistic of the difference (a softmax above 2 players).
Which seat starts the next round was fitted too and found worth nothing, so it is left out.
"""

from __future__ import annotations

import math

from ludoteca.games.buttons.grid import LINES5

STARS = (-0.646, -0.78, -0.58, -0.39, -0.209, -0.038, 0.074, 0.17, 0.26, 0.539, 0.695, 0.905)
"""Indexed by star count 0-11 (12 ends the game)."""
BEST = (-0.646, -0.227, -0.065, 0.213, 0.725)
"""Indexed by the most stars in one window, 0-4 (5 is a line, which ends the game)."""
WINDOWS = (0.0, 0.0, 0.051, 0.139, 0.301, 0.301)
"""Per window, by the stars in it: two boards with equal best windows differ in how many."""


def strength(stars: int) -> float:
    """The board's term in the logistic model."""
    best = 0
    total = 0.0
    for line in LINES5:
        k = (stars & line).bit_count()
        total += WINDOWS[k]
        if k > best:
            best = k
    return STARS[min(stars.bit_count(), 11)] + BEST[min(best, 4)] + total


def win_chances(boards: list[int]) -> list[float]:
    """Each seat's modelled chance to win from its stars; they sum to 1."""
    weights = [math.exp(strength(stars)) for stars in boards]
    total = sum(weights)
    return [w / total for w in weights]
