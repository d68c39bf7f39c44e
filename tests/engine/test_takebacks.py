"""The takeback limit (issue 23, "Undo cannot be used against the opponent"; docs/engine.md
"Undo"): a seat may take back at most ``TAKEBACKS_PER_TURN`` actions in one turn, counted
from another seat's last action; a log written before the limit still replays."""

from __future__ import annotations

import pytest

from ludoteca.engine.match import TAKEBACKS_PER_TURN, Match, NoUndo
from tests.engine.test_match import kingdomino_after_a_placement


def act_again_and_take_back(match: Match, seat: int) -> None:
    match.step(seat, match.legal(seat)[0], match.seq)
    assert not match.log[-1].reveals
    match.undo(seat, match.seq)


def test_a_seat_takes_back_at_most_the_limit_in_one_turn() -> None:
    match, seat, _ = kingdomino_after_a_placement()
    assert TAKEBACKS_PER_TURN == 3  # the documented number (docs/engine.md, protocol.md)
    match.undo(seat, match.seq)
    for _ in range(TAKEBACKS_PER_TURN - 1):
        act_again_and_take_back(match, seat)
    assert match.takebacks_this_turn(seat) == TAKEBACKS_PER_TURN
    match.step(seat, match.legal(seat)[0], match.seq)
    assert not match.can_undo(seat)
    before = (match.seq, match.state.clone())
    with pytest.raises(NoUndo, match="taken back 3 moves this turn") as info:
        match.undo(seat, match.seq)
    assert info.value.code == "no_undo"
    assert (match.seq, match.state) == before  # a refusal changes nothing


def test_the_count_starts_again_when_another_seat_acts() -> None:
    match, seat, _ = kingdomino_after_a_placement(2)
    match.undo(seat, match.seq)
    for _ in range(TAKEBACKS_PER_TURN - 1):
        act_again_and_take_back(match, seat)
    # play on until the other seat has acted and this seat's turn comes back
    other_acted = False
    while not (other_acted and match.to_act() == {seat}):
        (s,) = match.to_act()
        other_acted = other_acted or s != seat
        match.step(s, match.legal(s)[0], match.seq)
    assert match.takebacks_this_turn(seat) == 0


def test_no_limit_when_none_and_old_logs_replay() -> None:
    match, seat, _ = kingdomino_after_a_placement(3)
    match.takebacks = None
    match.undo(seat, match.seq)
    for _ in range(TAKEBACKS_PER_TURN + 2):
        act_again_and_take_back(match, seat)
    # a log with more undos in a turn than the limit (written before it) still replays
    again = Match.from_log(match.game, match.options, match.players, match.seed,
                           match.log_items())
    assert again.seq == match.seq and again.state == match.state
    assert again.takebacks == TAKEBACKS_PER_TURN and not again.can_undo(seat)
