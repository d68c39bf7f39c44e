"""The table log's writer on a real database (SQLite with its own driver, PostgreSQL with Core
statements): entries written together come back exactly as written, a taken log place is a
``Conflict`` for that entry alone, and the others of its batch are kept."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from ludoteca.server import migrate
from ludoteca.server.db import Move, Seat, Table
from ludoteca.server.store import Conflict, Store

NOW = datetime(2026, 11, 27, 12, 30, 15, 123456, tzinfo=UTC)


def test_entries_come_back_as_written_and_a_taken_place_is_a_conflict(database_url: str) -> None:
    migrate.upgrade(database_url)
    asyncio.run(_check(database_url))


async def _check(url: str) -> None:
    store = Store(url)
    try:
        host = await store.add_user("writer_host", None, True, "en")
        table = Table(id="logw1", game="kingdomino", players=2, options={"harmony": True},
                      seed=2**61, mode="live", bank_seconds=300.0, increment_seconds=5.0,
                      turn_hours=0.0, rated=True, private=False, invite="i", status="open",
                      host_id=host.id, zombie=False, result=None, created_at=NOW)
        seats = [Seat(table_id="logw1", seat=s, user_id=host.id if s == 0 else None,
                      bot=None if s == 0 else "greedy", zombie=False, bank_seconds=300.0,
                      deadline=None) for s in range(2)]
        await store.add_table(table, seats)

        table.status, table.started_at = "playing", NOW
        seats[0].bank_seconds, seats[0].deadline = 250.5, NOW + timedelta(seconds=250.5)
        first = Move(table_id="logw1", seq=1, seat=0, kind="act",
                     action={"type": "claim", "domino": 7, "ñ": "é"}, at=NOW)
        second = Move(table_id="logw1", seq=2, seat=1, kind="note",
                      action={"type": "takeover"}, at=NOW + timedelta(seconds=1))
        await asyncio.gather(store.append(first, seats, table), store.append(second, seats))

        again = Move(table_id="logw1", seq=2, seat=0, kind="act", action={"type": "x"}, at=NOW)
        third = Move(table_id="logw1", seq=3, seat=0, kind="undo", action=None, at=NOW)
        outcomes = await asyncio.gather(store.append(again), store.append(third),
                                        return_exceptions=True)
        assert isinstance(outcomes[0], Conflict) and outcomes[1] is None

        found = await store.snapshot("logw1")
        assert found is not None
        stored, stored_seats, moves = found
        assert [(m.seq, m.seat, m.kind, m.action, m.at) for m in moves] == [
            (1, 0, "act", {"type": "claim", "domino": 7, "ñ": "é"}, NOW),
            (2, 1, "note", {"type": "takeover"}, NOW + timedelta(seconds=1)),
            (3, 0, "undo", None, NOW),
        ]
        assert stored.status == "playing" and stored.started_at == NOW
        assert stored.options == {"harmony": True} and stored.seed == 2**61 and stored.rated
        assert [(s.seat, s.user_id, s.bot, s.bank_seconds, s.deadline)
                for s in stored_seats] == [
            (0, host.id, None, 250.5, NOW + timedelta(seconds=250.5)),
            (1, None, "greedy", 300.0, None),
        ]
    finally:
        await store.close()


def test_many_tables_at_once_every_entry_lands_once(database_url: str) -> None:
    """Under load the writer thread drains the entries itself, several commits in a row and
    then behind the other writes (``log_writer.ROUNDS``): every entry of every table is
    committed once, in its place, while other writes share the thread."""
    migrate.upgrade(database_url)
    asyncio.run(_many(database_url))


async def _many(url: str) -> None:
    store = Store(url)
    try:
        host = await store.add_user("many_host", None, True, "en")
        ids = [f"many{t}" for t in range(20)]
        for table_id in ids:
            await store.add_table(
                Table(id=table_id, game="kingdomino", players=2, options={}, seed=t_seed(table_id),
                      mode="live", bank_seconds=300.0, increment_seconds=5.0, turn_hours=0.0,
                      rated=False, private=False, invite=table_id, status="playing",
                      host_id=host.id, zombie=False, result=None, created_at=NOW),
                [Seat(table_id=table_id, seat=s, user_id=host.id, bot=None, zombie=False,
                      bank_seconds=300.0, deadline=None) for s in range(2)])

        async def play(table_id: str) -> None:
            for seq in range(1, 31):
                await store.append(Move(table_id=table_id, seq=seq, seat=seq % 2, kind="act",
                                        action={"n": seq}, at=NOW))

        async def other_writes() -> None:
            for n in range(40):
                await store.add_user(f"other_{n}", None, True, "en")

        await asyncio.gather(*(play(t) for t in ids), other_writes())
        for table_id in ids:
            found = await store.snapshot(table_id)
            assert found is not None
            assert [(m.seq, m.action) for m in found[2]] == [
                (seq, {"n": seq}) for seq in range(1, 31)]
        assert all([await store.user_named(f"other_{n}") for n in range(40)])
    finally:
        await store.close()


def t_seed(table_id: str) -> int:
    return sum(map(ord, table_id))
