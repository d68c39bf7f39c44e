"""One arena served by several processes (docs/deploy.md): what they tell each other through
Redis, and which of them runs each live table's clocks and bots.

The database stays the one source of truth. Any process may apply a move to any table; the
unique ``(table_id, seq)`` of the log decides between two at once, and the loser catches up
and says "stale", as a single process does after a failed write. Redis pub/sub only carries
*pokes* ("table t changed, now at seq n"), chat lines and player notifications: a process that
hears a poke reads the new log entries from the database and renders them per viewer itself,
so no game state crosses pub/sub. (The bot queue, ``bot_queue.QueuedBots``, does carry a bot seat's
own view to a worker: a server-side part, trusted as the database is.)

Pub/sub may lose messages while a connection is down: meanwhile every loaded table is read
from the database every second or two, and once more when it is back. A process that could not
publish tells the others to read everything again once it can, and a subscription that hears
nothing for a while, not even this process's own heartbeat, is made anew.

Clocks and bot seats must run in exactly one process: the cluster keeps this process's table
leases (``leases.py``). Who is online or looking at a table is kept in Redis too, each
process's part expiring unless renewed (``presence.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Protocol

from redis.exceptions import RedisError

from ludoteca.engine.game import JSON
from ludoteca.server.leases import Leases
from ludoteca.server.live_tables import LiveTables
from ludoteca.server.presence import Presence, SharedPresence
from ludoteca.server.redis_link import connect, process_name
from ludoteca.server.settings import Settings
from ludoteca.server.store import Store
from ludoteca.server.streams import Streams
from ludoteca.server.table.commands import CatchUp, ChatHeard

log = logging.getLogger("ludoteca.cluster")

TABLES = "ludoteca:tables"
USERS = "ludoteca:users"
LOBBY = "ludoteca:lobby"
OUTBOX = 10_000
BEAT = 5.0
DEAF = 3 * BEAT


class ClusterHost(Protocol):
    """What the cluster needs of this process (``hub.Hub``)."""

    settings: Settings
    store: Store
    tables: LiveTables
    streams: Streams
    presence: Presence
    closing: bool

    async def reread_user(self, user_id: int) -> None: ...

    def sign_out_here(self, user_id: int) -> None: ...


class Cluster:
    def __init__(self, hub: ClusterHost, url: str) -> None:
        self.hub = hub
        self.name = process_name()
        self.redis = connect(url)
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(OUTBOX)
        self.connected = False
        self.lost = False
        """The subscription broke since it was last made: pokes may have been missed."""
        self.unsent = False
        """A message could not be published: the others must read everything again."""
        self.heard_at = time.monotonic()
        self.loading: set[str] = set()
        """Tables poked while this process was loading them (the poke is kept for after)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._rereads: set[asyncio.Task[None]] = set()
        self.leases = Leases(hub, self.name, hub.settings.lease_seconds)
        self.presence = SharedPresence(self.redis, self.name, hub.presence,
                                       hub.settings.lease_seconds, lambda: self.connected)

    async def start(self) -> None:
        """Subscribe (waiting a little for Redis, so the first pokes are not missed) and start
        keeping leases."""
        self._tasks = [
            asyncio.create_task(self._listen(), name="cluster: listen"),
            asyncio.create_task(self._send(), name="cluster: send"),
            asyncio.create_task(self.leases.keep(), name="cluster: leases"),
            asyncio.create_task(self._beat(), name="cluster: heartbeat"),
            asyncio.create_task(self.presence.keep(), name="cluster: presence"),
        ]
        for _ in range(50):
            if self.connected:
                break
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        """Stop (after sending what is waiting, for a second at most), and give up this
        process's leases so others take its tables at once, and its presence, so its
        people show offline at once (until their browsers reconnect to another)."""
        end = time.monotonic() + 1.0
        while not self.outbox.empty() and time.monotonic() < end:
            await asyncio.sleep(0.02)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.presence.leave_all()
        with contextlib.suppress(Exception):
            await self.hub.store.leases.release(self.name)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ---- telling the others (never waits: a message that cannot go is dropped) -------------
    def _put(self, channel: str, data: JSON) -> None:
        data = {**data, "from": self.name}
        try:
            self.outbox.put_nowait((channel, json.dumps(data)))
        except asyncio.QueueFull:  # Redis too slow or away: the others will read everything
            self.unsent = True

    def table_changed(self, table_id: str, seq: int) -> None:
        self._put(TABLES, {"table": table_id, "seq": seq})

    def chat(self, table_id: str, line: JSON) -> None:
        self._put(TABLES, {"table": table_id, "chat": line})

    def user(self, user_id: int, data: JSON) -> None:
        self._put(USERS, {"user": user_id, "data": data})

    def profile(self, user_id: int) -> None:
        self._put(USERS, {"user": user_id, "profile": True})

    def lobby(self, text: str) -> None:
        self._put(LOBBY, {"text": text})

    def signed_out(self, user_id: int) -> None:
        self._put(USERS, {"user": user_id, "signed_out": True})

    async def _send(self) -> None:
        while True:
            channel, text = await self.outbox.get()
            if self.unsent and await self._publish(TABLES, json.dumps(
                    {"from": self.name, "resync": True})):
                self.unsent = False
            if not await self._publish(channel, text):
                # lost: once Redis answers again, every process reads all its tables again
                self.unsent = True

    async def _publish(self, channel: str, text: str) -> bool:
        for attempt in range(2):  # a pooled connection may be stale after Redis restarted
            try:
                await self.redis.publish(channel, text)
                return True
            except (RedisError, OSError) as exc:
                log.debug("redis publish failed (%d): %s", attempt, exc)
                await asyncio.sleep(0.05)
        return False

    async def _beat(self) -> None:
        """Tell ourselves we are alive through Redis: a subscription that hears nothing,
        not even this, for ``DEAF`` seconds is broken even if its socket looks open."""
        while True:
            self._put(TABLES, {"beat": True})
            await asyncio.sleep(BEAT)

    # ---- hearing them ----------------------------------------------------------------------
    async def _listen(self) -> None:
        pause = 0.1
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(TABLES, USERS, LOBBY)
                    if self.lost:
                        log.warning("redis is back: reading every loaded table again")
                        self.resync()
                    self.connected, self.lost, pause = True, False, 0.1
                    self.heard_at = time.monotonic()
                    while True:
                        message = await pubsub.get_message(
                            ignore_subscribe_messages=True, timeout=1.0)
                        if message is not None and message.get("type") == "message":
                            self.heard_at = time.monotonic()
                            self._hear(message["channel"], message["data"])
                        elif time.monotonic() - self.heard_at > DEAF:
                            raise ConnectionError(f"nothing heard for {DEAF:.0f} s")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected:
                    log.warning("redis connection lost: %s", exc)
                self.connected, self.lost = False, True
                # meanwhile the tables here read the store themselves, so games go on
                self.resync()
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)

    def _hear(self, channel: bytes | str, raw: bytes | str) -> None:
        try:
            data: dict[str, Any] = json.loads(raw)
        except ValueError:
            return
        if data.get("from") == self.name:
            return  # told here already
        if data.get("resync"):
            self.resync()  # another process could not tell us something
            return
        name = channel.decode() if isinstance(channel, bytes) else channel
        hub = self.hub
        if name == TABLES and data.get("beat"):
            return
        if name == TABLES:
            table_id = str(data.get("table"))
            ref = hub.tables.refs.get(table_id)
            if ref is None:
                if hub.tables.is_loading(table_id):
                    self.loading.add(table_id)
                return
            ref.tell(ChatHeard(data["chat"]) if "chat" in data else CatchUp())
        elif name == USERS and data.get("profile"):
            task = asyncio.create_task(hub.reread_user(int(data["user"])))
            self._rereads.add(task)
            task.add_done_callback(self._rereads.discard)
        elif name == USERS and data.get("signed_out"):
            hub.sign_out_here(int(data["user"]))
        elif name == USERS:
            hub.streams.deliver(int(data["user"]), json.dumps(data["data"]))
        elif name == LOBBY:
            hub.streams.deliver_all(str(data["text"]))

    def resync(self) -> None:
        """Pokes may have been lost: every loaded table catches up with the database."""
        for ref in list(self.hub.tables.refs.values()):
            ref.tell(CatchUp())

    def loaded(self, table_id: str) -> bool:
        """A table finished loading: was it poked meanwhile?"""
        if table_id in self.loading:
            self.loading.discard(table_id)
            return True
        return False

    # ---- leases (``leases.py``) ------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        return await self.leases.claim(table_id)

    async def release(self, table_id: str) -> None:
        await self.leases.release(table_id)
