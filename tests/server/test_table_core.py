"""The table's pure core (server/table/core.py): every command checked, applied and turned into
effects, with no event loop, database or socket: the table is built from plain state
(server/table/state.py) alone, and no database object is made here (the last test checks that
importing the core loads no database code at all). The writes it asks for rebuild the same
table (``Match.from_log``), as a restarted server does."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from ludoteca.engine.errors import IllegalAction, NotYourTurn, StaleAction
from ludoteca.engine.match import NoUndo
from ludoteca.server.errors import ServerError
from ludoteca.server.results import tie_broken
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.effects import SeatChange
from ludoteca.server.table.state import LogEntry, Person, SeatState, TableState
from ludoteca.server.table.view import TableViews

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)
USERS = {i: Person(i, f"u{i}", f"User {i}") for i in (1, 2, 3)}


def open_table(game: str = "kingdomino", players: int = 2, mode: str = "live") -> TableCore:
    table = TableState("t1", game, players, seed=11, mode=mode, bank_seconds=300.0,
                       increment_seconds=5.0, turn_hours=24.0, private=True, invite="secret",
                       host_id=1, created_at=NOW)
    seats = [SeatState("t1", s, bank_seconds=300.0) for s in range(players)]
    seats[0].user_id = 1
    return TableCore(table, seats, {1: USERS[1]})


def started(game: str = "kingdomino", mode: str = "live") -> tuple[TableCore, list[LogEntry]]:
    core = open_table(game, mode=mode)
    assert core.join(USERS[2], None, "secret").tell == ["seats"]
    effects = core.seats_changed(NOW)
    assert effects.write is not None and effects.write.table is core.table
    assert effects.write.status_was == "open"  # the deal happens once, whoever deals
    assert "full" in effects.tell and core.table.status == "playing"
    return core, []


def act(core: TableCore, log: list[LogEntry], seat: int, data: object) -> None:
    effects = core.act(seat, core.seq, data, NOW)
    assert effects.write is not None and effects.write.move is not None
    log.append(effects.write.move)


def test_seating_refusals_and_the_deal() -> None:
    core = open_table()
    with pytest.raises(ServerError) as info:
        core.join(USERS[2], None, "wrong")
    assert info.value.code == "wrong_invite"
    with pytest.raises(ServerError) as info:
        core.join(USERS[1], None, "secret")
    assert info.value.code == "already_seated"
    with pytest.raises(ServerError) as info:
        core.join(USERS[2], 0, "secret")
    assert info.value.code == "seat_taken"
    assert core.seats[1].held == (None, None)  # a refusal changes nothing
    assert core.seats_changed(NOW).write is None and core.match is None  # not full yet
    core.add_bot(1, "greedy", 1)
    core.seats_changed(NOW)
    assert core.match is not None and core.seq == 0
    assert core.bots_to_ask() == [(1, 0)] or core.to_act() == {0}
    assert core.next_deadline() is not None  # the live clock runs for whoever is to act


def test_a_seat_is_taken_in_the_state_and_written_only_if_still_free() -> None:
    """Seats take the path moves take: the core changes its state and says what to write,
    conditionally; if the write loses, the actor answers with the effects' refusal."""
    core = open_table(players=3)
    effects = core.join(USERS[2], 2, "secret")
    assert core.seats[2].held == (2, None) and core.seat_of(2) == 2 and 2 in core.users
    assert effects.write is not None and effects.tell == ["seats"]
    assert effects.write.seat_changes == [SeatChange(2, (None, None), (2, None))]
    assert effects.write.move is None and effects.write.table is None
    assert effects.refusal is not None and effects.refusal.code == "seat_taken"
    bot = core.add_bot(1, "easy", None)  # the first free seat
    assert bot.write is not None and bot.write.seat_changes == [
        SeatChange(1, (None, None), (None, "easy"))]
    assert bot.refusal is not None and bot.refusal.code == "table_full"
    removed, person = core.remove(1, 2)
    assert person == 2 and core.seats[2].held == (None, None)
    assert removed.write is not None and removed.write.seat_changes == [
        SeatChange(2, (2, None), (None, None))]
    assert removed.refusal is not None and removed.refusal.code == "seat_changed"
    with pytest.raises(ServerError) as info:
        core.remove(1, 0)
    assert info.value.code == "own_seat"
    left = core.leave(1)
    assert left.write is not None and left.write.seat_changes == [
        SeatChange(0, (1, None), (None, None))]
    assert left.refusal is not None and left.refusal.code == "not_seated"
    # no person is left: the table is given up, conditionally like a deal
    given_up = core.seats_changed(NOW)
    assert core.table.status == "abandoned" and given_up.write is not None
    assert given_up.write.status_was == "open" and given_up.write.table is core.table


