"""The line-minded Buttons policy the search plays in its rollouts (``games/buttons/plan.py``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.games.buttons import plan as plan
from ludoteca.games.buttons.actions import ROLL, STOP
from ludoteca.games.buttons.bot import choose_state as greedy_choice
from ludoteca.games.buttons.grid import FULL, cell_of
from ludoteca.games.buttons.state import STOPPED, TURN, ButtonsState

GAME = get_game("buttons")


def row_cells(row: int, cols: range) -> int:
    return sum(1 << cell_of(row, c) for c in cols)


@given(st.integers(0, FULL), st.integers(0, 35))
def test_star_gain_is_the_change_in_potential(stars: int, cell: int) -> None:
    stars &= ~(1 << cell)
    before, after = plan.potential(stars), plan.potential(stars | 1 << cell)
    assert abs(plan.star_gain(stars, cell) - (after - before)) < 1e-9


def test_potential_grows_with_a_line() -> None:
    """A window nearer to a full line is worth more, and a line most of all (rules §6)."""
    values = [plan.potential(row_cells(3, range(1, 1 + k))) for k in range(1, 6)]
    assert values == sorted(values) and len(set(values)) == 5
    assert values[-1] - values[-2] > 3 * (values[-2] - values[-3])


def test_final_score_sees_a_line_the_new_stars_complete() -> None:
    """Rules §6 (BGA): four stars in a row and a marker on the fifth cell make 100 once one
    earned star goes there; the marker elsewhere does not."""
    four = row_cells(2, range(1, 5))
    assert plan.final_score(four, 1 << cell_of(2, 5), 1) == 100
    assert plan.final_score(four, 1 << cell_of(4, 4), 1) == 5
    assert plan.final_score(row_cells(2, range(1, 4)), row_cells(2, range(4, 6)), 1) == 4


def round_state(seed: int = 3) -> ButtonsState:
    state: ButtonsState = GAME.setup({}, 2, seed)
    assert state.phase == TURN
    return state


def test_takes_a_line_at_once() -> None:
    """Stopping completes a 5-line: nothing can beat it, so the policy stops (rules §3.1, §6)."""
    s = round_state()
    seat = s.active
    s.stars[seat] = row_cells(1, range(1, 5))
    s.markers[seat] = 1 << cell_of(1, 5)
    assert plan.end_of_game_stop(s, seat) is True
    assert plan.choose_state(s, seat, GAME.legal_actions(s, seat)) == STOP


def test_rolls_on_while_stopping_loses_the_last_round() -> None:
    """The other player stopped with 12 stars coming (rules §6 trigger): stopping with fewer
    loses, so the policy rolls; once stopping would win, it stops."""
    s = round_state()
    seat, other = s.active, 1 - s.active
    s.status[other] = STOPPED
    s.in_round = 1 << seat
    s.free = 2
    eleven = (
        row_cells(1, range(1, 4))
        | row_cells(3, range(1, 4))
        | row_cells(5, range(1, 4))
        | row_cells(6, range(5, 7))
    )
    s.stars[other] = eleven
    s.markers[other] = 1 << cell_of(2, 6)  # one marker: 1 star for stopping, 12 in all
    s.markers[seat] = 1 << cell_of(4, 4)
    s.stars[seat] = row_cells(1, range(1, 3))
    assert plan.end_of_game_stop(s, seat) is False
    assert plan.choose_state(s, seat, [ROLL, STOP]) == ROLL
    s.stars[seat] = eleven | 1 << cell_of(2, 5)
    assert plan.end_of_game_stop(s, seat) is True  # 13 against 12


def test_no_rule_while_the_round_is_open() -> None:
    s = round_state()
    seat = s.active
    s.markers[seat] = 1 << cell_of(4, 4)
    assert plan.end_of_game_stop(s, seat) is None


def test_chooses_legally_and_from_what_the_seat_may_see() -> None:
    """Over random games the choice is legal, and the same from the true state as from any
    determinization of the seat's view (it reads nothing hidden)."""
    rng = Rng(7)
    checked = 0
    for g in range(8):
        state = GAME.setup({}, 2 + g % 3, 40 + g)
        while seats := GAME.to_act(state):
            for seat in sorted(seats):
                legal = GAME.legal_actions(state, seat)
                choice = plan.choose_state(state, seat, legal)
                assert choice in legal
                det = GAME.determinize(GAME.view(state, seat), seat, Rng(checked))
                assert plan.choose_state(det, seat, GAME.legal_actions(det, seat)) == choice
                checked += 1
            seat = min(seats)
            legal = GAME.legal_actions(state, seat)
            GAME.apply_legal(state, seat, legal[rng.below(len(legal))])
    assert checked > 500


def test_beats_the_greedy_bot() -> None:
    """On the same 150 deals, both seatings, the policy wins more than half against greedy
    (62% over 1,000 deals, docs/bots.md): it is worth its place in the rollouts."""
    wins = 0.0
    for deal in range(150):
        for me in (0, 1):
            s = GAME.setup({}, 2, 9000 + deal)
            while seats := GAME.to_act(s):
                chosen = {
                    seat: (plan.choose_state if seat == me else greedy_choice)(
                        s, seat, GAME.legal_actions(s, seat)
                    )
                    for seat in sorted(seats)
                }
                for seat, action in chosen.items():
                    GAME.apply(s, seat, action)
            outcome = GAME.outcome(s)
            assert outcome is not None
            mine, theirs = outcome.ranks[me], outcome.ranks[1 - me]
            wins += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    assert wins / 300 > 0.55
