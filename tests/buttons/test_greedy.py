"""The greedy Buttons bot: always legal, and clearly stronger than random play."""

from __future__ import annotations

from ludoteca.bots.greedy import GreedyBot
from ludoteca.engine.rng import Rng
from ludoteca.games.buttons.bot import choose
from ludoteca.games.buttons.rules import GAME


def play(players: int, seed: int, greedy_seat: int) -> tuple[int, ...]:
    s = GAME.setup(None, players, seed)
    bot, rng = GreedyBot(choose, seed), Rng(seed)
    while seats := GAME.to_act(s):
        for seat in sorted(seats):
            if seat not in GAME.to_act(s):
                continue
            if seat == greedy_seat:
                action = bot.choose(GAME, GAME.view(s, seat), seat)
            else:
                acts = GAME.legal_actions(s, seat)
                action = acts[rng.below(len(acts))]
            GAME.apply(s, seat, action)  # the checked path: the bot's choice must be legal
    out = GAME.outcome(s)
    assert out is not None
    return out.ranks


def test_greedy_beats_random_two_players() -> None:
    """rules/buttons.md §6: greedy wins (alone) far more often than random in 2 players."""
    games = 60
    wins = sum(
        1 for g in range(games) if (r := play(2, 500 + g, g % 2))[g % 2] == 1 and r.count(1) == 1
    )
    assert wins >= 0.8 * games


def test_greedy_plays_legally_in_four_players() -> None:
    """rules/buttons.md §3: every greedy choice is legal, including simultaneous answers."""
    for g in range(4):
        play(4, 900 + g, g)
