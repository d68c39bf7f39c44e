"""Search bots (IS-MCTS) and the bot levels on every game: legality, takeover, time budget."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ludoteca.bots import make_bot
from ludoteca.bots.search import SearchBot, search, utilities
from ludoteca.engine.game import Game, Outcome
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games

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


def players_for(game: Game[Any, Any]) -> int:
    return max(2, game.spec.min_players)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_bots_never_choose_an_illegal_action(game: Game[Any, Any]) -> None:
    """Over a thousand random states per game, random and greedy bots pick a legal action for
    every seat asked to act; the search bot too, with a small iteration budget."""
    players = players_for(game)
    states = random_states(game, players, 1000, seed=3)
    bots = {level: make_bot(level, seed=5) for level in ("random", "greedy")}
    searcher = SearchBot(seconds=None, iterations=6, seed=7)
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
        seats = game.to_act(state)
        seat = min(seats)
        legal = game.legal_actions(state, seat)
        game.apply(state, seat, legal[rng.below(len(legal))])
    if level == "medium":
        bot: Any = SearchBot(seconds=None, iterations=12, seed=1, name="medium")
    else:
        bot = make_bot(level, seed=1)
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
    while True:
        seats = game.to_act(state)
        seat = min(seats)
        legal = game.legal_actions(state, seat)
        if plies >= 10 and len(legal) > 1:
            return state, seat
        game.apply_legal(state, seat, legal[rng.below(len(legal))])
        plies += 1


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_search_respects_its_time_budget(game: Game[Any, Any]) -> None:
    """A search bot's move takes at most its budget + 20%; without early stopping it uses the
    whole budget (within 20%)."""
    state, seat = mid_game(game)
    budget = 0.3
    view = game.view(state, seat)
    for early_stop in (True, False):
        bot = SearchBot(seconds=budget, seed=2, early_stop=early_stop)
        start = time.perf_counter()
        action = bot.choose(game, view, seat)
        elapsed = time.perf_counter() - start
        assert action in game.legal_actions(state, seat)
        assert elapsed <= 1.2 * budget
        if not early_stop:
            assert 0.8 * budget <= elapsed
            assert bot.last_stats is not None and bot.last_stats.iterations > 10


@pytest.mark.parametrize("mode", ["uct", "flat"])
def test_search_modes_return_root_statistics(mode: str) -> None:
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    stats, root = search(
        game, game.view(state, seat), seat, iterations=300, seed=4, mode=mode, early_stop=False
    )
    assert stats.iterations == 300 == root.visits
    legal = {a.index for a in game.legal_actions(state, seat)}
    assert set(stats.visits) <= legal and sum(stats.visits.values()) == 300
    if mode == "flat":
        assert all(not child.children for child in root.children.values())
    else:
        assert any(child.children for child in root.children.values())


def test_root_parallel_search_merges_workers() -> None:
    """workers=2 adds a process searching with another seed; root statistics are summed."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state, seat = mid_game(game)
    single = SearchBot(seconds=0.3, seed=3, early_stop=False)
    double = SearchBot(seconds=0.3, seed=3, workers=2, early_stop=False)
    try:
        view = game.view(state, seat)
        assert double.choose(game, view, seat) in game.legal_actions(state, seat)
        single.choose(game, view, seat)
        assert double.last_stats is not None and single.last_stats is not None
        assert double.last_stats.iterations > 1.4 * single.last_stats.iterations
    finally:
        double.close()


def test_tree_is_kept_for_the_bots_next_own_decision() -> None:
    """Kingdomino: the claim right after the bot's own placement starts from the subtree of the
    placement it chose."""
    game = next(g for g in GAMES if g.spec.name == "kingdomino")
    state = game.setup({}, 2, 8)
    while game.view(state, None)["step"] != "place":
        seat = min(game.to_act(state))
        game.apply(state, seat, game.legal_actions(state, seat)[0])
    seat = min(game.to_act(state))
    bot = SearchBot(seconds=None, iterations=400, seed=1, early_stop=False, mode="uct")
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
    full, _ = search(game, view, seat, iterations=3000, seed=5, early_stop=False, score_weight=0)
    early, _ = search(game, view, seat, iterations=3000, seed=5, early_stop=True, score_weight=0)
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
