"""Seats are written like moves (issue 35): the core takes the seat in its state, the actor
writes it only if it is still as the core saw it, then tells; the loser of a race re-reads the
table and hears a typed refusal, and nothing is half-written.

Two arenas (each the app with its lifespan: its own store, hub and actors) on one database,
SQLite and PostgreSQL, with no Redis between them: the second does not hear of the first's
writes, so its table is stale when it seats someone, as a process that has not caught up yet
would be."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack

import pytest
from starlette.applications import Starlette

from ludoteca.server import migrate
from ludoteca.server.app import create_app
from ludoteca.server.db import Table
from ludoteca.server.errors import ServerError
from ludoteca.server.hub import Hub
from ludoteca.server.settings import Settings
from ludoteca.server.table.commands import Join, Leave
from ludoteca.server.table.effects import SeatChange
from ludoteca.server.table.ref import TableRef


def a_table() -> Table:
    return Table(game="kingdomino", players=4, options={}, mode="turn", bank_seconds=0.0,
                 increment_seconds=0.0, turn_hours=24.0, rated=False, private=False,
                 hints=False, zombie=False)


async def arenas(url: str, stack: AsyncExitStack) -> tuple[Hub, Hub]:
    hubs = []
    for _ in range(2):
        app: Starlette = create_app(Settings(database_url=url, bot_processes=1))
        await stack.enter_async_context(app.router.lifespan_context(app))
        hubs.append(app.state.hub)
    return hubs[0], hubs[1]


async def seats_stored(hub: Hub, table_id: str, status: str = "open"
                       ) -> list[tuple[int | None, str | None]]:
    found = await hub.store.table(table_id)
    assert found is not None and found[0].status == status
    return [(s.user_id, s.bot) for s in found[1]]


async def race(url: str) -> None:
    async with AsyncExitStack() as stack:
        a, b = await arenas(url, stack)
        names = ("racehost", "racer1", "racer2", "racer3", "racer4")
        host, one, two, three, four = [await a.store.add_user(n, None, False, "en")
                                       for n in names]
        ref = await a.tables.create(host, a_table(), [])
        table_id = ref.table_id
        seen: TableRef | None = await b.tables.ref(table_id)  # loaded now, stale from here
        assert seen is not None and seen.snapshot().seats[1].user_id is None
        free = (None, None)

        await ref.send(Join(one.id, 1, None))  # A's process takes seat 2 first
        with pytest.raises(ServerError) as refused:  # B still sees it free
            await seen.send(Join(two.id, 1, None))
        assert refused.value.code == "seat_taken" and refused.value.status == 409
        # B read the table again: it sees who won, and its own change is gone
        assert [(s.user_id, s.bot) for s in seen.snapshot().seats] == [
            (host.id, None), (one.id, None), free, free]
        assert await seats_stored(a, table_id) == [(host.id, None), (one.id, None), free, free]

        # leaving a seat B no longer holds in the store is refused the same way
        await ref.send(Leave(one.id))
        with pytest.raises(ServerError) as refused:
            await seen.send(Leave(one.id))
        assert refused.value.code == "not_seated"
        assert await seats_stored(a, table_id) == [(host.id, None), free, free, free]

        # both at once for the same seat: exactly one wins, the other is refused, typed
        outcomes = await asyncio.gather(ref.send(Join(two.id, 2, None)),
                                        seen.send(Join(three.id, 2, None)),
                                        return_exceptions=True)
        lost = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(lost) == 1 and isinstance(lost[0], ServerError), outcomes
        assert lost[0].code == "seat_taken"
        winner = two.id if not isinstance(outcomes[0], BaseException) else three.id
        held = [(host.id, None), free, (winner, None), free]
        assert await seats_stored(a, table_id) == held
        for side in (ref, seen):  # the winner wrote it; the loser read the table again
            assert [(s.user_id, s.bot) for s in side.snapshot().seats] == held

        # a seat change is all or nothing: the second seat is not as expected, so the first
        # is not written either
        done = await a.store.change_seats(table_id, [
            SeatChange(1, free, (four.id, None)), SeatChange(3, (None, "easy"), free)])
        assert done is False
        assert await seats_stored(a, table_id) == held

        # asked for no seat in particular, the one who lost a race takes the next free seat:
        # A seats someone in seat 2, which B (stale) still thinks free
        loser = three.id if winner == two.id else two.id
        await ref.send(Join(loser, 1, None))
        await seen.send(Join(four.id, None, None))
        assert await seats_stored(a, table_id, "playing") == [
            (host.id, None), (loser, None), (winner, None), (four.id, None)]
        assert seen.snapshot().status == "playing"  # every seat taken: B dealt


def test_two_arenas_racing_for_one_seat(database_url: str) -> None:
    migrate.upgrade(database_url)
    asyncio.run(race(database_url))
