"""The levels' budgets: where a game has playout budgets (Kingdomino), ``medium`` and ``hard``
search a fixed number of seeded playouts per move, so a level plays the same moves whatever the
machine's load (its ladder rating measures a player, not a load); elsewhere they search for
their seconds. Either way on the Python core too."""

from __future__ import annotations

import time

import pytest

from ludoteca.bots import (
    CEILING_SECONDS,
    SEARCH_SECONDS,
    level_budget,
    make_bot,
    move_seconds,
)
from ludoteca.bots.search import SearchBot
from ludoteca.engine.rng import Rng
from ludoteca.games import entry
from ludoteca.games.kingdomino.rules import GAME as KINGDOMINO
from ludoteca.games.kingdomino.search import PLAYOUTS


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_kingdomino_levels_have_playout_budgets_under_a_ceiling(level: str) -> None:
    bot = make_bot(level, "kingdomino", 3)
    assert isinstance(bot, SearchBot)
    assert bot.iterations == PLAYOUTS[level] and bot.cpu_seconds == CEILING_SECONDS[level]
    assert bot.seconds is None  # the clock does not cut it short: the load cannot
    assert level_budget(level, "kingdomino") == {"playouts": PLAYOUTS[level],
                                                 "ceiling_cpu_seconds": CEILING_SECONDS[level]}
    assert move_seconds(level, "kingdomino") == CEILING_SECONDS[level]
    assert PLAYOUTS["medium"] < PLAYOUTS["hard"]


def test_a_game_without_playout_budgets_searches_for_its_seconds() -> None:
    bot = make_bot("hard", "kami", 3)
    assert isinstance(bot, SearchBot)
    assert bot.iterations is None and bot.seconds == SEARCH_SECONDS["hard"]
    assert level_budget("hard", "kami") == {"seconds": SEARCH_SECONDS["hard"]}
    assert move_seconds("hard", "kami") == SEARCH_SECONDS["hard"]
    assert move_seconds("greedy", "kingdomino") == 0.05 and level_budget("random", "kami") == {}


def test_medium_plays_a_whole_kingdomino_game_the_same_every_time() -> None:
    """Two runs of one seeded match, ``medium`` against ``greedy``: the same moves and the same
    playouts at every decision (tests/native compares the two cores)."""
    runs = []
    for _ in range(2):
        state = KINGDOMINO.setup({}, 2, 12)
        bots = [make_bot("medium", "kingdomino", 5), make_bot("greedy", "kingdomino", 6)]
        searched = []
        while seats := KINGDOMINO.to_act(state):
            (seat,) = seats
            action = bots[seat].choose(KINGDOMINO, KINGDOMINO.view(state, seat), seat)
            stats = getattr(bots[seat], "last_stats", None)
            if seat == 0 and stats is not None:
                searched.append((stats.iterations, dict(stats.visits)))
                bots[0].last_stats = None  # type: ignore[attr-defined]
            KINGDOMINO.apply_legal(state, seat, action)
        outcome = KINGDOMINO.outcome(state)
        assert outcome is not None
        runs.append((searched, outcome.scores, [list(p) for p in state.placed]))
    assert runs[0] == runs[1]
    searched = runs[0][0]
    assert len(searched) >= 10
    assert all(done <= PLAYOUTS["medium"] for done, _ in searched)
    assert max(done for done, _ in searched) == PLAYOUTS["medium"]


def test_a_kingdomino_hard_move_spends_its_playouts() -> None:
    """The budget is playouts, not seconds: a decided position stops early, an open one
    searches them all (no early stop here), whatever the time it takes."""
    state = KINGDOMINO.setup({}, 2, 4)
    moves = Rng(4)
    for _ in range(9):
        (seat,) = KINGDOMINO.to_act(state)
        legal = KINGDOMINO.legal_actions(state, seat)
        KINGDOMINO.apply_legal(state, seat, legal[moves.below(len(legal))])
    (seat,) = KINGDOMINO.to_act(state)
    bot = make_bot("hard", "kingdomino", 2)
    assert isinstance(bot, SearchBot)
    bot.early_stop = False
    bot.choose(KINGDOMINO, KINGDOMINO.view(state, seat), seat)
    assert bot.last_stats is not None and bot.last_stats.iterations == PLAYOUTS["hard"]


def test_the_cpu_ceiling_stops_a_playout_budget_too_big_for_the_machine() -> None:
    """A move whose playouts would take longer than ``cpu_seconds`` of this process's CPU stops
    there (the safety bound of a slow machine) and still answers a legal move."""
    state = KINGDOMINO.setup({}, 2, 6)
    (seat,) = KINGDOMINO.to_act(state)
    bot = SearchBot(seconds=None, iterations=10**7, cpu_seconds=0.05, seed=1, early_stop=False,
                    profile=entry("kingdomino").search_profile())
    began = time.process_time()
    action = bot.choose(KINGDOMINO, KINGDOMINO.view(state, seat), seat)
    assert action in KINGDOMINO.legal_actions(state, seat)
    assert time.process_time() - began < 2.0
    assert bot.last_stats is not None and 0 < bot.last_stats.iterations < 10**7
