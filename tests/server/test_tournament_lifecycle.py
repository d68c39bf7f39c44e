"""The director's decisions, pure (server/tournament_lifecycle.py; docs/tournaments.md
"Lifecycle"): when a tournament starts, is cancelled, pairs, opens tables, decides late tables
and finishes; how a played, late or absent table's result is made."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ludoteca.server.tournament_lifecycle import (
    GameLook,
    Look,
    absent_result,
    late_result,
    next_step,
    played_result,
    table_id_for,
)
from ludoteca.tournament.scoring import effective_places

NOW = datetime(2027, 1, 1, 12, tzinfo=UTC)


def look(**changes: object) -> Look:
    base = {"status": "registering", "starts_at": None, "min_entrants": 4, "max_entrants": 8,
            "entrants": 0, "round": 0, "round_deadline": None, "games": ()}
    return Look(**{**base, **changes})  # type: ignore[arg-type]


def test_registering_starts_at_its_time_with_enough_entrants_else_is_cancelled() -> None:
    at = NOW - timedelta(seconds=1)
    assert next_step(look(starts_at=at, entrants=4), NOW) == "start"
    assert next_step(look(starts_at=at, entrants=3), NOW) == "cancel"
    assert next_step(look(starts_at=NOW + timedelta(minutes=1), entrants=8), NOW) == "wait"
    # a minimum below two still needs two to play
    assert next_step(look(starts_at=at, entrants=1, min_entrants=1), NOW) == "cancel"


def test_without_a_time_it_starts_when_full() -> None:
    assert next_step(look(entrants=7), NOW) == "wait"
    assert next_step(look(entrants=8), NOW) == "start"


def test_running_pairs_opens_waits_decides_late_and_pairs_again() -> None:
    deadline = NOW + timedelta(minutes=5)
    running = {"status": "running", "entrants": 4, "round_deadline": deadline}
    assert next_step(look(**running), NOW) == "pair"
    unopened = (GameLook(1, True, False), GameLook(2, False, False))
    assert next_step(look(**running, round=1, games=unopened), NOW) == "open"
    playing = (GameLook(1, True, True), GameLook(2, True, False))
    assert next_step(look(**running, round=1, games=playing), NOW) == "wait"
    assert next_step(look(**running, round=1, games=playing), deadline) == "late"
    done = (GameLook(1, True, True), GameLook(2, True, True))
    assert next_step(look(**running, round=1, games=done), NOW) == "pair"
    for status in ("finished", "cancelled"):
        assert next_step(look(status=status, round=3), NOW) == "wait"


def test_a_boards_table_id_is_the_same_every_time_and_differs_by_board() -> None:
    first = table_id_for("abc", 2, 1)
    assert first == table_id_for("abc", 2, 1)
    assert len(first) == 12
    assert len({table_id_for("abc", r, b) for r in range(1, 6) for b in range(1, 30)}) == 145


def test_a_played_table_takes_the_outcome_and_a_taken_over_seat_forfeits() -> None:
    outcome = {"scores": [30, 41], "ranks": [2, 1]}
    result = played_result(1, 3, ["user:1", "bot:random@1#1"], outcome, [False, False])
    assert (result.places, result.scores, result.forfeits) == ((2, 1), (30.0, 41.0), ())
    lost = played_result(1, 3, ["user:1", "user:2"], {"scores": [50, 10], "ranks": [1, 2]},
                         [True, False])
    assert effective_places(lost) == (2, 1)


def test_late_tables_are_draws_except_for_seats_taken_over() -> None:
    assert late_result(2, 1, ["a", "b"], [False, False]).places == (1, 1)
    forfeit = late_result(2, 1, ["a", "b", "c"], [False, True, False])
    assert effective_places(forfeit) == (1, 3, 1)


def test_a_board_with_a_withdrawn_entrant_is_their_forfeit() -> None:
    result = absent_result(4, 2, ["a", "b"], [False, True])
    assert effective_places(result) == (1, 2)
    assert result.forfeits == (False, True)


def test_an_arena_starts_at_its_minimum_pairs_while_free_and_finishes_after_its_end() -> None:
    arena = {"arena": True, "table_size": 2}
    assert next_step(look(**arena, entrants=3), NOW) == "wait"
    assert next_step(look(**arena, entrants=4), NOW) == "start"  # its minimum, not when full
    at = NOW - timedelta(seconds=1)
    assert next_step(look(**arena, starts_at=at, entrants=3), NOW) == "cancel"
    ends = NOW + timedelta(minutes=10)
    late = ends + timedelta(minutes=60)
    running = {**arena, "status": "running", "entrants": 5, "ends_at": ends,
               "round_deadline": late, "round": 3}
    assert next_step(look(**running, free=2), NOW) == "pair"
    assert next_step(look(**running, free=1), NOW) == "wait"
    assert next_step(look(**{**running, "table_size": 3}, free=2), NOW) == "wait"
    unopened = (GameLook(1, False, False),)
    assert next_step(look(**running, free=2, games=unopened), NOW) == "open"
    playing = (GameLook(1, True, False),)
    # from its end: nothing paired, the tables playing finish, then it is over
    assert next_step(look(**running, free=2, games=playing), ends) == "wait"
    assert next_step(look(**running, free=4, games=()), ends) == "finish"
    assert next_step(look(**running, games=playing), late) == "late"
    assert next_step(look(**{**running, "status": "finished"}), ends) == "wait"
