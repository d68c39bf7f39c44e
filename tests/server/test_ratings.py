"""Ratings rate the sides the outcome names (``Outcome.teams``), never sides guessed from the
breakdown or the seats: 4-player Kami and Goita partners and Queendomino teams are one team."""

from __future__ import annotations

from types import SimpleNamespace

from random_play import finished

from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.server.pools import one_match, sides_of
from ludoteca.server.result_rows import result_seat_rows


def test_teams_come_from_the_outcome() -> None:
    outcome = GOITA.outcome(finished(GOITA, 4, 2))
    assert outcome is not None
    table = {"id": "g1", "result": outcome.to_json()}
    rows = [SimpleNamespace(**r) for r in result_seat_rows(
        table, [(seat, seat + 1, None) for seat in range(4)])]
    assert sides_of(rows)[0] == [["user:1", "user:3"], ["user:2", "user:4"]]
    rated = one_match({}, {}, rows)
    assert rated["user:1"] == rated["user:3"] != rated["user:2"] == rated["user:4"]
    # an older stored result without teams: one seat per side, nothing read from the breakdown
    old = {"id": "g2", "result": {"scores": [1, 2], "ranks": [2, 1],
                                  "breakdown": [{"partners": [0, 1]}] * 2}}
    rows = [SimpleNamespace(**r) for r in result_seat_rows(old, [(0, 1, None), (1, 2, None)])]
    assert sides_of(rows) == ([["user:1"], ["user:2"]], [2, 1])
