"""The greedy bot plays from the view only and beats random play."""

from __future__ import annotations

import json

import pytest

from ludoteca.bots.greedy import GreedyBot
from ludoteca.engine.rng import Rng
from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.games.kami.rules import GAME


def duel(game, players: int, games: int) -> float:
    rng = Rng(3)
    bot = GreedyBot(seed=9)
    wins = 0
    for g in range(games):
        s = game.setup({}, players, seed=500 + g)
        mine = {g % players} if players < 4 else {g % 2, g % 2 + 2}
        while not game.is_over(s):
            seat = next(iter(game.to_act(s)))
            if seat in mine:
                view = json.loads(json.dumps(game.view(s, seat)))
                action = bot.choose(game, view, seat)
                assert action in game.legal_actions(s, seat)
            else:
                acts = game.legal_actions(s, seat)
                action = acts[rng.below(len(acts))]
            game.apply(s, seat, action)
        wins += any(game.outcome(s).ranks[x] == 1 for x in mine)
    return wins / games


@pytest.mark.parametrize(("game", "players"), [(GAME, 2), (GAME, 3), (GAME, 4), (GOITA, 4)])
def test_greedy_beats_random(game, players) -> None:
    """rules/kami.md A5.1: going out first wins the round; greedy does so far more often."""
    assert duel(game, players, 40) >= 0.8