def test_an_action_is_written_then_told_and_a_refusal_changes_nothing() -> None:
    core, _ = started()
    (seat,) = core.to_act()
    legal = [a.to_json() for a in core.match.legal(seat)]  # type: ignore[union-attr]
    before = (core.seq, core.match.view(None))  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        core.act(1 - seat, 0, legal[0], NOW)
    with pytest.raises(StaleAction):
        core.act(seat, 5, legal[0], NOW)
    with pytest.raises(IllegalAction) as info:
        core.act(seat, 0, {"type": "place", "x": 0, "y": 0, "dir": "E"}, NOW)  # in the draft
    assert info.value.code == "illegal_action"
    assert (core.seq, core.match.view(None)) == before  # type: ignore[union-attr]
    effects = core.act(seat, 0, legal[0], NOW)
    assert effects.tell == ["step"] and not effects.finished
    assert effects.write is not None and effects.write.move is not None
    move = effects.write.move
    assert (move.seq, move.seat, move.kind, move.action) == (1, seat, "act", legal[0])
    assert core.seq == 1


def test_undo_follows_the_drivers_rule_and_gives_back_no_time() -> None:
    """Your own last action, nothing revealed, nobody acted since (docs/protocol.md)."""
    core, log = started("buttons")
    rng = random.Random(3)
    match = core.match
    assert match is not None
    for _ in range(200):
        seats = sorted(core.to_act())
        seat = seats[0]
        legal = [a.to_json() for a in match.legal(seat)]
        act(core, log, seat, rng.choice(legal))
        if core.can_undo(seat):
            break
    else:
        pytest.fail("no undoable action found")
    view, bank = match.view(seat), core.seats[seat].bank_seconds
    effects = core.undo(seat, core.seq, NOW + timedelta(seconds=3))
    assert effects.write is not None and effects.write.move is not None
    assert effects.write.move.kind == "undo" and effects.tell == ["full"]
    log.append(effects.write.move)
    assert match.view(seat) != view or match.log[-1].kind == "undo"
    assert core.seats[seat].bank_seconds <= bank
    assert all(since == core.seq for since in core.decisions().values())
    with pytest.raises(NoUndo):
        core.undo(1 - seat, core.seq, NOW)
    rebuilt = TableCore(core.table, core.seats, core.users, log)
    assert rebuilt.seq == core.seq and rebuilt.decisions() == core.decisions()
    assert rebuilt.match.view(None) == match.view(None)  # type: ignore[union-attr]


def test_a_take_over_is_a_note_that_keeps_every_decision() -> None:
    core, _ = started()
    decisions = core.decisions()
    effects = core.take_over(1, NOW)
    assert effects is not None and effects.write is not None and effects.write.move is not None
    assert effects.write.move.kind == "note" and effects.write.move.action == {"type": "takeover"}
    assert core.table.zombie and core.seats[1].zombie and core.decisions() == decisions
    assert core.take_over(1, NOW) is None
    with pytest.raises(ServerError) as info:
        core.act(1, core.seq, {}, NOW)
    assert info.value.code == "bot_seat"
    assert core.bots_to_ask() in ([], [(1, 0)])
    views = TableViews(core)
    events = views.events(core.match.log[-1], None, views.voice("es"))  # type: ignore[union-attr]
    assert events[0]["type"] == "takeover" and "bot" in events[0]["text"]


