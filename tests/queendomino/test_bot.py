"""The greedy Queendomino bot plays from views only and clearly beats the random bot."""

from __future__ import annotations

import pytest

from ludoteca.bots import make_bot
from ludoteca.games.queendomino.rules import GAME


def play(players: int, greedy_seat: int, seed: int) -> tuple[int, ...]:
    bots = [make_bot("greedy" if s == greedy_seat else "random", "queendomino",
                     seed=seed * 10 + s)
            for s in range(players)]
    s = GAME.setup({}, players, seed)
    while not GAME.is_over(s):
        (seat,) = GAME.to_act(s)
        GAME.apply(s, seat, bots[seat].choose(GAME, GAME.view(s, seat), seat))
    outcome = GAME.outcome(s)
    assert outcome is not None
    return outcome.ranks


def test_greedy_beats_random_two_players() -> None:
    """Greedy wins outright at least 90% of 2-player games against random (30 here; 198/200
    when measured with more)."""
    wins = sum(play(2, g % 2, g)[g % 2] == 1 for g in range(30))
    assert wins >= 27


def test_greedy_plays_royal_wedding_and_six_players() -> None:
    """The bot handles every player count and the Kingdomino box's dominoes."""
    bots = [make_bot("greedy", "queendomino", seed=s) for s in range(6)]
    s = GAME.setup({}, 6, 4)
    while not GAME.is_over(s):
        (seat,) = GAME.to_act(s)
        GAME.apply(s, seat, bots[seat].choose(GAME, GAME.view(s, seat), seat))
    assert GAME.outcome(s) is not None


@pytest.mark.parametrize(("players", "options"),
                         [(7, {}), (8, {}), (6, {"teams": True}), (8, {"teams": True})],
                         ids=["7p", "8p", "6p-teams", "8p-teams"])
def test_greedy_and_random_finish_the_new_modes(players: int, options: dict) -> None:
    """rules/queendomino.md §7.5-7.6: greedy and random bots play whole games at 7 and 8
    players and in teams (greedy values its team's shared kingdom, ruling 11)."""
    bots = [make_bot("greedy" if s % 2 else "random", "queendomino", seed=s)
            for s in range(players)]
    s = GAME.setup(options, players, 4)
    while not GAME.is_over(s):
        (seat,) = GAME.to_act(s)
        GAME.apply(s, seat, bots[seat].choose(GAME, GAME.view(s, seat), seat))
    outcome = GAME.outcome(s)
    assert outcome is not None and s.round == 12
