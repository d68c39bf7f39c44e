"""The tables this process holds in memory, each with its actor: loaded from the store on first
use (one load at a time per table), created, and let go of when nobody watches a finished one."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from typing import Any, Protocol

from ludoteca.server.db import Seat, Table, User
from ludoteca.server.services import TableServices
from ludoteca.server.state_rows import chat_line, people, seat_states, table_state
from ludoteca.server.table.commands import CatchUp, Deal
from ludoteca.server.table.ref import TableRef, table_ref
from ludoteca.server.table.state import Person

LIVE = ("open", "playing")


class Leases(Protocol):
    """What the live tables ask of the arena's other processes (``cluster.Cluster``)."""

    def loaded(self, table_id: str) -> bool: ...

    async def release(self, table_id: str) -> None: ...


class LiveTables:
    def __init__(self, services: TableServices) -> None:
        self.services = services
        self.refs: dict[str, TableRef] = {}
        self.leases: Leases | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}
        self._background: set[asyncio.Task[Any]] = set()

    def is_loading(self, table_id: str) -> bool:
        """The table is being read from the store right now."""
        lock = self._loading.get(table_id)
        return lock is not None and lock.locked()

    async def ref(self, table_id: str) -> TableRef | None:
        """The table, loaded from the store on first use (None: no such table)."""
        found = self.refs.get(table_id)
        if found is not None:
            return found
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        self._waiting[table_id] = self._waiting.get(table_id, 0) + 1
        try:
            async with lock:
                return await self._load(table_id)
        finally:
            self._waiting[table_id] -= 1
            if not self._waiting[table_id]:  # the last one out lets go of the lock
                del self._waiting[table_id]
                self._loading.pop(table_id, None)

    async def _load(self, table_id: str) -> TableRef | None:
        found = self.refs.get(table_id)
        if found is not None:
            return found
        store = self.services.store
        loaded = await store.read_table(table_id)  # the table and its log as of one moment
        if loaded is None:
            return None
        table, seats, moves = loaded
        users = await store.people(
            [s.user_id for s in seats if s.user_id is not None] + [table.host_id])
        chat = []
        for line in await store.chat(table_id):
            user = users.get(line.user_id) or await store.user(line.user_id)
            chat.append(chat_line(user, line))
        ref = table_ref(self.services, table, seats, users, moves, chat)
        if table.status in LIVE:
            ref.owned = await self.services.claim(table_id)
            self.refs[table_id] = ref
            ref.start()
            if self.leases is not None and self.leases.loaded(table_id):
                ref.tell(CatchUp())  # it changed while it was being read
        return ref

    async def resume(self) -> int:
        """Load every table being played, so clocks and bots go on after a restart."""
        ids = await self.services.store.table_ids(["playing"])
        for table_id in ids:
            await self.ref(table_id)
        return len(ids)

    async def open(self, host: User | Person, table: Table, seats: list[Seat],
                   users: Mapping[int, User | Person],
                   table_id: str | None = None) -> TableRef:
        """Store a new table with its seats, run its actor and deal if every seat is taken.
        ``table_id``: the id it must have (a tournament's board); if a table has it already,
        that one is loaded instead, so asking twice opens it once (and dealt, if the process
        that stored it died before dealing)."""
        if table_id is not None:
            found = await self.ref(table_id)
            if found is not None:
                if found.snapshot().status == "open":
                    await found.send(Deal())
                return found
        table.id = table_id or secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        table.invite = secrets.token_urlsafe(12)
        table.host_id = host.id
        table.status = "open"
        table.seed = secrets.randbits(62)
        for seat in seats:
            seat.table_id = table.id
        await self.services.store.add_table(table, seats)
        ref = table_ref(self.services, table_state(table), seat_states(seats), people(users))
        ref.owned = await self.services.claim(table.id)
        self.refs[table.id] = ref
        ref.start()
        await ref.send(Deal())
        return ref

    async def create(self, host: User, table: Table, bots: list[str | None]) -> TableRef:
        seats = [Seat(table_id="", seat=s, user_id=None, bot=None, zombie=False,
                      bank_seconds=table.bank_seconds)
                 for s in range(table.players)]
        seats[0].user_id = host.id
        for seat, level in zip(seats[1:], bots, strict=False):
            seat.bot = level
        return await self.open(host, table, seats, {host.id: host})

    def forget(self, table_id: str, actor: object) -> None:
        """Let go of the table's actor once nobody watches it (it lives on in the store)."""
        found = self.refs.get(table_id)
        if found is not None and found.holds(actor) and not found.watched:
            del self.refs[table_id]
            found.let_go()  # at once: a viewer arriving now loads the table anew
            if (self.leases is not None and found.owned
                    and found.snapshot().status not in LIVE):
                self._later(self.leases.release(table_id))
            self._later(found.stop())

    def _later(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def by_status(self) -> dict[str, int]:
        """Tables in memory by status (the ``ludoteca_tables`` gauge, read when scraped)."""
        counts: dict[str, int] = {}
        for ref in self.refs.values():
            status = ref.snapshot().status
            counts[status] = counts.get(status, 0) + 1
        return counts

    async def stop(self) -> None:
        await asyncio.gather(*(ref.stop() for ref in list(self.refs.values())))
        for task in list(self._background):
            task.cancel()
