"""Kami's and Goita's exact tail (``endgame.py``, issue 34): where it is well defined (every
hand known to every seat, every ending ends the match), that every seat's view really
determines the state, and that the solver agrees with plain minimax over the engine's moves
and outcome."""

from __future__ import annotations

from typing import Any

from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.kami import endgame
from ludoteca.games.kami.state import PLAY


def bots_match(game_name: str, players: int, seed: int, options: dict[str, Any]) -> MatchRecord:
    bots = [make_bot("greedy", game_name, seed + s) for s in range(players)]
    match = Match.new(get_game(game_name), options, players, seed, controllers=bots,
                      narrate=False)
    match.run_bots()
    return match.record


def positions(record: MatchRecord) -> list[Any]:
    game = get_game(record.game)
    match = Match.unplayed(game, record, narrate=False)
    out = []
    for seat, data in record.actions:
        out.append(game.clone(match.state))
        match.step(seat, game.action_from_json(data))
    return out


def plain_minimax(game: Any, state: Any) -> tuple[float, int, int]:
    """(side 0's share of the win, its margin, its score), side 0 raising it, side 1 lowering
    it, by brute force to the engine's outcome (seat 0 plays for side 0, seat 1 for side 1)."""
    outcome = game.outcome(state)
    if outcome is not None:
        r, s = outcome.ranks, outcome.scores
        return (1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0), s[0] - s[1], s[0]
    (seat,) = game.to_act(state)
    values = []
    for action in game.legal_actions(state, seat):
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        values.append(plain_minimax(game, child))
    return max(values) if state.cfg.side_of[seat] == 0 else min(values)


CASES = [("kami", 2, {"target": 10}), ("kami", 4, {"target": 10}), ("goita", 4, {})]
LEFT = {2: 10, 4: 14}
"""Cards left in hands and mercenary stacks for plain minimax to take well under a second."""


def left(state: Any) -> int:
    return sum(state.sizes) + sum(1 for c in (*state.merc_up, *state.merc_down) if c >= 0)


def test_the_solver_agrees_with_plain_minimax_where_every_ending_ends_the_match() -> None:
    """The last plays of every deal of greedy matches, each side's score set one card short
    of the target (so that going out ends the match, whatever the card): the solver, which
    here is asked whatever the information, and brute force give the same share of the win,
    margin and score."""
    checked = 0
    for game_name, players, options in CASES:
        game = get_game(game_name)
        for seed in (1, 2):
            for state in positions(bots_match(game_name, players, seed, options)):
                if state.phase != PLAY or left(state) > LEFT[players]:
                    continue
                state = game.clone(state)
                state.scores = [state.cfg.target - min(state.cfg.values)] * state.cfg.sides
                assert endgame.every_ending_ends_the_match(state)
                (share, *_), (mine, theirs, *_) = endgame.solve(game, state)
                assert (share, int(mine - theirs), int(mine)) == plain_minimax(game, state)
                checked += 1
    assert checked >= 20


def test_where_a_seat_knows_every_hand_re_dealing_what_it_cannot_see_changes_nothing() -> None:
    """The no-leak side of the gate: wherever a seat's view is said to determine every hand,
    every state drawn from that view holds the true hands and hidden cards; the whole tail
    (every seat knowing, every ending ending the match) stays the tail whatever is played, and
    it is rare in real matches."""
    known = solvable = plays = 0
    for game_name, players, options in CASES:
        game = get_game(game_name)
        for seed in (2, 3):
            for state in positions(bots_match(game_name, players, seed, options)):
                if state.phase != PLAY:
                    continue
                plays += 1
                if endgame.solvable(state):  # and stays so whatever is played
                    solvable += 1
                    (seat,) = game.to_act(state)
                    for action in game.legal_actions(state, seat):
                        child = game.clone(state)
                        game.apply_legal(child, seat, action)
                        assert endgame.solvable(child)
                for seat in range(players):
                    if not endgame.knows_every_hand(state, seat):
                        continue
                    known += 1
                    view = game.view(state, seat)
                    for i in range(6):
                        drawn = game.determinize(view, seat, Rng(i))
                        assert drawn.hands == state.hands
                        assert drawn.merc_down == state.merc_down
    assert plays > 500 and known >= 1
    assert solvable <= plays // 100
