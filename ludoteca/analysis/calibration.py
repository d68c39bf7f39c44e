"""The mapping from the playouts' win chance to the one the analysis reports, per game and
player count, fitted on the outcomes of many analysed matches (docs/analysis.md, "What the
win chance means").

Flat playouts with the game's playout policy are too sure of themselves against real
opponents (a seat the playouts give 85% wins about 77% of greedy-against-greedy Kingdomino
matches). The mapping works on a seat's chance ``q`` alone, on its odds: ``q^t / (q^t +
(1-q)^t)`` (Platt scaling on the log-odds without an intercept, ``sigmoid(t * logit(q))``),
mixed with the even chance ``1/sides`` by ``mix``. It keeps what the analysis relies on: it is
strictly increasing (for ``t > 0`` and ``mix < 1``: the best move found stays the best, a loss
stays a loss), equal values stay equal (a position is still one number), partners keep one
chance, with two sides the seats' chances still add up to 1 (it is symmetric), and with
``t = 1, mix = 0`` it is the identity. With three or four sides each seat's chance is mapped
on its own, so their sum may stray from 1 by a little.

Values from the game's exact solver (the perfect-information tail) are mapped only when the
fitted mapping says ``exact``: temperature leaves 0, 1/2 and 1 as they are, ``mix`` moves them.
The coefficients live in ``data/calibration.json`` (``benchmarks/fit_calibration.py`` writes
them from ``benchmarks/analysis_calibration.py``'s runs); a game and player count without an
entry are reported as the playouts say.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from itertools import pairwise
from typing import Any

from ludoteca.engine.game import JSON
from ludoteca.linear import solve


@dataclass(frozen=True)
class Calibration:
    """One game and player count's mapping (identity by default)."""

    temperature: float = 1.0
    """The power on the odds: under 1 makes the values less sure."""
    mix: float = 0.0
    """The weight of the even chance (``1/sides``) mixed in, 0-1."""
    exact: bool = False
    """Whether the exact solver's values are mapped too (else they are kept as solved)."""
    fitted: str = ""
    """What it was fitted on (matches, bot levels, budget, date), for the docs and the JSON."""
    table: tuple[float, ...] = ()
    """Instead of temperature and mix: the reported chance at ``q = 0, 1/n, ..., 1``
    (strictly increasing), linear between."""

    def __post_init__(self) -> None:
        if not self.temperature > 0 or not 0 <= self.mix < 1:
            raise ValueError(f"a calibration needs temperature > 0 and 0 <= mix < 1: {self}")
        t = self.table
        if t and (len(t) < 2 or not all(0 <= a < b <= 1 for a, b in pairwise(t))
                  or not self.temperature == 1.0 or self.mix):
            raise ValueError(f"a table is strictly increasing within 0-1, alone: {self}")

    @property
    def identity(self) -> bool:
        return self.temperature == 1.0 and self.mix == 0.0 and not self.table

    def win(self, q: float, sides: int = 2, exact: bool = False) -> float:
        """A seat's chance ``q`` (0-1) as reported, in a match of ``sides`` sides."""
        if self.identity or (exact and not self.exact):
            return q
        if self.table:
            n = len(self.table) - 1
            i = min(int(q * n), n - 1)
            w = q * n - i
            return (1 - w) * self.table[i] + w * self.table[i + 1]
        if 0.0 < q < 1.0:
            a, b = q ** self.temperature, (1.0 - q) ** self.temperature
            q = a / (a + b)
        return (1.0 - self.mix) * q + self.mix / max(sides, 1)

    def to_json(self) -> JSON:
        out: JSON = {"temperature": self.temperature, "mix": self.mix, "exact": self.exact,
                     "fitted": self.fitted}
        if self.table:
            out["table"] = list(self.table)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        return cls(float(data.get("temperature", 1.0)), float(data.get("mix", 0.0)),
                   bool(data.get("exact", False)), str(data.get("fitted", "")),
                   tuple(float(v) for v in data.get("table", ())))


IDENTITY = Calibration()


def key(game: str, players: int) -> str:
    return f"{game}/{players}"


