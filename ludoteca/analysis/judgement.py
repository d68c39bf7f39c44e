"""Judgements and accuracy from the drop in win chance, as lichess grades chess moves.

Drops are in win-chance points (0-100) from the deciding seat's information: the value of the
best move found minus that of the move played."""

from __future__ import annotations

import math
from collections.abc import Sequence

INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0
"""Least drops (win-chance points) of each judgement. The noise floor of the default budget,
measured by analysing the same matches with other seeds, is under these (docs/analysis.md)."""

RETRY_PASSES = 3.5
"""A retried move passes when it loses at most this much against the best."""

JUDGEMENTS = ("best", "good", "inaccuracy", "mistake", "blunder")


def judge(drop: float, played_is_best: bool) -> str:
    if played_is_best:
        return "best"
    if drop >= BLUNDER:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return "good"


def move_accuracy(drop: float) -> float:
    """Lichess's curve: 100 for no drop, about 64 for 10 points, about 20 for 40."""
    value = 103.1668 * math.exp(-0.04354 * max(drop, 0.0)) - 3.1669
    return min(100.0, max(0.0, value))


def match_accuracy(accuracies: Sequence[float]) -> float | None:
    """A seat's accuracy over its judged moves: the mean of the arithmetic and the harmonic
    means, so a few bad moves weigh more than in a plain average (lichess blends the same
    two). None without judged moves."""
    if not accuracies:
        return None
    mean = sum(accuracies) / len(accuracies)
    harmonic = len(accuracies) / sum(1.0 / max(a, 1.0) for a in accuracies)
    return (mean + harmonic) / 2
