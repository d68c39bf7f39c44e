"""Issue 34: positions are valued, not (decision, move) pairs. The value after a move and the
value before the next decision, with nothing drawn between, are one number, and every seat's
start, luck, skill and the effect of the other seats' moves add up to its result."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludoteca.analysis.analyse import analyse
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game


def bots_match(game_name: str, players: int, seed: int, level: str = "greedy") -> MatchRecord:
    bots = [make_bot(level, game_name, seed + s) for s in range(players)]
    match = Match.new(get_game(game_name), {}, players, seed, controllers=bots, narrate=False)
    match.run_bots()
    return match.record


def finish_with_greedy(record: MatchRecord) -> Match:
    game = get_game(record.game)
    bots = [make_bot("greedy", record.game, 100 + s) for s in range(record.players)]
    match = Match.from_record(game, record, controllers=bots, narrate=False)
    match.run_bots()
    return match


def drawn_after(record: MatchRecord) -> list[bool]:
    """Per action: whether it drew something."""
    game = get_game(record.game)
    match = Match.unplayed(game, record, narrate=False)
    out = []
    for seat, data in record.actions:
        action = game.action_from_json(data)
        out.append(game.chance(match.state, seat, action))
        match.step(seat, action)
    return out


def test_the_value_after_a_move_is_the_value_before_the_next_decision() -> None:
    """Greedy Kingdomino matches: wherever nothing is drawn between two decisions (nobody sees
    the deck, so every seat knows the same), the two values are one number, for every seat."""
    pairs = close = 0
    for seed in (1, 2, 3):
        record = bots_match("kingdomino", 2, seed)
        moves = analyse(record, budget=4, seed=0)["moves"]
        drawn = drawn_after(record)
        for t in range(len(moves) - 1):
            if drawn[t]:
                continue
            for s in range(2):
                pairs += 1
                close += abs(moves[t]["after"]["win"][s] - moves[t + 1]["before"]["win"][s]) <= 2
                assert moves[t]["after"]["score"][s] == moves[t + 1]["before"]["score"][s]
    assert pairs >= 200
    assert close == pairs


GAMES: list[tuple[str, int, int, dict[str, Any]]] = [
    ("kingdomino", 2, 6, {}), ("kingdomino", 4, 2, {}), ("queendomino", 2, 2, {}),
    ("buttons", 2, 3, {}), ("kami", 2, 2, {"target": 10}), ("goita", 4, 3, {})]
"""Game, players, matches, options (Kami's shortest match: a random one runs for many deals)."""


@pytest.mark.parametrize(("game_name", "players", "matches", "options"), GAMES)
def test_start_luck_skill_and_the_others_moves_add_up_to_the_result(
        game_name: str, players: int, matches: int, options: dict[str, Any]) -> None:
    """Random matches of every game, the least budget (the identity holds by construction at
    any budget): for every seat, in win chance and in score, to the rounding."""
    for seed in range(matches):
        match = Match.new(get_game(game_name), options, players, seed, narrate=False)
        match.play_random(random.Random(seed).random)
        analysis = analyse(match.record, budget=1, seed=seed)
        assert analysis["luck"][0]["kind"] == "setup"
        for s in analysis["seats"]:
            for unit, within in (("win", 0.02), ("score", 0.002)):
                total = s["start"][unit] + s["luck"][unit] + s["skill"][unit] + s["others"][unit]
                assert total == pytest.approx(s["result"][unit], abs=within), (s, unit)
