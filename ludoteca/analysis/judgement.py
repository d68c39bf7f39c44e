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


def stake_weight(stake: float) -> float:
    """How much a decision counts in a match's accuracy: the spread, in win-chance points,
    between the best and the worst move looked at, kept within 0.5-12. A move in a position
    already won or lost, where every choice leads to the same end, counts little: otherwise the
    side that is lost early earns an accuracy near 100 for its many meaningless moves (lichess
    weights by the volatility of the win chance for the same reason)."""
    return min(12.0, max(0.5, stake))


def match_accuracy(accuracies: Sequence[float], weights: Sequence[float]) -> float | None:
    """A seat's accuracy over its judged moves: the mean of the weighted arithmetic and the
    weighted harmonic means, so a few bad moves weigh more than in a plain average (lichess
    blends the same two). None without judged moves."""
    if not accuracies:
        return None
    total = sum(weights)
    mean = sum(a * w for a, w in zip(accuracies, weights, strict=True)) / total
    harmonic = total / sum(w / max(a, 1.0) for a, w in zip(accuracies, weights, strict=True))
    return (mean + harmonic) / 2
