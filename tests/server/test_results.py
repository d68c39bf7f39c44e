"""What the server adds to a result (server/results.py): which seats the tie-break decided,
and each rating's change."""

from __future__ import annotations

from ludoteca.engine.game import Outcome
from ludoteca.server.results import rating_change, tie_broken


def test_only_tied_seats_ranked_apart_are_named() -> None:
    assert tie_broken(Outcome(scores=(40, 40, 12), ranks=(2, 1, 3))) == [0, 1]
    assert tie_broken(Outcome(scores=(40, 40, 12), ranks=(1, 1, 3))) == []  # a shared win
    assert tie_broken(Outcome(scores=(40, 30), ranks=(1, 2))) == []


def test_partners_are_never_tied_with_each_other() -> None:
    teams = ((0, 2), (1, 3))
    assert tie_broken(Outcome(scores=(5, 3, 5, 3), ranks=(1, 2, 1, 2), teams=teams)) == []
    tied = Outcome(scores=(5, 5, 5, 5), ranks=(1, 2, 1, 2), teams=teams)
    assert tie_broken(tied) == [0, 1, 2, 3]


def test_a_rating_change_carries_its_difference() -> None:
    assert rating_change(1, 3.5, 1.25) == {"seat": 1, "before": 3.5, "after": 1.25,
                                           "delta": -2.25}
    assert rating_change(0, 0.1, 0.3)["delta"] == 0.2  # rounded as shown, no float noise
