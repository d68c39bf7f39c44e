"""The ladder's fit on hand-worked results: Bradley-Terry maximum likelihood in OpenSkill units."""

from __future__ import annotations

import math

import pytest

from ludoteca.ladder.calibrate import fit_records, overlapping, pair_results
from ludoteca.ladder.fit import C, Fit, PairScore, fit, win_chance
from ludoteca.rating_scale import BETA
from ludoteca.tournament.stats import GameRecord


def test_c_is_openskills_two_player_c() -> None:
    assert pytest.approx(math.sqrt(2 * BETA**2)) == C
    assert win_chance(C * math.log(3)) == pytest.approx(0.75)


def test_three_wins_in_four_is_c_ln_3_apart() -> None:
    found = fit(["a", "b"], [PairScore("a", "b", 4, 3)], anchor="b", anchor_mu=0.0, prior=0)
    assert found.mu["b"] == 0.0
    assert found.mu["a"] == pytest.approx(C * math.log(3))
    # each level's information: 4 games at p = 3/4, so 4 * 3/16 = 3/4
    assert found.sigma["a"] == pytest.approx(C / math.sqrt(0.75))
    assert found.sigma["b"] == pytest.approx(C / math.sqrt(0.75))
    assert found.games == {"a": 4, "b": 4}


def test_a_virtual_draw_per_pair_is_the_default_prior() -> None:
    # 3 of 4 plus one draw: 3.5 of 5
    found = fit(["a", "b"], [PairScore("a", "b", 4, 3)], anchor="b", anchor_mu=0.0)
    assert found.mu["a"] - found.mu["b"] == pytest.approx(C * math.log(3.5 / 1.5))
    assert found.games == {"a": 4, "b": 4}


def test_a_sweep_is_finite_only_with_the_prior() -> None:
    sweep = [PairScore("a", "b", 6, 6)]
    assert fit(["a", "b"], sweep, "b", 0.0).mu["a"] == pytest.approx(C * math.log(13))
    with pytest.raises(ValueError):
        fit(["a", "b"], sweep, "b", 0.0, prior=0)


def test_the_anchor_fixes_the_level_and_moves_nothing_else() -> None:
    scores = [PairScore("a", "b", 4, 3), PairScore("b", "c", 8, 2)]
    at_zero = fit(["a", "b", "c"], scores, "b", 0.0, prior=0)
    at_ten = fit(["a", "b", "c"], scores, "b", 10.0, prior=0)
    from_c = fit(["a", "b", "c"], scores, "c", 3.0, prior=0)
    assert at_ten.mu["b"] == 10.0 and from_c.mu["c"] == 3.0
    for level in "abc":
        assert at_ten.mu[level] == pytest.approx(at_zero.mu[level] + 10.0)
        assert from_c.mu[level] - from_c.mu["c"] == pytest.approx(
            at_zero.mu[level] - at_zero.mu["c"])
        assert at_ten.sigma[level] == pytest.approx(from_c.sigma[level])
    assert at_ten.gap_sigma("a", "c") == pytest.approx(from_c.gap_sigma("a", "c"))


def test_a_chain_fits_each_link_and_adds_their_variances() -> None:
    # a beats b 3 of 4, b beats c 3 of 4, a and c never met: on a tree every link fits exactly
    scores = [PairScore("a", "b", 4, 3), PairScore("c", "b", 4, 1)]
    found = fit(["a", "b", "c"], scores, "c", 0.0, prior=0)
    assert found.mu["b"] == pytest.approx(C * math.log(3))
    assert found.mu["a"] == pytest.approx(2 * C * math.log(3))
    link = C**2 / 0.75
    assert found.gap_sigma("b", "a") == pytest.approx(math.sqrt(link))
    assert found.gap_sigma("c", "a") == pytest.approx(math.sqrt(2 * link))
    # b's own games: 8 at p = 3/4
    assert found.sigma["b"] == pytest.approx(C / math.sqrt(1.5))


def test_draws_count_half() -> None:
    even = fit(["a", "b"], [PairScore("a", "b", 4, 2)], "b", 0.0, prior=0)
    assert even.mu["a"] == pytest.approx(0.0, abs=1e-9)


def test_a_level_no_game_reaches_is_refused() -> None:
    with pytest.raises(ValueError):
        fit(["a", "b", "c"], [PairScore("a", "b", 4, 3)], "a", 0.0)


def record(seating: tuple[str, ...], scores: tuple[int, ...],
           winners: tuple[int, ...]) -> GameRecord:
    n = len(seating)
    return GameRecord(0, 0, 1, seating, scores, winners, (1,) * n, (0.0,) * n, (None,) * n)


def test_a_game_is_one_result_per_two_seats_of_different_levels() -> None:
    assert pair_results(record(("a", "b"), (30, 20), (0,))) == [PairScore("a", "b", 1, 1.0)]
    assert pair_results(record(("b", "a"), (30, 30), (0, 1))) == [PairScore("b", "a", 1, 0.5)]
    # the tie-break made seat 1 the winner on equal points
    assert pair_results(record(("a", "b"), (30, 30), (1,))) == [PairScore("a", "b", 1, 0.0)]
    # four seats, two levels alternating: winner first, then by points; a vs a is no result
    table = pair_results(record(("a", "b", "a", "b"), (10, 40, 25, 25), (1,)))
    # seats 0-1, 0-3, 1-2, 2-3 (0-2 and 1-3 are a level against itself)
    assert table == [PairScore("a", "b", 1, 0.0), PairScore("a", "b", 1, 0.0),
                     PairScore("b", "a", 1, 1.0), PairScore("a", "b", 1, 0.5)]


def test_random_is_the_anchor_else_the_mean_is_25() -> None:
    games = [record(("random", "greedy"), (10, 30), (1,))] * 3 + [
        record(("greedy", "random"), (20, 30), (1,))]
    with_random = fit_records(["random", "greedy"], games)
    assert with_random.mu["random"] == 0.0
    assert with_random.mu["greedy"] == pytest.approx(C * math.log(3.5 / 1.5))
    renamed = [record(tuple("medium" if s == "random" else s for s in g.seating), g.scores,
                      g.winners) for g in games]
    without = fit_records(["greedy", "medium"], renamed)
    assert sum(without.mu.values()) / 2 == pytest.approx(25.0)
    assert without.mu["greedy"] - without.mu["medium"] == pytest.approx(C * math.log(3.5 / 1.5))


def test_overlapping_names_neighbours_whose_intervals_touch() -> None:
    # shown: 29.5 points a mu; +- is 2 sigma
    result = Fit(("x", "y", "z"), {"x": 0.0, "y": 4.2, "z": 20.0},
                 {"x": 1.0, "y": 1.0, "z": 1.0}, {}, ((0.0,) * 3,) * 3)
    assert overlapping(result) == []
    wider = Fit(("x", "y", "z"), {"x": 0.0, "y": 4.2, "z": 20.0},
                {"x": 1.0, "y": 1.5, "z": 1.0}, {}, ((0.0,) * 3,) * 3)
    assert overlapping(wider) == [("x", "y")]
