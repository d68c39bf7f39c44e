"""A match ends as sides (issue 38): ``Outcome.sides`` lists each side once with its seats, its
score and its rank counted over sides, which the result, the record and every end screen carry;
a result stored before it was said gets the same from its teams and ranks."""

from __future__ import annotations

from ludoteca.bots import make_bot
from ludoteca.engine.game import Outcome
from ludoteca.engine.match import Match
from ludoteca.games import get_game
from ludoteca.server.results import side_rank


def ranks(outcome: Outcome) -> list[int]:
    return [side.rank for side in outcome.sides]


def test_ranks_count_sides_not_seats() -> None:
    two_teams = Outcome(scores=(14, 18, 14, 18), ranks=(3, 1, 3, 1), teams=((0, 2), (1, 3)))
    assert ranks(two_teams) == [2, 1]
    assert [list(s.seats) for s in two_teams.sides] == [[0, 2], [1, 3]]
    assert [s.score for s in two_teams.sides] == [14, 18]
    level = Outcome(scores=(9, 9, 9, 9), ranks=(1, 1, 1, 1), teams=((0, 2), (1, 3)))
    assert ranks(level) == [1, 1]  # two sides on a tie: 1, 1
    three = Outcome(scores=(20, 20, 9, 20, 20, 9), ranks=(1, 1, 5, 1, 1, 5),
                    teams=((0, 3), (1, 4), (2, 5)))
    assert ranks(three) == [1, 1, 3]  # the next rank counts the sides above it
    alone = Outcome(scores=(30, 30, 12), ranks=(1, 2, 3))
    assert ranks(alone) == [1, 2, 3] and [list(s.seats) for s in alone.sides] == [[0], [1], [2]]


def test_the_json_says_the_sides_and_reads_back_without_them() -> None:
    outcome = Outcome(scores=(14, 18, 14, 18), ranks=(3, 1, 3, 1), teams=((0, 2), (1, 3)))
    data = outcome.to_json()
    assert data["sides"] == [{"seats": [0, 2], "score": 14, "rank": 2},
                             {"seats": [1, 3], "score": 18, "rank": 1}]
    assert Outcome.from_json(data) == outcome
    old = {k: v for k, v in data.items() if k != "sides"}
    assert [side_rank(old, seat) for seat in range(4)] == [2, 1, 2, 1]
    assert [side_rank(data, seat) for seat in range(4)] == [2, 1, 2, 1]
    assert side_rank({}, 0) is None


def test_a_played_four_player_kami_ends_as_two_teams() -> None:
    game = get_game("kami")
    bots = [make_bot("random", "kami", 5 + s) for s in range(4)]
    match = Match.new(game, {"target": 10}, 4, 5, controllers=bots, narrate=False)
    match.run_bots()
    outcome = match.outcome
    assert outcome is not None
    assert sorted(ranks(outcome)) == [1, 2]
    assert sorted(outcome.ranks) == [1, 1, 3, 3]  # the seats' own ranks are unchanged
    assert match.record.result is not None and match.record.result["sides"] == [
        side.to_json() for side in outcome.sides]
