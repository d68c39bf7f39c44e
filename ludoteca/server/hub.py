"""The hub: the live tables of this process, the lobby's and players' event streams, and what
happens around a table (creation, the end of a match, turn notifications).

Tables are created and looked up here; everything that changes one goes through its actor.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import TYPE_CHECKING, Any

import httpx

from ludoteca.engine.game import JSON
from ludoteca.server import errors as E
from ludoteca.server import ratings
from ludoteca.server.auth import RateLimit
from ludoteca.server.bots import BotWorkers
from ludoteca.server.connection import CLOSE, Connection
from ludoteca.server.db import Seat, Table, User
from ludoteca.server.errors import voice
from ludoteca.server.metrics import Metrics
from ludoteca.server.settings import Settings
from ludoteca.server.store import Store
from ludoteca.server.table.actor import TableActor
from ludoteca.server.table.core import TableCore

if TYPE_CHECKING:
    from ludoteca.server.cluster import Cluster

log = logging.getLogger("ludoteca.hub")

LIVE = ("open", "playing")


class Hub:
    def __init__(self, settings: Settings, store: Store, bots: BotWorkers) -> None:
        self.settings = settings
        self.store = store
        self.bots = bots
        self.metrics = Metrics()
        self.actors: dict[str, TableActor] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._waiting: dict[str, int] = {}
        self._rematching: dict[str, asyncio.Lock] = {}
        self.streams: dict[int | None, set[asyncio.Queue[str]]] = {}
        """Server-sent event queues: ``None`` holds anonymous lobby watchers."""
        self.notified: dict[tuple[str, int], int] = {}
        self.http: httpx.AsyncClient | None = None
        self.closing = False
        self._background: set[asyncio.Task[Any]] = set()
        self.auth_limit = RateLimit(settings.auth_rate, 60)
        self.create_limit = RateLimit(settings.create_rate, 60)
        self.cluster: Cluster | None = None
        """Set when this process is one of several (``LUDOTECA_REDIS_URL``)."""

    # ---- what a table's actor may ask (services.TableServices) -------------------------------
    def several(self) -> bool:
        return self.cluster is not None

    async def claim(self, table_id: str) -> bool:
        """Alone, a process runs every table's clocks and bots; one of several, those whose
        lease it holds."""
        return True if self.cluster is None else await self.cluster.claim(table_id)

    def table_changed(self, table_id: str, seq: int) -> None:
        """The table's rows or log changed: the other processes catch up."""
        if self.cluster is not None:
            self.cluster.table_changed(table_id, seq)

    def chat_said(self, table_id: str, line: JSON) -> None:
        if self.cluster is not None:
            self.cluster.chat(table_id, line)

    def is_loading(self, table_id: str) -> bool:
        """The table is being read from the store right now."""
        lock = self._loading.get(table_id)
        return lock is not None and lock.locked()

    # ---- tables ----------------------------------------------------------------------------
    async def actor(self, table_id: str) -> TableActor | None:
        """The live table's actor, loaded from the store on first use (None: no such table)."""
        found = self.actors.get(table_id)
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

    async def _load(self, table_id: str) -> TableActor | None:
        found = self.actors.get(table_id)
        if found is not None:
            return found
        loaded = await self.store.snapshot(table_id)  # rows and log as of one moment
        if loaded is None:
            return None
        table, seats, moves = loaded
        users = await self.store.users(
            [s.user_id for s in seats if s.user_id is not None] + [table.host_id]
        )
        actor = TableActor(self, TableCore(table, seats, users, moves))
        for line in await self.store.chat(table_id):
            user = users.get(line.user_id) or await self.store.user(line.user_id)
            actor.core.chat.append({
                "user": user.name if user else "?",
                "name": user.display_name if user else "?",
                "text": line.text,
                "at": line.at.isoformat(timespec="seconds"),
            })
        if table.status in LIVE:
            actor.owned = await self.claim(table_id)
            self.actors[table_id] = actor
            actor.start()
            self._count()
            if self.cluster is not None and self.cluster.loaded(table_id):
                actor.poke()  # it changed while it was being read
        return actor

    async def resume(self) -> int:
        """Load every table being played, so clocks and bots go on after a restart. One of
        several processes loads none: it takes over tables whose lease lapsed instead."""
        if self.cluster is not None:
            return 0
        ids = await self.store.table_ids(["playing"])
        for table_id in ids:
            await self.actor(table_id)
        return len(ids)

    async def create(self, host: User, table: Table, bots: list[str | None]) -> TableActor:
        self._new_ids(table, host)
        seats = [Seat(table_id=table.id, seat=s, user_id=None, bot=None, zombie=False,
                      bank_seconds=table.bank_seconds)
                 for s in range(table.players)]
        seats[0].user_id = host.id
        for seat, level in zip(seats[1:], bots, strict=False):
            seat.bot = level
        await self.store.add_table(table, seats)
        actor = TableActor(self, TableCore(table, seats, {host.id: host}))
        actor.owned = await self.claim(table.id)
        self.actors[table.id] = actor
        actor.start()
        await actor.call(actor.seats_changed)
        self._count()
        return actor

    async def rematch(self, old: TableActor, host: User) -> TableActor:
        """The same game, options, time control and seats (people and bots), dealt anew and
        started at once; every player of the old table hears of it. Players asking at once
        get the same one table."""
        lock = self._rematching.setdefault(old.table_id, asyncio.Lock())
        try:
            async with lock:
                return await self._rematch(old, host)
        finally:
            if not lock.locked():
                self._rematching.pop(old.table_id, None)

    async def _rematch(self, old: TableActor, host: User) -> TableActor:
        made = old.core.table.rematch
        if made is None:  # a finished table is loaded anew per request: ask the store
            loaded = await self.store.table(old.table_id)
            made = loaded[0].rematch if loaded is not None else None
        if made is not None:
            found = await self.actor(made)
            if found is not None:
                return found
        t = old.core.table
        table = Table(
            game=t.game, players=t.players, options=dict(t.options), mode=t.mode,
            bank_seconds=t.bank_seconds, increment_seconds=t.increment_seconds,
            turn_hours=t.turn_hours, rated=t.rated, private=t.private, zombie=False,
            rematch_of=t.id,
        )
        self._new_ids(table, host)
        seats = [
            Seat(table_id=table.id, seat=s.seat, user_id=s.user_id, bot=s.bot, zombie=False,
                 bank_seconds=table.bank_seconds)
            for s in old.core.seats
        ]
        await self.store.add_table(table, seats)
        if not await self.store.set_rematch(t.id, table.id):
            # another process made the rematch first: this one is dropped unplayed
            table.status = "abandoned"
            await self.store.save_table(table)
            loaded = await self.store.table(t.id)
            made = loaded[0].rematch if loaded is not None else None
            found = await self.actor(made) if made is not None else None
            if found is None:
                raise RuntimeError(f"table {t.id}: its rematch vanished")
            return found
        actor = TableActor(self, TableCore(table, seats, dict(old.core.users)))
        actor.owned = await self.claim(table.id)
        self.actors[table.id] = actor
        actor.start()
        await actor.call(actor.seats_changed)
        t.rematch = table.id
        old.tell_table()
        self.table_changed(t.id, old.core.seq)
        for seat in seats:
            if seat.user_id is not None:
                self.publish(seat.user_id, {"type": "rematch", "table": table.id, "of": t.id})
        self._count()
        return actor

    def _new_ids(self, table: Table, host: User) -> None:
        table.id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        table.invite = secrets.token_urlsafe(12)
        table.host_id = host.id
        table.status = "open"
        table.seed = secrets.randbits(62)

    def forget(self, table_id: str, actor: object) -> None:
        found = self.actors.get(table_id)
        if found is actor and found is not None and not found.viewers:
            del self.actors[table_id]
            found.stopping = True  # at once: a viewer arriving now loads the table anew
            if self.cluster is not None and found.owned and found.core.table.status not in LIVE:
                self._later(self.cluster.release(table_id))
            self._later(found.stop())
        self._count()

    def _later(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _count(self) -> None:
        counts: dict[str, int] = {"open": 0, "playing": 0, "finished": 0}
        for actor in self.actors.values():
            status = actor.core.table.status
            counts[status] = counts.get(status, 0) + 1
        for status, n in counts.items():
            self.metrics.tables.labels(status).set(n)

    async def finished(self, core: TableCore) -> None:
        """A match ended: ratings, the lobby, and the players' streams."""
        table = core.table
        changes = await ratings.rate(self.store, table, core.seats)
        if changes:
            table.result = {
                **(table.result or {}),
                "ratings": {
                    core.users[uid].name: {"before": old, "after": new}
                    for uid, (old, new) in changes.items() if uid in core.users
                },
            }
            await self.store.set_result(table.id, table.result)
        self.lobby_changed(core)
        for seat in core.seats:
            self.notified.pop((table.id, seat.seat), None)
            if seat.user_id is not None:
                self.publish(seat.user_id, {"type": "finished", "table": table.id})
        self._count()

    # ---- streams ---------------------------------------------------------------------------
    def subscribe(self, user_id: int | None) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(256)
        self.streams.setdefault(user_id, set()).add(queue)
        return queue

    def unsubscribe(self, user_id: int | None, queue: asyncio.Queue[str]) -> None:
        found = self.streams.get(user_id)
        if found is not None:
            found.discard(queue)
            if not found:
                del self.streams[user_id]

    def _put(self, queue: asyncio.Queue[str], text: str) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            queue.put_nowait(text)

    def publish(self, user_id: int, data: JSON) -> None:
        """Tell a player's streams, in every process."""
        self.deliver(user_id, json.dumps(data))
        if self.cluster is not None:
            self.cluster.user(user_id, data)

    def user_changed(self, user: User) -> None:
        """A player's row changed (name, language, webhook): the live tables of every process
        take the new one."""
        for actor in self.actors.values():
            if user.id in actor.core.users:
                actor.core.users[user.id] = user
        if self.cluster is not None:
            self.cluster.profile(user.id)

    async def reread_user(self, user_id: int) -> None:
        """Another process changed this player's row."""
        if any(user_id in a.core.users for a in self.actors.values()):
            user = await self.store.user(user_id)
            if user is not None:
                for actor in self.actors.values():
                    if user_id in actor.core.users:
                        actor.core.users[user_id] = user

    def deliver(self, user_id: int, text: str) -> None:
        for queue in self.streams.get(user_id, ()):
            self._put(queue, text)

    def lobby_changed(self, core: TableCore) -> None:
        if core.table.private:
            return
        text = json.dumps({"type": "lobby", "table": core.summary()})
        self.deliver_all(text)
        if self.cluster is not None:
            self.cluster.lobby(text)

    def deliver_all(self, text: str) -> None:
        for queues in self.streams.values():
            for queue in queues:
                self._put(queue, text)

    def turns(self, core: TableCore) -> None:
        """Tell people whose new decision began at a turn-based table (stream and webhook)."""
        if core.table.mode != "turn":
            return
        for seat, since in core.decisions().items():
            row = core.seats[seat]
            if row.user_id is None or core.is_bot(seat):
                continue
            key = (core.table.id, seat)
            if self.notified.get(key) == since:
                continue
            self.notified[key] = since
            data = {"type": "turn", "table": core.table.id, "game": core.table.game,
                    "seq": since}
            self.publish(row.user_id, data)
            user = core.users.get(row.user_id)
            if user is not None and user.webhook_url:
                self._later(self._webhook(user.webhook_url, data))

    async def _webhook(self, url: str, data: JSON) -> None:
        if self.http is None:
            self.http = httpx.AsyncClient(timeout=self.settings.webhook_timeout)
        try:
            await self.http.post(url, json=data)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            log.info("webhook %s failed: %s", url, exc)

    # ---- the end ---------------------------------------------------------------------------
    async def shutdown(self) -> None:
        """Finish every table's command in hand, then tell clients to reconnect (once)."""
        if self.closing:
            return
        self.closing = True
        await asyncio.gather(*(a.stop() for a in list(self.actors.values())))
        if self.cluster is not None:
            await self.cluster.close()  # its leases go at once: the others take over
        for actor in self.actors.values():
            for conn in list(actor.viewers):
                message = voice(conn.lang).t(E.SHUTTING_DOWN)
                conn.send(json.dumps({"type": "reconnect", "message": message}))
                conn.send(CLOSE)
        text = json.dumps({"type": "reconnect"})
        for queues in self.streams.values():
            for queue in queues:
                self._put(queue, text)
        for task in list(self._background):
            task.cancel()
        if self.http is not None:
            await self.http.aclose()


__all__ = ["Connection", "Hub"]
