"""The arena's pairing and points (tournament/arena.py, scoring.ArenaScoring): hand-worked
waves (near in score, no immediate rematch where another choice exists, tables of four grouped
by points, rematches held while others are still playing), streaks, and a property over random
arenas simulated wave by wave: nobody seated twice, tables full, the leftovers fewer than a
table, no immediate rematch when holding, and the points the standings give equal to the
streak rule written out."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.tournament.arena import (
    arena_tables,
    free_entrants,
    latest_opponents,
    win_streaks,
)
from ludoteca.tournament.model import Entrant, GameResult, RoundDraw, result_from_scores
from ludoteca.tournament.pairing import Format, format_standings
from ludoteca.tournament.scoring import ArenaScoring

SIX = [Entrant(f"p{i}", 2000 - 100 * i) for i in range(1, 7)]


def pairs(draw: RoundDraw) -> list[set[str]]:
    return [set(t.seats) for t in draw.tables]


def test_free_entrants_are_those_at_no_table() -> None:
    assert [e.id for e in free_entrants(SIX, ["p2", "p5"])] == ["p1", "p3", "p4", "p6"]


def test_a_wave_pairs_neighbours_in_points() -> None:
    # p1 and p2 won (2 each), p5 and p6 drew (1 each), p3 and p4 lost (0)
    results = [GameResult(1, 1, ("p1", "p3"), (1, 2)), GameResult(1, 2, ("p2", "p4"), (1, 2)),
               GameResult(1, 3, ("p5", "p6"), (1, 1))]
    draw, waiting = arena_tables(SIX, results, wave=2)
    # the 2s meet; p5 would meet p6 again, so takes the nearest other (p3, on 0); p6 meets p4
    assert pairs(draw) == [{"p1", "p2"}, {"p5", "p3"}, {"p6", "p4"}] and waiting == []


def test_an_immediate_rematch_only_when_no_other_choice_and_nobody_else_is_playing() -> None:
    results = [GameResult(1, 1, ("p1", "p2"), (1, 2))]
    # only p1 and p2 free: with nobody else at a table they meet again
    draw, waiting = arena_tables(SIX[:2], results, wave=2)
    assert pairs(draw) == [{"p1", "p2"}] and waiting == []
    # someone else is still playing: they wait for them instead
    draw, waiting = arena_tables(SIX[:2], results, wave=2, hold_rematches=True)
    assert draw.tables == () and waiting == ["p1", "p2"]
    # with a third free, p1 (2 points) meets p3, and p2 waits
    draw, waiting = arena_tables(SIX[:3], results, wave=2, hold_rematches=True)
    assert pairs(draw) == [{"p1", "p3"}] and waiting == ["p2"]


def test_tables_of_four_group_free_entrants_by_points() -> None:
    eight = [Entrant(f"q{i}", 0.0) for i in range(1, 9)]
    # a first wave of two 4-player tables: q1 and q5 won
    results = [GameResult(1, 1, ("q1", "q2", "q3", "q4"), (1, 2, 3, 4)),
               GameResult(1, 2, ("q5", "q6", "q7", "q8"), (1, 2, 3, 4))]
    draw, waiting = arena_tables(eight, results, wave=2, table_size=4, seed=1)
    # points 6,4,2,0 each: board 1 the 6s and 4s, board 2 the 2s and 0s; nobody's whole last
    # table again
    assert pairs(draw) == [{"q1", "q5", "q2", "q6"}, {"q3", "q7", "q4", "q8"}]
    assert waiting == []
    draw, waiting = arena_tables(eight[:6], results, wave=2, table_size=4)
    assert len(draw.tables) == 1 and len(waiting) == 2


def test_streaks_and_doubled_place_points_at_four_players() -> None:
    """Hand-worked: at four players a place pays 6/4/2/0, tied places sharing. A wins twice
    (6, 6) and is on fire; comes 2nd in game 3 (4, doubled: 8; the streak ends); wins game 4
    (6). B: 4, 2, wins game 3 (6), ties C for 2nd in game 4 ((4 + 2) / 2 = 3): 15. C: 2, 4,
    2, 3: 11. D: 0."""
    results = [
        GameResult(1, 1, ("A", "B", "C", "D"), (1, 2, 3, 4)),
        GameResult(2, 1, ("A", "B", "C", "D"), (1, 3, 2, 4)),
        GameResult(3, 1, ("A", "B", "C", "D"), (2, 1, 3, 4)),
        GameResult(4, 1, ("A", "B", "C", "D"), (1, 2, 2, 4)),
    ]
    points = ArenaScoring().points(results)
    assert [p[0] for p in points] == [6, 6, 8, 6]
    assert [p[1] for p in points] == [4, 2, 6, 3]
    assert points[3][2] == 3  # C tied 2nd with B: (4 + 2) / 2
    assert win_streaks(results) == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert win_streaks(results[:2]) == {"A": 2, "B": 0, "C": 0, "D": 0}
    assert latest_opponents(results)["A"] == {"B", "C", "D"}
    table = format_standings(Format("arena", 4), [Entrant(x) for x in "ABCD"], results, ())
    assert [(r.entrant, r.points) for r in table.rows] == [
        ("A", 26), ("B", 15), ("C", 11), ("D", 0)]


def by_hand(results: list[GameResult]) -> dict[str, float]:
    """docs/tournaments.md's arena points, written out plainly."""
    points: dict[str, float] = {}
    streak: dict[str, int] = {}
    for r in sorted(results, key=lambda r: r.key):
        n = len(r.seats)
        for seat, who in enumerate(r.seats):
            place = r.places[seat]
            tied = r.places.count(place)
            base = sum(2.0 * (n - p) for p in range(place, place + tied)) / tied
            points[who] = points.get(who, 0.0) + base * (2 if streak.get(who, 0) >= 2 else 1)
            streak[who] = streak.get(who, 0) + 1 if place == 1 and tied == 1 else 0
    return points