def test_a_whole_match_ends_with_the_table_row_and_rebuilds_from_its_writes() -> None:
    core, log = started("kingdomino", mode="turn")
    rng = random.Random(5)
    match = core.match
    assert match is not None
    while True:
        seat = min(core.to_act())
        effects = core.act(seat, core.seq, rng.choice(match.legal(seat)).to_json(), NOW)
        assert effects.write is not None and effects.write.move is not None
        log.append(effects.write.move)
        if effects.finished:
            break
        assert effects.write.table is None
    assert effects.write.table is core.table and core.table.status == "finished"
    outcome = match.outcome
    assert outcome is not None  # the result, with the seats a tie-break decided (results.py)
    assert core.table.result == {**outcome.to_json(), "tie_broken": tie_broken(outcome)}
    assert effects.tell == ["step", "table"]  # the finished summary follows the last move
    assert core.bots_to_ask() == [] and core.next_deadline() is None
    rebuilt = TableCore(core.table, core.seats, core.users, log)
    assert rebuilt.match is not None and rebuilt.match.record.actions == match.record.actions


def said(core: TableCore, text: str, clock: float) -> str:
    effects = core.say(USERS[1], text, clock, 2, NOW)
    assert effects.write is not None and effects.write.chat is not None
    assert effects.tell == ["chat"] and effects.write.move is None
    return effects.write.chat.text


def test_chat_is_checked_escaped_and_rate_limited() -> None:
    core, _ = started()
    with pytest.raises(ServerError) as info:
        said(core, "   ", 0.0)
    assert info.value.code == "chat_empty"
    with pytest.raises(ServerError) as info:
        said(core, "x" * 501, 0.0)
    assert info.value.code == "chat_too_long"
    assert said(core, " <b>hi</b> ", 0.0) == "&lt;b&gt;hi&lt;/b&gt;"
    said(core, "again", 1.0)
    with pytest.raises(ServerError) as info:
        said(core, "too fast", 2.0)
    assert info.value.code == "rate_limited"
    assert said(core, "later", 11.0) == "later"
    assert not core.chat  # a line joins the chat once written (the actor tells it)
    core.heard({"user": "u1", "name": "User 1", "text": "later", "at": None})
    core.renamed(Person(1, "anon1", "Anonymous"))
    assert list(core.chat) == [{"user": "anon1", "name": "Anonymous", "text": "later",
                                "at": None}]
    assert core.names()[0] == "Anonymous" and core.snapshot(NOW).seats[0].user == "anon1"


def test_messages_with_keys_that_are_not_strings_are_still_sent() -> None:
    """A view may key by seat: the message still encodes (its keys as JSON strings)."""
    from ludoteca.server.table.view import dumps

    assert dumps({"hands": {0: [1], 1: []}, "ok": True}) == '{"hands":{"0":[1],"1":[]},"ok":true}'


def test_a_deal_that_ends_the_match_finishes_the_table_at_once() -> None:
    """Goita B5: a hand of six Shi scores 50 at the deal; with a target of 50 the match is over
    before anyone moves. The table must finish then (result, finished effects), not stay
    "playing" with no one to act (seed 205 deals such a hand)."""
    table = TableState("t1", "goita", 4, seed=205, options={"target": 50}, bank_seconds=300.0,
                       increment_seconds=5.0, turn_hours=24.0, host_id=1, created_at=NOW)
    seats = [SeatState("t1", s, bank_seconds=300.0) for s in range(4)]
    seats[0].user_id = 1
    core = TableCore(table, seats, {1: USERS[1]})
    for seat in (1, 2, 3):
        core.add_bot(1, "greedy", seat)
    effects = core.seats_changed(NOW)
    assert core.match is not None and core.match.is_over() and core.seq == 0
    assert effects.finished and "table" in effects.tell
    assert table.status == "finished" and table.finished_at == NOW
    assert table.result is not None and table.result["scores"] == list(core.match.outcome.scores)
    assert not core.to_act() and core.next_deadline() is None


def test_the_core_and_its_state_load_no_database_code() -> None:
    """What the lint test (tests/lint/test_core_is_plain.py) checks of the source, checked of
    a fresh interpreter: importing the core, its state and its views loads neither SQLAlchemy
    nor the store."""
    import subprocess
    import sys

    code = ("import sys, ludoteca.server.table.core, ludoteca.server.table.view\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sqlalchemy'\n"
            "             or m in ('ludoteca.server.db', 'ludoteca.server.store')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
