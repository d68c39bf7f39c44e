"""Standings on hand-worked examples: place points, forfeits, smaller tables, arena streaks,
and Buchholz, its cut-1 and Sonneborn-Berger on a crosstable worked out below."""

from __future__ import annotations

import pytest

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import Voice
from ludoteca.tournament.model import Bye, Entrant, GameResult
from ludoteca.tournament.pairing import Format, format_standings
from ludoteca.tournament.scoring import ArenaScoring, Scoring, effective_places
from ludoteca.tournament.standings import TIEBREAKS, standings

ABCD = [Entrant(e) for e in "ABCD"]

# A four-entrant, three-round Swiss at two players (win 1, draw ½, loss 0):
#
#          R1      R2      R3      points
#   A     +B       =C      +D      2.5
#   B     -A       +D      =C      1.5
#   C     =D       =A      =B      1.5
#   D     =C       -B      -A      0.5
#
# Buchholz (opponents' points):  A 1.5+1.5+0.5 = 3.5   B 2.5+0.5+1.5 = 4.5
#                                C 0.5+2.5+1.5 = 4.5   D 1.5+1.5+2.5 = 5.5
# Buchholz cut 1 (minus the weakest): A 3.0   B 4.0   C 4.0   D 4.0
# Sonneborn-Berger (beaten opponents' points + half the drawn ones'):
#   A 1.5 + 0.75 + 0.5 = 2.75   B 0.5 + 0.75 = 1.25   C 0.25 + 1.25 + 0.75 = 2.25   D 0.75
# B and C tie on points, cut 1 and Buchholz; Sonneborn-Berger puts C ahead.
CROSSTABLE = [
    GameResult(1, 1, ("A", "B"), (1, 2)),
    GameResult(1, 2, ("C", "D"), (1, 1)),
    GameResult(2, 1, ("C", "A"), (1, 1)),
    GameResult(2, 2, ("D", "B"), (2, 1)),
    GameResult(3, 1, ("A", "D"), (1, 2)),
    GameResult(3, 2, ("B", "C"), (1, 1)),
]


def test_buchholz_cut1_and_sonneborn_berger_on_the_worked_crosstable() -> None:
    table = standings(ABCD, CROSSTABLE, (), Scoring(2),
                      ("buchholz_cut1", "buchholz", "sonneborn_berger"))
    rows = {r.entrant: (r.rank, r.points, r.tiebreaks) for r in table.rows}
    assert rows == {
        "A": (1, 2.5, (3.0, 3.5, 2.75)),
        "C": (2, 1.5, (4.0, 4.5, 2.25)),
        "B": (3, 1.5, (4.0, 4.5, 1.25)),
        "D": (4, 0.5, (4.0, 5.5, 0.75)),
    }
    assert [r.entrant for r in table.rows] == ["A", "C", "B", "D"]


def test_equal_on_everything_shares_the_rank() -> None:
    results = [GameResult(1, 1, ("A", "B"), (1, 1)), GameResult(1, 2, ("C", "D"), (1, 1))]
    table = standings(ABCD, results, (), Scoring(2), ("buchholz",))
    assert [r.rank for r in table.rows] == [1, 1, 1, 1]


def test_a_bye_scores_a_win_by_default_and_brings_no_opponent() -> None:
    results = [GameResult(1, 1, ("A", "B"), (2, 1))]
    table = standings(ABCD[:3], results, [Bye(1, "C")], Scoring(2), ("buchholz",))
    rows = {r.entrant: (r.points, r.tiebreaks, r.byes) for r in table.rows}
    assert rows == {"B": (1.0, (0.0,), 0), "C": (1.0, (0.0,), 1), "A": (0.0, (1.0,), 0)}
    half = standings(ABCD[:3], results, [Bye(1, "C")], Scoring(2, bye_points=0.5), ())
    assert half.points()["C"] == 0.5


def test_place_points_at_four_ties_share_the_mean() -> None:
    scoring = Scoring(4)
    assert scoring.table_points(4) == (6.0, 4.0, 2.0, 0.0)
    shared = GameResult(1, 1, ("A", "B", "C", "D"), (1, 2, 2, 4))
    assert scoring.game_points(shared) == (6.0, 3.0, 3.0, 0.0)
    custom = Scoring(4, place_points=(5, 3, 1, 0))
    assert custom.game_points(shared) == (5.0, 2.0, 2.0, 0.0)
    assert custom.bye == 5.0


def test_a_smaller_table_pays_what_the_same_fraction_down_a_full_table_pays() -> None:
    assert Scoring(4).table_points(3) == (6.0, 3.0, 0.0)
    assert Scoring(4).table_points(2) == (6.0, 0.0)
    assert Scoring(8).table_points(5) == (14.0, 10.5, 7.0, 3.5, 0.0)
    with pytest.raises(OptionError):
        Scoring(4).table_points(5)


