"""Issue 23, "Undo cannot be used against the opponent", from outside over real WebSockets
against a real ``ludoteca serve`` (SQLite): acting, letting the opponent's clock run, then
taking the action back must not cost the opponent that time, and takebacks per turn are
limited (``engine.match.TAKEBACKS_PER_TURN``, 3; docs/protocol.md "Undo")."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from ludoteca.engine.match import TAKEBACKS_PER_TURN
from tests.server.client import JSON, Player, Socket
from tests.server.conftest import Server

BANK, INCREMENT = 600.0, 10.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("undo")
    found = Server(f"sqlite:///{folder / 'arena.sqlite3'}", folder)
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def table(server: Server) -> Iterator[tuple[dict[int, Socket], int]]:
    """A live two-player Kingdomino table of two people, both sockets open; and the seat that
    moves first."""
    ana, ben = Player(server.base), Player(server.base)
    try:
        made = ana.create("kingdomino", 2, bank_seconds=BANK, increment_seconds=INCREMENT)
        ben.join(made["id"])
        socks = {0: ana.socket(made["id"]), 1: ben.socket(made["id"])}
        (first,) = socks[0].state["to_act"]
        yield socks, first
    finally:
        ana.close()
        ben.close()


def clock(state: JSON, seat: int) -> JSON:
    found: JSON = state["clocks"][seat]
    return found


def deadline(state: JSON, seat: int) -> datetime:
    return datetime.fromisoformat(clock(state, seat)["deadline"])


def act(sock: Socket) -> JSON:
    """Play this seat's first legal action; the update that follows it."""
    seq = sock.state["seq"]
    sock.act(sock.state["legal"][0])
    return sock.until(lambda m: m["type"] == "update" and m["seq"] == seq + 1)


def undo(sock: Socket) -> JSON:
    """Take back; the ``full`` message that follows, or the refusal."""
    sock.send({"type": "undo", "seq": sock.state["seq"]})
    return sock.until(lambda m: m["type"] in ("full", "error"))


def test_the_waiting_opponent_is_not_charged_for_an_undone_move(
    table: tuple[dict[int, Socket], int]
) -> None:
    socks, mover = table
    waiter = 1 - mover
    me = socks[mover]
    # the first draft: the mover claims until the turn passes to the other seat
    while True:
        shown = me.state
        after = act(me)
        if after["to_act"] == [waiter]:
            break
    assert after["undo"], "a claim reveals nothing: it can be taken back"
    assert clock(after, waiter)["running"] and not clock(after, mover)["running"]
    time.sleep(3)  # the opponent's clock runs while it waits
    full = undo(me)
    assert full["type"] == "full", full
    # the opponent: stopped, and its bank is what it was before the undone move
    assert clock(full, waiter) == {"seat": waiter, "running": False, "seconds": BANK,
                                   "deadline": None}
    # the undoer: its deadline is the one it had before acting (the 3 s are its own, and
    # the increment its move earned is gone)
    assert clock(full, mover)["running"]
    assert abs((deadline(full, mover) - deadline(shown, mover)).total_seconds()) < 0.01
    assert clock(full, mover)["seconds"] <= clock(shown, mover)["seconds"] - 2.5
    # every viewer heard the same clocks
    other = socks[waiter].until(lambda m: m["type"] == "full" and m["seq"] == full["seq"])
    assert other["clocks"] == full["clocks"]
    # what was stored is the same: a reconnecting viewer reads it back
    assert socks[waiter].ws  # still open
    again = socks[waiter]
    again.send({"type": "sync"})
    synced = again.until(lambda m: m["type"] == "full")
    assert clock(synced, waiter)["seconds"] == BANK and not clock(synced, waiter)["running"]


def test_takebacks_per_turn_are_limited(table: tuple[dict[int, Socket], int]) -> None:
    socks, mover = table
    me = socks[mover]
    for _ in range(TAKEBACKS_PER_TURN):
        assert act(me)["undo"]
        assert undo(me)["type"] == "full"
    assert act(me)["undo"] is False  # the button is gone
    refused = undo(me)
    assert refused["type"] == "error" and refused["code"] == "no_undo", refused
    assert f"taken back {TAKEBACKS_PER_TURN} moves this turn" in refused["message"]
    me.send({"type": "ping"})
    pong = me.until(lambda m: m["type"] == "pong")
    assert pong["seq"] == me.state["seq"]  # the refusal changed nothing


# ---- the same rule on the table's pure core (no socket): exact times ---------------------------
def test_each_undo_restores_the_deadline_before_its_action() -> None:
    """Several takebacks in a row, each after time has passed: the undoer's deadline goes back
    to the one it had before each undone action, the other seat's bank never moves, and a
    table rebuilt from the stored log and rows agrees (the clocks were written)."""
    from datetime import timedelta

    from ludoteca.server import clocks
    from ludoteca.server.table.core import TableCore
    from tests.server.test_table_core import NOW, started

    core, log = started("kingdomino")
    core.table.seed = next(seed for seed in range(100) if claims_twice(seed))
    core.load(())  # dealt again with that seed
    (mover,) = core.to_act()
    for row in core.seats:  # the clocks as the deal starts them
        row.deadline = None
    clocks.start(core.table, core.seats[mover], NOW)
    waiter = 1 - mover
    match = core.match
    assert match is not None
    now = NOW
    before: list[datetime | None] = []
    while True:  # the mover claims until the turn passes (an undoable claim each time)
        before.append(core.seats[mover].deadline)
        now += timedelta(seconds=7)
        effects = core.act(mover, core.seq, match.legal(mover)[0].to_json(), now)
        assert effects.write is not None and effects.write.move is not None
        log.append(effects.write.move)
        if core.to_act() != {mover}:
            break
    assert core.seats[waiter].deadline is not None  # the waiter's clock runs now
    assert len(before) >= 2  # two claims in a row, so two undos in a row
    waiter_bank = core.seats[waiter].bank_seconds
    for i, deadline_then in enumerate(reversed(before[-TAKEBACKS_PER_TURN:])):
        now += timedelta(seconds=11)
        if i == 1:  # as after a restart: the rows and the log read back from the store
            core = TableCore(core.table, core.seats, core.users, log)
        effects = core.undo(mover, core.seq, now)
        assert effects.write is not None and effects.write.move is not None
        log.append(effects.write.move)
        assert core.seats[mover].deadline == deadline_then
        assert core.seats[waiter].deadline is None
        assert core.seats[waiter].bank_seconds == waiter_bank


def claims_twice(seed: int) -> bool:
    """Whether a two-player Kingdomino dealt with ``seed`` begins with two claims by one seat."""
    from ludoteca.engine.match import Match
    from ludoteca.games import get_game

    match = Match.new(get_game("kingdomino"), {}, 2, seed)
    (first,) = match.to_act()
    match.step(first, match.legal(first)[0])
    return match.to_act() == {first}