@settings(max_examples=examples(60), deadline=None)
@given(size=st.sampled_from([2, 3, 4]), n=st.integers(2, 13), hold=st.booleans(),
       data=st.data())
def test_random_arenas_seat_everyone_once_and_score_by_the_streak_rule(
        size: int, n: int, hold: bool, data: st.DataObject) -> None:
    entrants = [Entrant(f"e{i}", float(i % 3)) for i in range(n)]
    results: list[GameResult] = []
    playing: list[tuple[str, ...]] = []
    for wave in range(1, 9):
        # some running tables end (their seats get places), the others play on
        ending = data.draw(st.lists(st.booleans(), min_size=len(playing),
                                    max_size=len(playing)))
        for table, ends in zip(list(playing), ending, strict=True):
            if ends:
                scores = data.draw(st.lists(st.integers(0, 2), min_size=len(table),
                                            max_size=len(table)))
                results.append(result_from_scores(wave - 1, len(results) + 1, table, scores))
                playing.remove(table)
        seated = [e for t in playing for e in t]
        free = free_entrants(entrants, seated)
        draw, waiting = arena_tables(free, results, wave, size, seed=wave,
                                     hold_rematches=hold and bool(playing))
        placed = [e for t in draw.tables for e in t.seats]
        assert len(set(placed)) == len(placed) and not set(placed) & set(seated)
        assert sorted(placed + waiting) == sorted(e.id for e in free)
        assert all(len(t.seats) == size for t in draw.tables)
        latest = latest_opponents(results)
        if hold and playing:
            assert not any(b in latest.get(a, ()) for t in draw.tables
                           for a in t.seats for b in t.seats)
        else:
            assert len(waiting) < size
        playing += [t.seats for t in draw.tables]
    table = format_standings(Format("arena", size), entrants, results, ())
    hand = by_hand(results)
    assert {r.entrant: r.points for r in table.rows} == {
        e.id: hand.get(e.id, 0.0) for e in entrants}
