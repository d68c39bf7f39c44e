"""The one scale every rating is shown on, people's and bots' alike.

Ratings are OpenSkill (Plackett-Luce) ``mu`` and ``sigma``. Shown, they are put on the familiar
Elo-like scale: between two sure players, a difference of 400 points means the stronger wins
about 10 games to 1, as in chess lists. With OpenSkill's default ``beta = 25/6``, two players
``d`` apart in ``mu`` win with probability ``1 / (1 + exp(-d / c))``, ``c = sqrt(2) * beta``
when both sigmas are small; Elo's ``1 / (1 + 10 ** (-D / 400))`` matches it for
``D = d * 400 / (c * ln 10)``, about 29.5 points per unit of ``mu``.
"""

from __future__ import annotations

import math

MU = 25.0
"""OpenSkill's starting ``mu``: shown as ``CENTRE``."""
CENTRE = 1500.0
BETA = 25.0 / 6.0
POINTS_PER_MU = 400.0 / (math.sqrt(2.0) * BETA * math.log(10.0))


def shown(mu: float) -> int:
    """``mu`` on the Elo-like scale (a new player is 1,500)."""
    return round(CENTRE + (mu - MU) * POINTS_PER_MU)


def plus_minus(sigma: float) -> int:
    """The half-width of the rating's 95% interval on the same scale (two sigmas)."""
    return round(2.0 * sigma * POINTS_PER_MU)
