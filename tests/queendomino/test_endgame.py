"""The exact solver of 2-player Queendomino's last turns (``endgame.py``, issue 34) against
plain minimax over the engine's moves and final outcome, which knows nothing of alpha-beta or
memory."""

from __future__ import annotations

from typing import Any

from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import get_game
from ludoteca.games.queendomino import endgame

GAME = get_game("queendomino")


def bots_match(levels: list[str], seed: int, options: dict[str, Any] | None = None
               ) -> MatchRecord:
    bots = [make_bot(level, "queendomino", seed + s) for s, level in enumerate(levels)]
    match = Match.new(GAME, options or {}, len(levels), seed, controllers=bots, narrate=False)
    match.run_bots()
    return match.record


def positions(record: MatchRecord) -> list[Any]:
    """The state before every action of the match."""
    match = Match.unplayed(GAME, record, narrate=False)
    out = []
    for seat, data in record.actions:
        out.append(GAME.clone(match.state))
        match.step(seat, GAME.action_from_json(data))
    return out


def plain_minimax(state: Any) -> tuple[float, int, int]:
    """(seat 0's share of the win, its margin, its score), seat 0 raising it and seat 1
    lowering it, by brute force to the engine's outcome."""
    outcome = GAME.outcome(state)
    if outcome is not None:
        r, s = outcome.ranks, outcome.scores
        return (1.0 if r[0] < r[1] else 0.5 if r[0] == r[1] else 0.0), s[0] - s[1], s[0]
    (seat,) = GAME.to_act(state)
    values = []
    for action in GAME.legal_actions(state, seat):
        child = GAME.clone(state)
        GAME.apply_legal(child, seat, action)
        values.append(plain_minimax(child))
    return max(values) if seat == 0 else min(values)


def test_only_the_last_turns_of_two_players_are_solved() -> None:
    states = positions(bots_match(["greedy", "greedy"], 1))
    solved = [endgame.exact(GAME, s) is not None for s in states]
    first = solved.index(True)
    assert all(solved[first:]) and not any(solved[:first])
    assert not states[first - 1].nxt  # inside the last round: nothing left to reveal
    assert sum(1 for s in states[first:] if s.step == 0) == endgame.TURNS  # its last turns
    assert endgame.exact(GAME, positions(bots_match(["greedy"] * 3, 2))[-1]) is None


def test_the_solver_agrees_with_plain_minimax_in_the_last_turns() -> None:
    """Matches of random and greedy bots: every position of the solved tail, the same share
    of the win, margin and score, and the final scores the engine gives the line found."""
    checked = 0
    for levels, seed in ((["greedy", "random"], 3), (["random", "greedy"], 4),
                         (["greedy", "greedy"], 5), (["random", "random"], 6)):
        states = positions(bots_match(levels, seed))
        for state in states:
            found = endgame.exact(GAME, state)
            if found is None:
                continue
            (share, _), (mine, theirs) = found
            assert (share, int(mine - theirs), int(mine)) == plain_minimax(state)
            checked += 1
    assert checked >= 20


def test_the_values_do_not_depend_on_what_was_solved_before() -> None:
    states = [s for s in positions(bots_match(["random", "greedy"], 7))
              if endgame.solvable(s)]
    fresh = []
    for s in states:
        endgame._solvers.clear()
        fresh.append(endgame.exact(GAME, s))
    endgame._solvers.clear()
    behind = [endgame.exact(GAME, s) for s in reversed(states)][::-1]
    endgame._solvers.clear()
    ahead = [endgame.exact(GAME, s) for s in states]
    assert fresh == ahead == behind