@cache
def stored() -> dict[str, Calibration]:
    """Every shipped mapping, by ``"game/players"``."""
    text = resources.files("ludoteca.analysis").joinpath("data/calibration.json").read_text(
        "utf-8")
    data = json.loads(text)
    return {name: Calibration.from_json(entry) for name, entry in data["mappings"].items()}


def calibration_for(game: str, players: int) -> Calibration:
    """The shipped mapping for ``game`` with ``players`` (identity where none was fitted)."""
    return stored().get(key(game, players), IDENTITY)


# ---- fitting ---------------------------------------------------------------------------------
Sample = tuple[float, int, float, bool]
"""One judged decision: the deciding seat's chance (0-1), the match's sides, the seat's share
of the result (0-1; partners each their side's) and whether the value was exact."""


def log_loss(samples: Sequence[Sample], mapping: Calibration) -> float:
    """Mean cross-entropy of the seats' results under the mapped chances."""
    total = 0.0
    for q, sides, won, exact in samples:
        p = min(max(mapping.win(q, sides, exact), 1e-4), 1 - 1e-4)
        total -= won * math.log(p) + (1 - won) * math.log(1 - p)
    return total / max(len(samples), 1)


def _golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 40) -> float:
    """The minimum of a unimodal ``f`` on ``[lo, hi]``."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def fit(samples: Sequence[Sample], exact: bool, mix: bool = True, fitted: str = "") -> Calibration:
    """The temperature (and, with ``mix``, the mix) of least log loss on ``samples``, by
    alternating one-dimensional searches; ``exact`` says whether exact values are mapped."""
    t, m = 1.0, 0.0

    def by_temperature(x: float, m: float) -> float:
        return log_loss(samples, Calibration(x, m, exact))

    def by_mix(x: float, t: float) -> float:
        return log_loss(samples, Calibration(t, x, exact))

    for _ in range(4 if mix else 1):
        t = _golden(partial(by_temperature, m=m), 0.2, 2.0)
        if mix:
            m = _golden(partial(by_mix, t=t), 0.0, 0.5)
    return Calibration(round(t, 3), round(m, 3) if mix else 0.0, exact, fitted)


def _increasing(values: list[float], weights: list[float]) -> list[float]:
    """The weighted least-squares non-decreasing fit of ``values`` (pool adjacent violators)."""
    blocks: list[list[float]] = []  # [mean, weight, count]
    for v, w in zip(values, weights, strict=True):
        blocks.append([v, max(w, 1e-9), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            v2, w2, n2 = blocks.pop()
            v1, w1, n1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    return [b[0] for b in blocks for _ in range(int(b[2]))]


def fit_table(samples: Sequence[Sample], exact: bool, knots: int = 11, fitted: str = ""
              ) -> Calibration:
    """A table of ``knots`` values, linear between, of least squared error (the Brier score)
    on ``samples``, made increasing (isotonic) and, with two sides, symmetric (each decision
    counts for the other side too). A light pull towards the identity keeps knots with few
    decisions near it; a 0.1% blend with the identity makes the table strictly increasing."""
    n = knots - 1
    a = [[0.0] * knots for _ in range(knots)]
    b = [0.0] * knots
    two = all(sides == 2 for _, sides, _, _ in samples)
    for q, _, won, ex in samples:
        if ex and not exact:
            continue
        for x, o in ((q, won), (1 - q, 1 - won)) if two else ((q, won),):
            i = min(int(x * n), n - 1)
            w = x * n - i
            a[i][i] += (1 - w) ** 2
            a[i][i + 1] += (1 - w) * w
            a[i + 1][i] += (1 - w) * w
            a[i + 1][i + 1] += w * w
            b[i] += (1 - w) * o
            b[i + 1] += w * o
    for k in range(knots):
        a[k][k] += 1.0
        b[k] += k / n
    weights = [a[k][k] for k in range(knots)]
    values = [min(1.0, max(0.0, v)) for v in _increasing(solve(a, b), weights)]
    if two:
        values = [(values[k] + 1 - values[n - k]) / 2 for k in range(knots)]
    table = tuple(round(0.999 * v + 0.001 * k / n, 6) for k, v in enumerate(values))
    return Calibration(exact=exact, fitted=fitted, table=table)
