"""A bot answers after the bot delay times a pace from 1 to 1.5 (``turns.bot_pace``), so the bot
tables an arena's wave opened together drift apart instead of moving in the same instant
(benchmarks/arena.py, issue 35): never sooner than the delay people rely on to follow the play,
the same for the same decision, and spread over the whole range."""

from __future__ import annotations

import statistics

from ludoteca.server.table.turns import PACE_SPREAD, bot_pace


def test_the_pace_is_never_under_one_delay_and_at_most_one_and_a_half() -> None:
    paces = [bot_pace(12345, decision, seat) for decision in range(2000) for seat in range(4)]
    assert PACE_SPREAD == 0.5
    assert all(1.0 <= p < 1.5 for p in paces)
    assert min(paces) < 1.01 and max(paces) > 1.49
    assert abs(statistics.mean(paces) - 1.25) < 0.01


def test_the_same_decision_keeps_its_pace_and_tables_differ() -> None:
    assert bot_pace(7, 40, 1) == bot_pace(7, 40, 1)
    firsts = {bot_pace(table, 1, 0) for table in range(100)}
    assert len(firsts) == 100  # a hundred tables opened together: a hundred instants

