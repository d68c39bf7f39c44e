"""``Game.legal_indices`` (the action mask's source for learners, docs/rl.md "Speed") gives
exactly ``[a.index for a in legal_actions]``, in the same order, for every seat at every step
of random games of every game, player count and drawn options; and the contract's default
gives it for any game that does not override it, as the contract's ``legal_actions`` (read off
``legal_indices`` and ``action_table``) gives the game's own."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game
from ludoteca.engine.rng import Rng
from ludoteca.games import all_games
from tests.engine.test_contract import random_options

GAMES = all_games()
CASES = [(g, n) for g in GAMES for n in range(g.spec.min_players, g.spec.max_players + 1)]
IDS = [f"{g.spec.name}-{n}p" for g, n in CASES]


def options_for(game: Game[Any, Any], players: int, rng: Rng) -> dict[str, Any]:
    """Drawn options that apply to ``players`` (some player counts need one, e.g. Royal
    Wedding for Queendomino's 5-8)."""
    for _ in range(100):
        options = random_options(game, players, rng)
        try:
            game.validate(options, players)
            return options
        except OptionError:
            continue
    raise AssertionError(f"no valid options drawn for {game.spec.name} with {players}")


@pytest.mark.parametrize(("game", "players"), CASES, ids=IDS)
@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_legal_indices_are_the_legal_actions_indices(
    game: Game[Any, Any], players: int, seed: int
) -> None:
    rng = Rng(seed)
    options = options_for(game, players, rng) if seed % 4 else {}
    state = game.setup(game.validate(options, players), players, seed)
    steps = 0
    while seats := sorted(game.to_act(state)):
        for seat in range(players):  # seats not to act too: both lists are empty
            want = [a.index for a in game.legal_actions(state, seat)]
            assert game.legal_indices(state, seat) == want, (seat, state.ply)
            assert Game.legal_indices(game, state, seat) == want
            assert Game.legal_actions(game, state, seat) == game.legal_actions(state, seat)
            assert bool(want) == (seat in seats)
        seat = seats[rng.below(len(seats))]
        actions = game.legal_actions(state, seat)
        game.apply_legal(state, seat, actions[rng.below(len(actions))])
        steps += 1
    assert steps > 0
    assert all(game.legal_indices(state, s) == [] for s in range(players))


def test_every_shipped_game_overrides_it() -> None:
    """The shipped games produce indices without building actions (the default, checked
    above, is what they must equal)."""
    for game in GAMES:
        if not type(game).__module__.startswith("ludoteca.games."):
            continue  # the test game (tests/fifth_game) keeps the default, a new game's start
        assert type(game).legal_indices is not Game.legal_indices, game.spec.name
