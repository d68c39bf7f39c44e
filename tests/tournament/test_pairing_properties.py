"""Properties over random results: everyone placed once a round, no repeat where one can be
avoided (checked by brute force over every pairing or grouping of a small field), one bye each while
anyone has none, table sizes within bounds, standings independent of the results' order."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from ludoteca.tournament.history import History, table_sizes
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.multiplayer import pair_swiss_tables
from ludoteca.tournament.scoring import Scoring
from ludoteca.tournament.standings import TIEBREAKS, standings
from ludoteca.tournament.swiss import BYE, pair_swiss


def matchings(people: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to split an even list into pairs."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for more in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def groupings(people: list[str], sizes: list[int]) -> Iterator[list[tuple[str, ...]]]:
    """Every way to seat ``people`` at tables of ``sizes`` (a multiset: table order aside)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for others in itertools.combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for more in groupings(remaining, left):
                yield [(first, *others), *more]


def repeats(history: History, tables: list[tuple[str, ...]]) -> int:
    return sum(history.met(a, b) for t in tables for a, b in itertools.combinations(t, 2))


def badness(history: History, pairs: list[tuple[str, str]], ids: list[str]) -> tuple[int, int]:
    """(byes beyond the fewest anyone has, repeats): what must be as low as it can be."""
    least = min(history.byes.get(e, 0) for e in ids)
    extra = sum(history.byes.get(a if b == BYE else b, 0) - least
                for a, b in pairs if BYE in (a, b))
    return extra, sum(history.met(a, b) for a, b in pairs if BYE not in (a, b))


def play(draw: RoundDraw, data: st.DataObject) -> list[GameResult]:
    out = []
    for t in draw.tables:
        places = data.draw(st.lists(st.integers(1, len(t.seats)), min_size=len(t.seats),
                                    max_size=len(t.seats)))
        out.append(GameResult(t.round, t.board, t.seats, tuple(places)))
    return out


def check_round(draw: RoundDraw, ids: list[str]) -> None:
    placed = draw.entrants()
    assert sorted(placed) == sorted(ids), "everyone exactly once"
    assert [t.board for t in draw.tables] == list(range(1, len(draw.tables) + 1))


def fewest_byes(draw: RoundDraw, history: History) -> None:
    """No one seated has had fewer byes than someone given one now."""
    given = [history.byes.get(b.entrant, 0) for b in draw.byes]
    seated = [history.byes.get(e, 0) for t in draw.tables for e in t.seats]
    assert not given or not seated or max(given) <= min(seated)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 8), st.integers(1, 8), st.integers(0, 3), st.data())
def test_exact_swiss_avoids_every_avoidable_repeat_and_second_bye(
    n: int, rounds: int, seed: int, data: st.DataObject
) -> None:
    field = [Entrant(f"e{i}", data.draw(st.integers(0, 3))) for i in range(n)]
    ids = [e.id for e in field]
    results: list[GameResult] = []
    byes: list[Bye] = []
    for r in range(1, rounds + 1):
        draw = pair_swiss(field, results, byes, r, seed, method="exact")
        check_round(draw, ids)
        history = History.build(results, byes, Scoring(2))
        ours = [t.seats for t in draw.tables] + [(b.entrant, BYE) for b in draw.byes]
        best = min(badness(history, m, ids) for m in matchings(ids + [BYE] * (n % 2)))
        assert badness(history, [(a, b) for a, b in ours], ids) == best
        assert draw == pair_swiss(list(reversed(field)), list(reversed(results)), byes, r,
                                  seed, method="exact"), "deterministic"
        results += play(draw, data)
        byes += draw.byes
    if rounds <= n:
        assert max(Counter(b.entrant for b in byes).values(), default=0) <= 1


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 30), st.integers(1, 6), st.data())
def test_fast_swiss_places_everyone_once_and_gives_byes_to_those_with_fewest(
    n: int, rounds: int, data: st.DataObject
) -> None:
    field = [Entrant(f"e{i}", i % 5) for i in range(n)]
    ids = [e.id for e in field]
    results: list[GameResult] = []
    byes: list[Bye] = []
    for r in range(1, rounds + 1):
        draw = pair_swiss(field, results, byes, r, method="fast")
        check_round(draw, ids)
        fewest_byes(draw, History.build(results, byes, Scoring(2)))
        results += play(draw, data)
        byes += draw.byes


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(2, 14), st.integers(3, 5), st.integers(2, 5), st.integers(1, 4), st.data())
def test_multiplayer_swiss_tables_stay_within_bounds(
    n: int, size: int, low: int, rounds: int, data: st.DataObject
) -> None:
    low = min(low, size)
    field = [Entrant(f"e{i}", i % 3) for i in range(n)]
    ids = [e.id for e in field]
    results: list[GameResult] = []
    byes: list[Bye] = []
    for r in range(1, rounds + 1):
        draw = pair_swiss_tables(field, results, byes, r, size, low)
        check_round(draw, ids)
        assert all(low <= len(t.seats) <= size for t in draw.tables)
        sizes, bye_count = table_sizes(n, size, low)
        assert [len(t.seats) for t in draw.tables] == sizes and len(draw.byes) == bye_count
        assert bye_count < low or (bye_count < size and n // size * low > n - bye_count)
        fewest_byes(draw, History.build(results, byes, Scoring(size)))
        results += play(draw, data)
        byes += draw.byes


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(3, 12), st.integers(3, 4), st.integers(2, 4), st.integers(1, 6),
       st.integers(0, 3), st.data())
