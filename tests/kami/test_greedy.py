"""The greedy bot plays from the view only and beats random play, in Kami and in Goita."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ludoteca.engine.rng import Rng
from ludoteca.games.kami.bot import choose
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME


def duel(game: Any, players: int, games: int, greedy_seats: int | None = None) -> float:
    """Share of ``games`` won by the greedy side (one seat, or a team of two with 4 players)
    against random play; every greedy choice is checked to be legal."""
    rng = Rng(3)
    bot_rng = Rng(9)
    wins = 0
    for g in range(games):
        s = game.setup({}, players, seed=500 + g)
        mine = {g % players} if players < 4 else {g % 2, g % 2 + 2}
        while not game.is_over(s):
            seat = next(iter(game.to_act(s)))
            if seat in mine:
                view = json.loads(json.dumps(game.view(s, seat)))
                action = choose(game, view, seat, bot_rng)
                assert action in game.legal_actions(s, seat)
            else:
                acts = game.legal_actions(s, seat)
                action = acts[rng.below(len(acts))]
            game.apply(s, seat, action)
        wins += any(game.outcome(s).ranks[x] == 1 for x in mine)
    return wins / games


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4)])
def test_greedy_beats_random(game: Any, players: int) -> None:
    """rules/kami.md A5.1: going out first wins the round; greedy does so far more often."""
    assert duel(game, players, 40) >= 0.8


def test_greedy_team_beats_random_team_at_goita() -> None:
    """rules/kami.md B1-B4: a greedy team (2 of the 4 seats) against a random team, over 30
    fixed deals, wins clearly (measured: 30 of 30)."""
    assert duel(GOITA, 4, 30) >= 0.85


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_plays_whole_goita_games_at_all_four_seats(seed: int) -> None:
    """rules/kami.md B1-B5: four greedy seats finish a Goita game with only legal moves,
    through the B5 decisions (always play on), king attacks and doubled finishes."""
    rng = Rng(seed)
    s = GOITA.setup({}, 4, seed=seed)
    moves = 0
    while not GOITA.is_over(s):
        seat = next(iter(GOITA.to_act(s)))
        action = choose(GOITA, GOITA.view(s, seat), seat, rng)
        assert action in GOITA.legal_actions(s, seat)
        GOITA.apply(s, seat, action)
        moves += 1
        assert moves < 5000
    result = GOITA.outcome(s)
    assert result is not None and max(result.scores) >= 150


def test_greedy_values_goita_pieces_in_kami_points() -> None:
    """rules/kami.md B6: Goita's values are Kami's times ten; the evaluator reads the game's
    own values (``cfg.values``) and brings them to the Kami points its weights are set for."""
    from ludoteca.games.kami.bot import _points
    from ludoteca.games.kami.components import POINTS

    assert GOITA.setup({}, 4, seed=1).cfg.values == tuple(10 * p for p in POINTS)
    assert _points(GOITA.setup({}, 4, seed=1).cfg.values) == POINTS
    assert _points(GAME.setup({}, 4, seed=1).cfg.values) == POINTS