def test_a_forfeit_goes_below_everyone_who_played() -> None:
    result = GameResult(1, 1, ("A", "B", "C", "D"), (1, 2, 3, 4), forfeits=(True, False, False,
                                                                            False))
    assert effective_places(result) == (4, 1, 2, 3)
    assert Scoring(4).game_points(result) == (0.0, 6.0, 4.0, 2.0)
    two = GameResult(1, 1, ("A", "B", "C", "D"), (1, 2, 3, 4), forfeits=(True, False, True,
                                                                         False))
    assert effective_places(two) == (3, 1, 4, 2)


def test_multiplayer_opponents_points_and_game_score() -> None:
    # R1: A 1st, B 2nd, C 3rd (a table of three pays 6/3/0 in a four-player Swiss)
    # R2: A, B, C, D finish 4th, 1st, 2nd, 3rd (0/6/4/2).
    # Points: A 6, B 9, C 4, D 2.  Opponents' points, the mean of the others per game:
    # A (9+4)/2 + (9+4+2)/3 = 6.5 + 5 = 11.5;  D (6+9+4)/3 = 19/3.
    results = [
        GameResult(1, 1, ("A", "B", "C"), (1, 2, 3), scores=(40, 30, 20)),
        GameResult(2, 1, ("A", "B", "C", "D"), (4, 1, 2, 3), scores=(10, 50, 40, 30)),
    ]
    table = standings(ABCD, results, (), Scoring(4), ("opponents_points", "game_score"))
    rows = {r.entrant: (r.points, r.tiebreaks) for r in table.rows}
    assert rows["A"] == (6.0, (11.5, 50.0))
    assert rows["B"] == (9.0, ((6 + 4) / 2 + (6 + 4 + 2) / 3, 80.0))
    assert rows["D"][0] == 2.0 and rows["D"][1][0] == pytest.approx(19 / 3)
    assert [r.entrant for r in table.rows] == ["B", "A", "C", "D"]


def test_arena_streak_doubles_after_two_wins_until_a_game_is_not_won() -> None:
    results = [
        GameResult(1, 1, ("A", "B"), (1, 2)),   # A 2
        GameResult(2, 1, ("A", "C"), (1, 2)),   # A 2, now on fire
        GameResult(3, 1, ("A", "D"), (1, 2)),   # A 4
        GameResult(4, 1, ("A", "B"), (1, 1)),   # A 2 (a draw, doubled) and the streak ends
        GameResult(5, 1, ("A", "C"), (1, 2)),   # A 2
    ]
    points = ArenaScoring().points(results)
    assert [p[0] for p in points] == [2.0, 2.0, 4.0, 2.0, 2.0]
    assert [p[0] for p in ArenaScoring(streaks=False).points(results)] == [2, 2, 2, 1, 2]
    assert ArenaScoring().on_fire(results[:3]) == {"A"}
    assert ArenaScoring().on_fire(results) == set()
    table = format_standings(Format("arena"), ABCD, results, ())
    assert table.rows[0].entrant == "A" and table.rows[0].points == 12.0
    assert table.tiebreaks == ("wins", "game_score") and table.rows[0].tiebreaks[0] == 4


def test_the_same_results_in_any_order_or_twice_give_the_same_standings() -> None:
    keys = ("buchholz_cut1", "buchholz", "sonneborn_berger")
    once = standings(ABCD, CROSSTABLE, (), Scoring(2), keys)
    again = standings(ABCD, list(reversed(CROSSTABLE)) + CROSSTABLE[:2], (), Scoring(2), keys)
    assert once == again


def test_bad_results_are_refused_in_words() -> None:
    with pytest.raises(OptionError, match="two different results for round 1, board 1"):
        standings(ABCD, [CROSSTABLE[0], GameResult(1, 1, ("A", "B"), (2, 1))], (),
                  Scoring(2), ())
    with pytest.raises(OptionError, match="Z, who is not entered"):
        standings(ABCD, [GameResult(1, 1, ("A", "Z"), (1, 2))], (), Scoring(2), ())
    with pytest.raises(OptionError, match="one place from 1 to 2"):
        GameResult(1, 1, ("A", "B"), (1, 3))
    with pytest.raises(OptionError, match="two different entrants"):
        GameResult(1, 1, ("A", "A"), (1, 2))
    with pytest.raises(OptionError, match="unknown tie-break 'elo'"):
        standings(ABCD, [], (), Scoring(2), ("elo",))


def test_every_tiebreak_has_a_name_and_a_rule_in_english_and_spanish() -> None:
    spanish = Voice("es")
    for tiebreak in TIEBREAKS.values():
        for msgid in (tiebreak.name, tiebreak.rule):
            said = spanish.t(msgid)
            assert said and msgid not in spanish.catalog.missing
        assert spanish.t(tiebreak.rule) != tiebreak.rule
    table = standings(ABCD, CROSSTABLE, (), Scoring(2), ("sonneborn_berger",))
    data = table.to_json()
    assert data["tiebreaks"][0]["name"] == "Sonneborn-Berger"
    assert data["rows"][0] == {"rank": 1, "entrant": "A", "points": 2.5,
                               "tiebreaks": {"sonneborn_berger": 2.75}, "games": 3, "byes": 0}
