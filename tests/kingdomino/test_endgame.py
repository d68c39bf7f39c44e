"""The exact solver of 2-player Kingdomino's perfect-information tail (``endgame.py``, issue 34)
against plain minimax over the engine's moves and final outcome, which knows nothing of its
per-seat last round or its memory."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.games.kingdomino import endgame
from ludoteca.games.kingdomino.state import KingdominoState

GAME = get_game("kingdomino")


def bots_match(levels: list[str], seed: int) -> MatchRecord:
    bots = [make_bot(level, "kingdomino", seed + s) for s, level in enumerate(levels)]
    match = Match.new(GAME, {}, 2, seed, controllers=bots, narrate=False)
    match.run_bots()
    return match.record


def positions(record: MatchRecord) -> list[KingdominoState]:
    """The state before every action of the match."""
    match = Match.unplayed(GAME, record, narrate=False)
    out = []
    for seat, data in record.actions:
        out.append(GAME.clone(match.state))
        match.step(seat, GAME.action_from_json(data))
    return out


def plain_minimax(state: Any) -> tuple[float, int]:
    """Seat 0's share of the win, then its margin, both seats playing their best (each
    maximises its own share, then its own margin), by brute force to the engine's outcome."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        r, s = outcome.ranks, outcome.scores
        return (1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0), s[0] - s[1]
    (seat,) = GAME.to_act(state)
    values = []
    for action in GAME.legal_actions(state, seat):
        child = GAME.clone(state)
        GAME.apply_legal(child, seat, action)
        values.append(plain_minimax(child))
    if seat == 0:
        return max(values)
    return max(values, key=lambda v: (1.0 - v[0], -v[1]))


def test_nothing_is_solved_while_a_line_is_still_hidden() -> None:
    states = positions(bots_match(["greedy", "greedy"], 3))
    solved = [endgame.solvable(s) for s in states]
    first = solved.index(True)
    assert first == len(states) - 12  # from the last line turned up: 4 kings place and claim,
    assert all(solved[first:]) and not any(solved[:first])  # then 4 last placements
    four = Match.new(GAME, {}, 4, 1, narrate=False)
    four.play_random(random.Random(1).random)
    assert not endgame.solvable(four.state) or GAME.is_over(four.state)
    assert endgame.exact(GAME, positions(four.record)[-6]) is None  # 4 players: not yet solved


def test_the_solver_agrees_with_plain_minimax_in_the_tail() -> None:
    """Matches of random and greedy bots: every position from the last line turned up in the
    first (plain minimax takes seconds there), the last eight in the others: the same share of
    the win and the same margin."""
    checked = 0
    for levels, seed, last in ((["greedy", "random"], 2, 12), (["random", "greedy"], 1, 8),
                               (["random", "random"], 3, 8), (["greedy", "greedy"], 4, 8)):
        states = positions(bots_match(levels, seed))
        for state in states[-last:]:
            wins, scores = endgame.exact(GAME, state) or ([], [])
            assert (wins[0], scores[0] - scores[1]) == plain_minimax(state)
            checked += 1
    assert checked == 36


def test_the_solver_values_the_end_as_the_engine_scores_it() -> None:
    record = bots_match(["greedy", "random"], 5)
    match = Match.from_record(GAME, record, narrate=False)
    outcome = match.outcome
    assert outcome is not None
    wins, scores = endgame.exact(GAME, match.state) or ([], [])
    assert scores == [float(x) for x in outcome.scores]
    assert wins == [1.0 if r == 1 and outcome.ranks.count(1) == 1 else
                    0.5 if r == 1 else 0.0 for r in outcome.ranks]


def test_the_values_do_not_depend_on_what_was_solved_before() -> None:
    """Scores as well as results: the analysis's processes solve the positions of a tail in
    different orders, and their parts must add up to the same bytes."""
    states = positions(bots_match(["greedy", "greedy"], 6))[-12:]
    forward = [endgame.Endgame(GAME, states[0].deck) for _ in range(2)]
    ahead = [forward[0].value(s) for s in states]
    behind = [forward[1].value(s) for s in reversed(states)][::-1]
    alone = [endgame.Endgame(GAME, s.deck).value(s) for s in states]
    assert ahead == behind == alone


def bots_match_of(players: int, seed: int) -> MatchRecord:
    levels = ["greedy", "random"] * 2
    bots = [make_bot(levels[s], "kingdomino", seed + s) for s in range(players)]
    match = Match.new(GAME, {}, players, seed, controllers=bots, narrate=False)
    match.run_bots()
    return match.record


def every_ending(state: Any) -> list[Any]:
    """The engine's outcome of every way the rest of the match can go (brute force)."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        return [outcome]
    (seat,) = GAME.to_act(state)
    found = []
    for action in GAME.legal_actions(state, seat):
        child = GAME.clone(state)
        GAME.apply_legal(child, seat, action)
        found += every_ending(child)
    return found


def test_the_last_round_is_solved_for_three_and_four_players() -> None:
    """3 and 4 players: only the last round, where each seat places alone, is solved. Against
    brute force over every joint way the last two placements can go: each seat's score is the
    best it can reach, and the shares are those of the ending where every seat reaches its
    best at once (one exists: no placement touches another kingdom)."""
    checked = 0
    for players, seed in ((3, 1), (3, 2), (4, 3), (4, 4)):
        states = positions(bots_match_of(players, seed))
        solved = [endgame.exact(GAME, s) is not None for s in states]
        first = solved.index(True)
        assert all(solved[first:]) and len(states) - first == (3 if players == 3 else 4)
        assert all(endgame.alone(s) for s in states[first:])
        for state in states[-2:]:
            wins, scores = endgame.exact(GAME, state) or ([], [])
            endings = every_ending(state)
            best = [max((o.scores[s], o.tiebreaks[s]) for o in endings) for s in range(players)]
            assert scores == [float(b[0]) for b in best]
            (everyone_best, *_) = [o for o in endings if all(
                (o.scores[s], o.tiebreaks[s]) == best[s] for s in range(players))]
            top = [s for s in range(players) if everyone_best.ranks[s] == 1]
            assert wins == [1.0 / len(top) if s in top else 0.0 for s in range(players)]
            checked += 1
    assert checked == 8
