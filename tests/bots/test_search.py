"""Search bots (IS-MCTS) and the bot levels on every game: legality, takeover, time budget."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from ludoteca.bots import SearchPool, make_bot
from ludoteca.bots.search import SearchBot, search, utilities
from ludoteca.engine.game import Game, Outcome
from ludoteca.engine.registry import SearchProfile
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games, entry

GAMES = all_games()
IDS = [g.spec.name for g in GAMES]


def random_states(game: Game[Any, Any], players: int, count: int, seed: int) -> list[Any]:
    """Clones of states met in random games, spread over whole games."""
    out = []
    rng = Rng(seed)
    g = 0
    while len(out) < count:
        state = game.setup({}, players, seed * 1000 + g)
        g += 1
        while seats := game.to_act(state):
            if rng.below(3) == 0:
                out.append(game.clone(state))
            seat = min(seats)
            legal = game.legal_actions(state, seat)
            game.apply_legal(state, seat, legal[rng.below(len(legal))])
    return out[:count]


def profile(game: Game[Any, Any]) -> SearchProfile:
    return entry(game.spec.name).search_profile()


def players_for(game: Game[Any, Any]) -> int:
    return max(2, game.spec.min_players)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_bots_never_choose_an_illegal_action(game: Game[Any, Any]) -> None:
    """Over a thousand random states per game, random and greedy bots pick a legal action for
    every seat asked to act; the search bot too, with a small iteration budget."""
    players = players_for(game)
    states = random_states(game, players, 1000, seed=3)
    bots = {level: make_bot(level, game.spec.name, seed=5) for level in ("random", "greedy")}
    searcher = SearchBot(seconds=None, iterations=6, seed=7, profile=profile(game))
    for i, state in enumerate(states):
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            for bot in bots.values():
                assert bot.choose(game, view, seat) in legal
            if i % 10 == 0:
                assert searcher.choose(game, view, seat) in legal


@pytest.mark.parametrize("game", GAMES, ids=IDS)
@pytest.mark.parametrize("level", ["random", "greedy", "medium"])
def test_any_level_takes_over_mid_game_and_finishes(game: Game[Any, Any], level: str) -> None:
    """Zombie mode: after random play, a bot of any level takes every seat from the current
    state and finishes the game."""
    players = players_for(game)
    state = game.setup({}, players, 11)
    rng = Rng(11)
    for _ in range(15):
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        after = game.clone(state)
        game.apply(after, seat, legal[rng.below(len(legal))])
        if game.is_over(after):  # a short game (Nim): the bot still has a move to make
            break
        state = after
    if level == "medium":
        bot: Any = SearchBot(
            seconds=None, iterations=12, seed=1, name="medium", profile=profile(game)
        )
    else:
        bot = make_bot(level, game.spec.name, seed=1)
    while seats := game.to_act(state):
        for seat in sorted(seats):
            if seat in game.to_act(state):
                game.apply(state, seat, bot.choose(game, game.view(state, seat), seat))
    assert game.outcome(state) is not None


def mid_game(game: Game[Any, Any]) -> tuple[Any, int]:
    """A state some way into a random game where the acting seat has several choices."""
    players = players_for(game)
    state = game.setup({}, players, 21)
    rng = Rng(21)
    plies = 0
    last: tuple[Any, int] | None = None
    while seats := game.to_act(state):
        seat = min(seats)
        legal = game.legal_actions(state, seat)
        if len(legal) > 1:
            if plies >= 10:
                return state, seat
            last = (game.clone(state), seat)
        game.apply_legal(state, seat, legal[rng.below(len(legal))])
        plies += 1
    assert last is not None  # a short game (Nim) ended first: its last decision with a choice
    return last


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_search_respects_its_time_budget(game: Game[Any, Any]) -> None:
    """A search bot's move takes at most its budget + 20% (and 0.2 s: on a loaded machine the
    last iteration, begun before the deadline, may end well after it); without early stopping it
    uses the whole budget (within 20%)."""
    state, seat = mid_game(game)
    budget = 0.3
    view = game.view(state, seat)
    for early_stop in (True, False):
        bot = SearchBot(seconds=budget, seed=2, early_stop=early_stop, profile=profile(game))
        start = time.perf_counter()
        action = bot.choose(game, view, seat)
        elapsed = time.perf_counter() - start
        assert action in game.legal_actions(state, seat)
        assert elapsed <= 1.2 * budget + 0.2
        if not early_stop:
            assert 0.8 * budget <= elapsed
            assert bot.last_stats is not None and bot.last_stats.iterations > 10


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_cpu_budget_alone_is_the_budget(game: Game[Any, Any],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU seconds alone bound a move's CPU time, not the clock's (the same compute under any
    load); without early stops the search spends them (within 20%, and 0.1 s for the last
    iteration)."""
    monkeypatch.setenv("LUDOTECA_CORE", "python")
    state, seat = mid_game(game)
    view = game.view(state, seat)
    for early_stop in (True, False):
        bot = SearchBot(seconds=None, cpu_seconds=0.2, seed=2, early_stop=early_stop,
                        profile=profile(game))
        began = time.process_time()
        action = bot.choose(game, view, seat)
        spent = time.process_time() - began
        assert action in game.legal_actions(state, seat)
        assert spent <= 1.2 * 0.2 + 0.1
        assert bot.last_stats is not None and bot.last_stats.iterations > 0
        if not early_stop:
            assert spent >= 0.8 * 0.2
    with pytest.raises(ValueError, match="budget"):
        search(game, view, seat, profile=profile(game))


