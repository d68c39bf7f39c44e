"""Pairings on hand-worked examples: score groups, no repeat, byes, seats, tables of N,
round-robin, knockout, arena; and the draw's JSON."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from ludoteca.engine.errors import OptionError
from ludoteca.tournament.arena import arena_tables
from ludoteca.tournament.history import table_sizes
from ludoteca.tournament.knockout import bracket_order, knockout_draws
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.multiplayer import pair_swiss_tables, round_robin_tables
from ludoteca.tournament.pairing import Format, format_standings, pair_round
from ludoteca.tournament.roundrobin import berger_rounds
from ludoteca.tournament.swiss import pair_swiss

EIGHT = [Entrant(f"p{i}", 2000 - 100 * i) for i in range(1, 9)]  # p1 the highest rated


def seats(draw: RoundDraw) -> list[tuple[str, ...]]:
    return [t.seats for t in draw.tables]


def pairs(draw: RoundDraw) -> list[set[str]]:
    return [set(t.seats) for t in draw.tables]


def first_wins(draw: RoundDraw) -> list[GameResult]:
    """Every table won by its better-rated seat."""
    rating = {e.id: e.rating for e in EIGHT}
    return [
        GameResult(t.round, t.board, t.seats,
                   tuple(1 + sum(rating[o] > rating[s] for o in t.seats) for s in t.seats))
        for t in draw.tables
    ]


@pytest.mark.parametrize("method", ["exact", "fast"])
def test_round_one_top_half_meets_bottom_half_and_seats_alternate(method: str) -> None:
    draw = pair_swiss(EIGHT, [], [], 1, method=method)
    # 1 v 5, 2 v 6, 3 v 7, 4 v 8; the better-ranked sits first on odd boards
    assert seats(draw) == [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]
    assert draw.byes == ()


@pytest.mark.parametrize("method", ["exact", "fast"])
def test_round_two_pairs_within_score_groups(method: str) -> None:
    one = pair_swiss(EIGHT, [], [], 1, method=method)
    two = pair_swiss(EIGHT, first_wins(one), [], 2, method=method)
    winners = {"p1", "p2", "p3", "p4"}
    assert [t <= winners for t in pairs(two)] == [True, True, False, False]
    if method == "fast":  # the top half against the bottom half, seats aside
        assert pairs(two) == [{"p1", "p3"}, {"p2", "p4"}, {"p5", "p7"}, {"p6", "p8"}]


def test_exact_pairing_puts_seat_balance_before_the_order_in_a_group() -> None:
    one = pair_swiss(EIGHT, [], [], 1)
    two = pair_swiss(EIGHT, first_wins(one), [], 2)
    # round 1 seated p1 p3 p6 p8 first; p1 v p3 would leave one of them first twice running
    sat_first = {t.seats[0] for t in one.tables}
    assert pairs(two)[:2] == [{"p1", "p4"}, {"p2", "p3"}]
    for table in two.tables:
        assert table.seats[0] not in sat_first and table.seats[1] in sat_first


def test_no_repeat_even_when_the_score_groups_ask_for_one() -> None:
    four = [Entrant(x, r) for x, r in (("a", 4), ("b", 3), ("c", 2), ("d", 1))]
    # round 1: a beat c, b beat d; round 2: a beat b, c beat d. Now a 2, b 1, c 1, d 0.
    results = [
        GameResult(1, 1, ("a", "c"), (1, 2)), GameResult(1, 2, ("b", "d"), (1, 2)),
        GameResult(2, 1, ("a", "b"), (1, 2)), GameResult(2, 2, ("c", "d"), (1, 2)),
    ]
    # b and c (both on 1) have not met, so a (2) must meet d (0): the only pairing without
    # a repeat (a-b and c-d, a-c and b-d were played)
    draw = pair_swiss(four, results, [], 3)
    assert pairs(draw) == [{"a", "d"}, {"b", "c"}]


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one() -> None:
    five = EIGHT[:5]
    one = pair_swiss(five, [], [], 1)
    assert one.byes == (Bye(1, "p5"),)
    results = first_wins(one)
    two = pair_swiss(five, results, one.byes, 2)
    # p5 has 1 point from the bye; the lowest without a bye is one of the round's losers
    assert two.byes and two.byes[0].entrant != "p5"
    assert two.byes[0].entrant in {"p3", "p4"}
    fast = pair_swiss(five, results, one.byes, 2, method="fast")
    assert fast.byes[0].entrant != "p5"


def test_the_same_arguments_give_the_same_draw_and_json_round_trips() -> None:
    one = pair_swiss(EIGHT, [], [], 1, seed=3)
    results = first_wins(one)
    assert pair_swiss(EIGHT, results, [], 2, seed=3) == pair_swiss(
        list(reversed(EIGHT)), list(reversed(results)), [], 2, seed=3)
    draw = pair_swiss(EIGHT[:7], results[:2], [], 2)
    assert RoundDraw.from_json(draw.to_json()) == draw
    for result in results:
        assert GameResult.from_json(result.to_json()) == result
    fmt = Format("swiss", table_size=4, rounds=3, min_table=3, place_points=(5, 3, 1, 0))
    assert Format.from_json(fmt.to_json()) == fmt


def test_table_sizes_prefer_smaller_tables_to_byes_down_to_the_minimum() -> None:
    assert table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert table_sizes(10, 4, 4) == ([4, 4], 2)
    assert table_sizes(5, 4, 3) == ([4], 1)
    assert table_sizes(9, 8, 2) == ([5, 4], 0)
    assert table_sizes(7, 2, 2) == ([2, 2, 2], 1)
    with pytest.raises(OptionError, match="smallest table"):
        table_sizes(7, 4, 5)


def test_multiplayer_swiss_groups_leaders_on_board_one_and_avoids_repeats() -> None:
    one = pair_swiss_tables(EIGHT, [], [], 1, table_size=4)
    assert [set(t) for t in seats(one)] == [{"p1", "p2", "p3", "p4"}, {"p5", "p6", "p7", "p8"}]
    # round 1 places follow the ratings: p1 and p5 lead on 6 points, p2 and p6 on 4 ...
    results = first_wins(one)
    two = pair_swiss_tables(EIGHT, results, [], 2, table_size=4)
    # the leaders p1 p5 p2 p6 go to board 1: no two of them met, so no repeat
    assert [set(t) for t in seats(two)] == [{"p1", "p5", "p2", "p6"}, {"p3", "p7", "p4", "p8"}]
    assert all(t.seats[0] not in {s.seats[0] for s in one.tables} for t in two.tables)


def test_multiplayer_swiss_settles_a_repeat_the_greedy_filling_makes() -> None:
    # 12 at tables of 3 after three rounds (random places). Filling board by board leaves p2 and
    # p3 (who met in round 1) together on board 4; a grouping without any repeat exists.
    twelve = [Entrant(f"p{i}", 10 * (13 - i)) for i in range(1, 13)]
    played = [
        ["p1 p2 p3", "p6 p5 p4", "p7 p8 p9", "p12 p11 p10"],
        ["p4 p1 p7", "p5 p3 p12", "p8 p10 p2", "p11 p9 p6"],
        ["p3 p10 p4", "p2 p9 p5", "p1 p8 p11", "p6 p12 p7"],
    ]
    places = [[(1, 3, 2), (3, 2, 1), (1, 2, 3), (1, 3, 2)], [(1, 3, 2), (2, 1, 3), (2, 1, 3),
              (3, 1, 2)], [(3, 2, 1), (2, 1, 3), (3, 1, 2), (2, 1, 3)]]
    results = [GameResult(r, b, tuple(s.split()), p)
               for r, (tables, ps) in enumerate(zip(played, places, strict=True), start=1)
               for b, (s, p) in enumerate(zip(tables, ps, strict=True), start=1)]
    met = Counter(frozenset(p) for x in results for p in itertools.combinations(x.seats, 2))
    draw = pair_swiss_tables(twelve, results, [], 4, table_size=3)
    assert [set(t) for t in seats(draw)] == [
        {"p9", "p4", "p12"}, {"p8", "p3", "p6"}, {"p10", "p5", "p1"}, {"p11", "p7", "p2"}]
    assert not any(met[frozenset(p)] for t in draw.tables
                   for p in itertools.combinations(t.seats, 2))


def test_multiplayer_swiss_of_32_at_four_has_no_repeat_in_four_rounds() -> None:
    # every pair has a fresh table for four rounds in each of these Swisses (random places)
    for seed in range(10):
        rng = random.Random(seed)
        field = [Entrant(f"e{i}", rng.randrange(1000, 2000)) for i in range(32)]
        results: list[GameResult] = []
        met: Counter[frozenset[str]] = Counter()
        for r in range(1, 5):
            draw = pair_swiss_tables(field, results, [], r, table_size=4, seed=seed)
            met.update(frozenset(p) for t in draw.tables
                       for p in itertools.combinations(t.seats, 2))
            for t in draw.tables:
                places = rng.sample(range(1, 5), 4)
                results.append(GameResult(r, t.board, t.seats, tuple(places)))
        assert max(met.values()) == 1, seed


def test_multiplayer_swiss_with_smaller_tables_or_byes() -> None:
    ten = [Entrant(f"q{i}", -i) for i in range(10)]
    small = pair_swiss_tables(ten, [], [], 1, table_size=4, min_table=3)
    assert [len(t) for t in seats(small)] == [4, 3, 3] and small.byes == ()
    full = pair_swiss_tables(ten, [], [], 1, table_size=4)
    assert [len(t) for t in seats(full)] == [4, 4]
    assert [b.entrant for b in full.byes] == ["q8", "q9"]
    again = pair_swiss_tables(ten, [], full.byes, 2, table_size=4)
    assert not {b.entrant for b in again.byes} & {"q8", "q9"}


def test_berger_tables_everyone_meets_everyone_once_with_balanced_seats() -> None:
    for n in (4, 5, 8):
        draws = berger_rounds(EIGHT[:n])
        met = Counter(frozenset(t.seats) for d in draws for t in d.tables)
        assert len(draws) == n - 1 + n % 2
        assert set(met) == {frozenset(p) for p in itertools.combinations(
            [e.id for e in EIGHT[:n]], 2)} and set(met.values()) == {1}
        firsts = Counter(t.seats[0] for d in draws for t in d.tables)
        games = Counter(e for d in draws for t in d.tables for e in t.seats)
        assert all(abs(2 * firsts[e] - games[e]) <= 1 for e in games)
        assert all(len(d.entrants()) == n for d in draws)
    twice = berger_rounds(EIGHT[:4], cycles=2)
    assert seats(twice[3]) == [tuple(reversed(s)) for s in seats(twice[0])]


def test_multiplayer_round_robin_spreads_meetings() -> None:
    # 8 entrants at tables of 4: 3 rounds (ceil(7/3)); 28 pairs, 36 meetings in all
    draws = round_robin_tables(EIGHT, 4)
    met = Counter(frozenset(p) for d in draws for t in d.tables
                  for p in itertools.combinations(t.seats, 2))
    assert len(draws) == 3 and sum(met.values()) == 36
    assert max(met.values()) <= 2 and len(met) >= 24
    nine = round_robin_tables([Entrant(f"n{i}") for i in range(9)], 3)
    met = Counter(frozenset(p) for d in nine for t in d.tables
                  for p in itertools.combinations(t.seats, 2))
    assert len(nine) == 4 and set(met.values()) == {1} and len(met) == 36  # a perfect design


def test_knockout_bracket_seeds_and_byes_to_the_top_seeds() -> None:
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    six = EIGHT[:6]
    first = knockout_draws(six, [])
    assert len(first) == 1
    assert seats(first[0]) == [("p4", "p5"), ("p3", "p6")]
    assert {b.entrant for b in first[0].byes} == {"p1", "p2"}
    upset = [GameResult(1, 1, ("p4", "p5"), (2, 1)), GameResult(1, 2, ("p3", "p6"), (1, 1))]
    second = knockout_draws(six, upset)
    assert seats(second[1]) == [("p1", "p5"), ("p2", "p3")]  # a tie sends the better seed
    semis = [*upset, GameResult(2, 1, ("p1", "p5"), (1, 2)),
             GameResult(2, 2, ("p2", "p3"), (2, 1))]
    final = knockout_draws(six, semis)
    assert seats(final[2]) == [("p1", "p3")]
    done = [*semis, GameResult(3, 1, ("p1", "p3"), (2, 1))]
    fmt = Format("knockout")
    assert pair_round(fmt, six, done, [], 4) is None
    table = format_standings(fmt, six, done, [])
    assert [(r.rank, r.entrant) for r in table.rows][:2] == [(1, "p3"), (2, "p1")]
    assert {r.entrant for r in table.rows if r.rank == 3} == {"p2", "p5"}
    with pytest.raises(OptionError, match="round 2, board 1 has no result yet"):
        pair_round(fmt, six, upset, [], 4)


def test_multiplayer_knockout_top_two_of_each_table_go_through() -> None:
    draws = knockout_draws(EIGHT, [], table_size=4, advance=2)
    # snake seeding over two tables: 1 4 5 8 and 2 3 6 7
    assert [set(t) for t in seats(draws[0])] == [{"p1", "p4", "p5", "p8"}, {"p2", "p3", "p6",
                                                                            "p7"}]
    results = [GameResult(1, t.board, t.seats, (4, 3, 2, 1)) for t in draws[0].tables]
    final = knockout_draws(EIGHT, results, table_size=4, advance=2)[1]
    assert len(final.tables) == 1 and set(final.tables[0].seats) == {
        draws[0].tables[0].seats[3], draws[0].tables[0].seats[2],
        draws[0].tables[1].seats[3], draws[0].tables[1].seats[2]}
    with pytest.raises(OptionError, match="top 4"):
        knockout_draws(EIGHT, [], table_size=4, advance=4)


def test_arena_pairs_free_entrants_by_points_avoiding_the_last_opponent() -> None:
    four = EIGHT[:4]
    results = [GameResult(1, 1, ("p1", "p2"), (1, 2)), GameResult(1, 2, ("p3", "p4"), (1, 2))]
    draw, waiting = arena_tables(four, results, wave=2)
    # p1 and p3 lead on 2 points but each would meet someone new: p1 v p3 is new, fine
    assert pairs(draw) == [{"p1", "p3"}, {"p2", "p4"}] and waiting == []
    results += [GameResult(2, 1, ("p1", "p3"), (1, 2)), GameResult(2, 2, ("p2", "p4"), (1, 2))]
    # p1 4, p3 2, p2 2, p4 0: p1 just played p3, so p1 meets p2 (also on 2)
    draw, waiting = arena_tables(four[:3], results, wave=3)
    assert pairs(draw) == [{"p1", "p2"}] and waiting == ["p3"]
