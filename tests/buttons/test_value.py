"""The win-chance model the Buttons search values its rollouts with (``games/buttons/value.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludoteca.games.buttons.grid import FULL, cell_of
from ludoteca.games.buttons.value import strength, win_chances

boards = st.integers(0, FULL).filter(lambda b: b.bit_count() <= 11)


@given(boards, st.integers(0, 35))
def test_a_new_star_never_lowers_a_board(stars: int, cell: int) -> None:
    """More stars, a fuller window, more full windows: each only helps (rules §6 triggers)."""
    assert strength(stars | 1 << cell) >= strength(stars) - 1e-12


@given(st.lists(boards, min_size=2, max_size=4))
def test_chances_sum_to_one_and_favour_the_stronger_board(seats: list[int]) -> None:
    chances = win_chances(seats)
    assert abs(sum(chances) - 1.0) < 1e-9
    best = max(range(len(seats)), key=lambda i: strength(seats[i]))
    assert chances[best] == max(chances)


def test_equal_boards_are_even_and_a_near_line_is_worth_stars() -> None:
    """Four stars in a window are worth more than four scattered ones: the line is one marker
    away (rules §6, BGA: a line scores 100)."""
    assert win_chances([0, 0]) == [0.5, 0.5]
    near_line = sum(1 << cell_of(2, c) for c in range(1, 5))
    scattered = sum(1 << cell_of(r, r) for r in range(1, 5))
    assert win_chances([near_line, scattered])[0] > 0.6