@pytest.mark.parametrize("mode", ["uct", "flat"])
def test_search_modes_return_root_statistics(mode: str) -> None:
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    stats, root = search(
        game,
        game.view(state, seat),
        seat,
        iterations=300,
        seed=4,
        mode=mode,
        early_stop=False,
        # the loop's own tree (the native whole search returns the root's children alone)
        profile=dataclasses.replace(profile(game), root_search=None),
    )
    assert stats.iterations == 300 == root.visits
    legal = {a.index for a in game.legal_actions(state, seat)}
    assert set(stats.visits) <= legal and sum(stats.visits.values()) == 300
    if mode == "flat":
        assert all(not child.children for child in root.children.values())
    else:
        assert any(child.children for child in root.children.values())


def test_root_parallel_search_merges_workers() -> None:
    """workers=2 with a caller-owned pool adds a pool process searching with another seed; root
    statistics are summed, and an iteration budget is the move's, shared between the two (a
    level plays as strongly on any number of processes). Without a pool the bot searches
    alone: it never starts processes.
    (Budgets are iterations, not seconds, so the check does not depend on how busy the machine
    is; the wall-clock gain is measured by the benchmarks.)"""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    view = game.view(state, seat)
    with SearchPool(1) as pool:
        single = SearchBot(
            seconds=None, iterations=120, seed=3, early_stop=False, profile=profile(game)
        )
        double = SearchBot(
            seconds=None, iterations=120, seed=3, workers=2, early_stop=False,
            profile=profile(game), pool=pool,
        )
        assert double.choose(game, view, seat) in game.legal_actions(state, seat)
        single.choose(game, view, seat)
        assert double.last_stats is not None and single.last_stats is not None
        assert single.last_stats.iterations == 120
        assert double.last_stats.iterations == 120  # 60 here and 60 in the pool process
        assert sum(double.last_stats.visits.values()) == 120
        assert double.last_stats.visits != single.last_stats.visits
    alone = SearchBot(seconds=None, iterations=50, seed=3, workers=2, profile=profile(game))
    assert alone.workers == 1
    alone.choose(game, view, seat)
    assert alone.last_stats is not None and alone.last_stats.iterations == 50


def test_a_deadline_caps_the_search_budget() -> None:
    """A bot given a deadline answers before it even when its own budget is longer."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    bot = SearchBot(seconds=2.0, seed=3, early_stop=False, profile=profile(game))
    start = time.monotonic()
    action = bot.choose(game, game.view(state, seat), seat, start + 0.3)
    assert action in game.legal_actions(state, seat)
    assert time.monotonic() - start < 0.3


def test_tree_is_kept_for_the_bots_next_own_decision() -> None:
    """Kingdomino: the claim right after the bot's own placement starts from the subtree of the
    placement it chose (the Python loop's tree: the native whole search keeps none below its
    root, so a profile that has one keeps no tree on either core)."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state = game.setup({}, 2, 8)
    while game.view(state, None)["step"] != "place":
        seat = min(game.to_act(state))
        game.apply(state, seat, game.legal_actions(state, seat)[0])
    seat = min(game.to_act(state))
    bot = SearchBot(
        seconds=None, iterations=400, seed=1, early_stop=False, mode="uct",
        profile=dataclasses.replace(profile(game), root_search=None),
    )
    game.apply(state, seat, bot.choose(game, game.view(state, seat), seat))
    kept = bot._tree
    assert kept is not None and kept[2].visits > 0
    assert min(game.to_act(state)) == seat
    bot.choose(game, game.view(state, seat), seat)
    assert bot.last_stats is not None
    assert sum(bot.last_stats.visits.values()) > 400


