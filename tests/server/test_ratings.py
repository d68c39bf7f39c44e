"""Ratings rate the sides the outcome names (``Outcome.teams``), never sides guessed from the
breakdown or the seats: 4-player Kami and Goita partners and Queendomino teams are one team."""

from __future__ import annotations

from random_play import finished

from ludoteca.games.kami.goita import GAME as GOITA
from ludoteca.server.ratings import MODEL, teams


def test_teams_come_from_the_outcome() -> None:
    outcome = GOITA.outcome(finished(GOITA, 4, 2))
    assert outcome is not None
    assert teams(outcome.to_json(), 4) == [[0, 2], [1, 3]]
    # an older stored result without teams: one seat per side, nothing read from the breakdown
    assert teams({"scores": [1, 2], "ranks": [2, 1], "breakdown": [{"partners": [0, 1]}] * 2},
                 2) == [[0], [1]]
    sides = teams(outcome.to_json(), 4)
    rated = MODEL.rate([[MODEL.rating() for _ in side] for side in sides],
                       ranks=[float(outcome.ranks[side[0]]) for side in sides])
    assert [len(side) for side in rated] == [2, 2]