def test_multiplayer_swiss_makes_no_avoidable_repeat(
    n: int, size: int, low: int, rounds: int, seed: int, data: st.DataObject
) -> None:
    """Avoidable, exactly: the round's repeats (pairs seated together again, once per earlier
    meeting) are more than the fewest of any grouping of the same seated entrants into tables
    of the same sizes, found here by trying every grouping."""
    low = min(low, size)
    field = [Entrant(f"e{i}", data.draw(st.integers(0, 3))) for i in range(n)]
    results: list[GameResult] = []
    byes: list[Bye] = []
    for r in range(1, rounds + 1):
        draw = pair_swiss_tables(field, results, byes, r, size, low, seed)
        history = History.build(results, byes, Scoring(size))
        seated = [e for t in draw.tables for e in t.seats]
        fewest = min(repeats(history, g)
                     for g in groupings(seated, [len(t.seats) for t in draw.tables]))
        assert repeats(history, [t.seats for t in draw.tables]) == fewest
        assert draw == pair_swiss_tables(list(reversed(field)), list(reversed(results)),
                                         byes, r, size, low, seed), "deterministic"
        results += play(draw, data)
        byes += draw.byes


@st.composite
def result_sets(draw: st.DrawFn) -> tuple[list[Entrant], list[GameResult], list[Bye], int]:
    size = draw(st.integers(2, 4))
    people = [f"e{i}" for i in range(draw(st.integers(size, 9)))]
    results = []
    for r in range(1, draw(st.integers(1, 4)) + 1):
        seated = draw(st.permutations(people))
        for board in range(1, len(people) // size + 1):
            seats = tuple(seated[(board - 1) * size : board * size])
            places = tuple(draw(st.integers(1, size)) for _ in seats)
            scores = tuple(float(draw(st.integers(0, 60))) for _ in seats)
            results.append(GameResult(r, board, seats, places, scores))
    byes = [Bye(r.round, draw(st.sampled_from(people))) for r in results[:2]]
    return [Entrant(e) for e in people], results, byes, size


@settings(max_examples=examples(40), deadline=None)
@given(result_sets(), st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_results_arrive(
    case: tuple[list[Entrant], list[GameResult], list[Bye], int], rng: object
) -> None:
    entrants, results, byes, size = case
    keys = tuple(TIEBREAKS)
    batch = standings(entrants, results, byes, Scoring(size), keys)
    shuffled = list(results)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    byes_shuffled = list(reversed(byes))
    again = standings(list(reversed(entrants)), shuffled + shuffled[:1], byes_shuffled,
                      Scoring(size), keys)
    assert again == batch
