"""Ratings from a batch of finished games, in OpenSkill Plackett-Luce units.

OpenSkill rates game by game, so its numbers depend on the order games arrive; a calibration has
all its games at once, so it fits the model they share instead. At two players Plackett-Luce is
Bradley-Terry: i beats j with probability ``1 / (1 + exp(-(mu_i - mu_j) / c))``, ``c = sqrt(2) *
beta`` (OpenSkill's own ``c`` once both sigmas are small). A draw counts half a win each; a
table of more players counts as one such result for every two seats at it (see ``pair_results``
in ``calibrate.py``).

- **mu**: maximum likelihood over every game, plus ``PRIOR_DRAWS`` virtual draw per pair that
  played (BayesElo's prior), which keeps a clean sweep (random never beating hard) finite; the
  anchor level's mu is fixed and the others are measured from it.
- **sigma**: from the Fisher information of the level's own games, the other levels held at
  their fitted mu: ``c / sqrt(sum_j n_ij p_ij (1 - p_ij))``. This is the sigma OpenSkill keeps
  per player, standing alone. How surely two levels differ (which also counts the uncertainty of
  the levels they were compared through) is :attr:`Fit.gap_sigma`, from the full inverse
  information relative to the anchor.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ludoteca.linear import solve
from ludoteca.rating_scale import BETA

C = math.sqrt(2.0) * BETA
PRIOR_DRAWS = 1.0
"""Virtual draws added to every pair of levels that played each other."""


@dataclass(frozen=True)
class PairScore:
    """What ``a`` scored against ``b`` over ``games`` head-to-head results (wins 1, draws 1/2)."""

    a: str
    b: str
    games: float
    score: float


@dataclass(frozen=True)
class Fit:
    levels: tuple[str, ...]
    mu: dict[str, float]
    sigma: dict[str, float]
    games: dict[str, float]
    """Head-to-head results each level took part in (virtual draws not counted)."""
    covariance: tuple[tuple[float, ...], ...]
    """The full inverse information, rows and columns in ``levels`` order (the anchor's 0)."""

    def gap_sigma(self, a: str, b: str) -> float:
        """The standard error of ``mu[b] - mu[a]``, every level's uncertainty counted."""
        i, j = self.levels.index(a), self.levels.index(b)
        cov = self.covariance
        return math.sqrt(max(0.0, cov[i][i] + cov[j][j] - 2.0 * cov[i][j]))


def win_chance(gap: float) -> float:
    """The chance that a level ``gap`` above its opponent in mu beats it."""
    return 1.0 / (1.0 + math.exp(-gap / C))


def _tables(
    levels: Sequence[str], scores: Sequence[PairScore], prior: float
) -> tuple[list[list[float]], list[list[float]]]:
    """n[i][j] results between i and j and s[i][j] i's score in them, prior draws included."""
    index = {name: i for i, name in enumerate(levels)}
    k = len(levels)
    n = [[0.0] * k for _ in range(k)]
    s = [[0.0] * k for _ in range(k)]
    for pair in scores:
        i, j = index[pair.a], index[pair.b]
        if i == j:
            raise ValueError(f"a level cannot be scored against itself: {pair.a}")
        n[i][j] += pair.games
        n[j][i] += pair.games
        s[i][j] += pair.score
        s[j][i] += pair.games - pair.score
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j] > 0:
                n[i][j] += prior
                s[i][j] += prior / 2
    return n, s


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    return solve(matrix, vector, singular="the levels are not all connected by games")


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    k = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(k)]) for c in range(k)]
    return [[columns[c][r] for c in range(k)] for r in range(k)]


def _information(n: list[list[float]], p: list[list[float]], free: list[int]) -> list[list[float]]:
    """The Fisher information of the free levels' mu (minus the log-likelihood's Hessian)."""
    k = len(n)
    return [
        [
            sum(n[i][m] * p[i][m] * (1 - p[i][m]) for m in range(k) if m != i) / C**2
            if i == j
            else -n[i][j] * p[i][j] * (1 - p[i][j]) / C**2
            for j in free
        ]
        for i in free
    ]


def fit(
    levels: Sequence[str],
    scores: Sequence[PairScore],
    anchor: str,
    anchor_mu: float,
    prior: float = PRIOR_DRAWS,
) -> Fit:
    """Every level's mu and sigma from the head-to-head ``scores``, ``anchor`` fixed at
    ``anchor_mu``. ValueError when some level is not linked to the anchor by games, or when a
    pair's results leave a rating unbounded (a sweep with ``prior = 0``)."""
    names = tuple(levels)
    k = len(names)
    n, s = _tables(names, scores, prior)
    fixed = names.index(anchor)
    free = [i for i in range(k) if i != fixed]
    mu = [0.0] * k
    for _ in range(200):
        p = [[win_chance(mu[i] - mu[j]) for j in range(k)] for i in range(k)]
        grad = [sum(s[i][j] - n[i][j] * p[i][j] for j in range(k) if j != i) / C for i in free]
        step = _solve(_information(n, p, free), grad)
        longest = max((abs(x) for x in step), default=0.0)
        if longest > 10.0:  # far from the optimum the quadratic model overshoots
            step = [x * 10.0 / longest for x in step]
        for i, x in zip(free, step, strict=True):
            mu[i] += x
        if longest < 1e-9:
            break
        if any(abs(m) > 1e3 for m in mu):
            raise ValueError("a rating is unbounded: some level won or lost every game")
    else:
        raise ValueError("the fit did not converge")
    p = [[win_chance(mu[i] - mu[j]) for j in range(k)] for i in range(k)]
    own = [sum(n[i][j] * p[i][j] * (1 - p[i][j]) for j in range(k) if j != i) for i in range(k)]
    free_cov = _inverse(_information(n, p, free))
    covariance = [[0.0] * k for _ in range(k)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            covariance[i][j] = free_cov[a][b]
    played = _tables(names, scores, 0.0)[0]
    return Fit(
        levels=names,
        mu={name: mu[i] + anchor_mu for i, name in enumerate(names)},
        sigma={name: C / math.sqrt(own[i]) if own[i] > 0 else math.inf
               for i, name in enumerate(names)},
        games={name: sum(played[i]) for i, name in enumerate(names)},
        covariance=tuple(tuple(row) for row in covariance),
    )