def test_early_stop_ends_a_decided_search() -> None:
    """Once the leading root action cannot be caught in the iterations left, search stops."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    view = game.view(state, seat)
    # win and rank only: this position's choice is clear on them, less so on points
    kd = profile(game)
    full, _ = search(
        game, view, seat, iterations=3000, seed=5, early_stop=False, score_weight=0, profile=kd
    )
    early, _ = search(
        game, view, seat, iterations=3000, seed=5, early_stop=True, score_weight=0, profile=kd
    )
    assert full.iterations == 3000
    assert early.iterations < 3000
    assert early.best() == full.best()


def test_utilities_reward_winning_then_rank() -> None:
    assert utilities(Outcome(scores=(10, 5), ranks=(1, 2))) == [1.0, 0.0]
    shared = utilities(Outcome(scores=(7, 7, 1), ranks=(1, 1, 3)))
    assert shared[0] == shared[1] and shared[0] > shared[2] == 0.0
    four = utilities(Outcome(scores=(9, 8, 7, 6), ranks=(1, 2, 3, 4)))
    assert four[0] == 1.0 and four[1] > four[2] > four[3] == 0.0


def test_a_score_scale_keeps_rewarding_a_winners_extra_points() -> None:
    """Relative to the best score a winner's score share is always full; over a fixed scale it
    grows with every point (what lifts Kingdomino's mean score), capped at 1."""
    narrow = Outcome(scores=(60, 50, 40, 30), ranks=(1, 2, 3, 4))
    wide = Outcome(scores=(70, 50, 40, 30), ranks=(1, 2, 3, 4))
    assert utilities(narrow, 0.3)[0] == utilities(wide, 0.3)[0] == 1.0
    assert utilities(narrow, 0.3, 100.0)[0] < utilities(wide, 0.3, 100.0)[0] < 1.0
    huge = Outcome(scores=(150, 10), ranks=(1, 2))
    assert utilities(huge, 0.3, 100.0)[0] == 1.0  # capped; the loser keeps its 10 points
    assert all(0.0 <= u <= 1.0 for u in utilities(wide, 0.4, 100.0))


def test_games_cross_to_search_processes_as_references() -> None:
    """A game pickles as its module's instance, so a pool process compares actions by identity
    (Kami's ``action is PASS``) against the same objects: root parallelism works in every game."""
    import pickle

    for game in GAMES:
        assert pickle.loads(pickle.dumps(game)) is game
    game = next(g for g in GAMES if g.spec.name == "kami")
    with SearchPool(1) as pool:
        bot = SearchBot(
            seconds=None, iterations=40, seed=2, workers=2, profile=profile(game), pool=pool
        )
        for state in random_states(game, 2, 6, seed=9):
            for seat in sorted(game.to_act(state)):
                assert bot.choose(game, game.view(state, seat), seat) in game.legal_actions(
                    state, seat
                )
        assert bot.last_stats is not None and bot.last_stats.iterations >= 40


def test_a_busy_pool_does_not_make_a_bot_miss_its_deadline() -> None:
    """Pool processes get the move's end, and the bot does not wait past it for a worker that
    could not start (a server shares one pool among its tables)."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    with SearchPool(1) as pool:
        pool.executor.submit(int).result()
        busy = pool.executor.submit(time.sleep, 1.5)
        bot = SearchBot(seconds=2.0, seed=3, workers=2, profile=profile(game), pool=pool)
        start = time.monotonic()
        action = bot.choose(game, game.view(state, seat), seat, start + 0.3)
        assert time.monotonic() - start < 0.4
        assert action in game.legal_actions(state, seat)
        busy.result()
