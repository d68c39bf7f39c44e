"""Who is here: a person with a page of the arena open (an event stream: the friends list's
``online``), and a person one of whose table sockets shows a table (they are looking at it: a
turn email or push waits).

Alone, a process knows this from its own streams and sockets, counted as *marks*. One of
several (``cluster.py``), it also keeps its marks in Redis, so that every process answers for
the whole arena: a mark is the Redis set ``ludoteca:here:<mark>`` of the processes holding it,
which a process joins when the mark appears in it, leaves when it goes, and renews (with the
set's expiry, ``LUDOTECA_LEASE_SECONDS``) every third of that time. A process that dies leaves
nothing, so what it held lasts at most that long after its last renewal; one that stops
leaves every set at once. Only ids cross Redis (a user id, a table id), never who may see
what: the rules of who may ask (only a follower sees whether someone is online) stay with the
callers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("ludoteca.presence")

KEY = "ludoteca:here:"
CHUNK = 500
"""Marks written in one pipeline (a process with many people writes several)."""
READ_WAIT = 1.0
"""Seconds a question waits for Redis before it is answered from this process alone."""


def online(user_id: int) -> str:
    """The mark of a person with a page of the arena open."""
    return f"online:{user_id}"


def looking(user_id: int, table_id: str) -> str:
    """The mark of a person whose socket shows the table."""
    return f"table:{table_id}:{user_id}"


class Presence:
    """This process's marks, counted (two tabs are one mark); with ``shared``, the arena's."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.shared: SharedPresence | None = None
        """Set when this process is one of several (``cluster.Cluster``)."""

    def enter(self, mark: str) -> None:
        held = self.counts.get(mark, 0)
        self.counts[mark] = held + 1
        if held == 0 and self.shared is not None:
            self.shared.changed(mark)

    def leave(self, mark: str) -> None:
        held = self.counts.get(mark, 0)
        if held > 1:
            self.counts[mark] = held - 1
            return
        self.counts.pop(mark, None)
        if held == 1 and self.shared is not None:
            self.shared.changed(mark)

    async def found(self, marks: Iterable[str]) -> set[str]:
        """Which of ``marks`` are held here or, one of several, by any process (when Redis
        does not answer within ``READ_WAIT``: here)."""
        asked = list(dict.fromkeys(marks))
        here = {mark for mark in asked if mark in self.counts}
        elsewhere = [mark for mark in asked if mark not in here]
        if self.shared is None or not elsewhere:
            return here
        return here | await self.shared.found(elsewhere)


class SharedPresence:
    """This process's marks in Redis, kept by one task (``keep``) so writes stay in order."""

    def __init__(self, redis: Redis, name: str, local: Presence, seconds: float,
                 up: Callable[[], bool] = lambda: True) -> None:
        self.redis = redis
        self.name = name
        self.local = local
        self.up = up
        """Redis is reachable (the cluster's subscription): else questions are not sent."""
        self.ttl_ms = max(1, round(seconds * 1000))
        self.every = seconds / 3
        self.dirty: set[str] = set()
        """Marks that appeared or went here since they were last written."""
        self.wake = asyncio.Event()
        self.closed = False

    def changed(self, mark: str) -> None:
        if not self.closed:
            self.dirty.add(mark)
            self.wake.set()

    async def keep(self) -> None:
        """Write each change at once, and renew every mark every third of its expiry; a
        write that fails is tried again (Redis away: what it held expires meanwhile)."""
        renewed = -float("inf")
        while True:
            wait = renewed + self.every - time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), max(0.0, wait))
            self.wake.clear()
            started = time.monotonic()
            renew = started >= renewed + self.every
            marks, self.dirty = self.dirty | (set(self.local.counts) if renew else set()), set()
            try:
                await self._write(marks)
            except (RedisError, OSError) as exc:
                log.debug("presence not written: %s", exc)
                self.dirty |= marks
                if time.monotonic() - renewed > 3 * self.every:  # all written here expired:
                    self.dirty = {m for m in self.dirty if m in self.local.counts}
                await asyncio.sleep(min(1.0, self.every))
                continue
            if renew:
                renewed = started

    async def _write(self, marks: set[str]) -> None:
        """Join the sets of the marks held here (renewing their expiry), leave the others'."""
        ordered = sorted(marks)
        for start in range(0, len(ordered), CHUNK):
            async with self.redis.pipeline(transaction=False) as pipe:
                for mark in ordered[start:start + CHUNK]:
                    key = KEY + mark
                    if mark in self.local.counts:
                        pipe.sadd(key, self.name)
                        pipe.pexpire(key, self.ttl_ms)
                    else:
                        pipe.srem(key, self.name)
                await pipe.execute()

    async def found(self, marks: list[str]) -> set[str]:
        if not self.up():  # Redis away: no question waits for it
            return set()
        try:
            async with asyncio.timeout(READ_WAIT):
                async with self.redis.pipeline(transaction=False) as pipe:
                    for mark in marks:
                        pipe.exists(KEY + mark)
                    answers = await pipe.execute()
        except (RedisError, OSError, TimeoutError) as exc:
            log.debug("presence not read: %s", exc)
            return set()
        return {mark for mark, n in zip(marks, answers, strict=True) if n}

    async def leave_all(self) -> None:
        """The process stops (its ``keep`` task ended): it leaves every set at once, for a
        second at most."""
        self.closed = True
        ordered = sorted(set(self.local.counts) | self.dirty)
        with contextlib.suppress(RedisError, OSError, TimeoutError):
            async with asyncio.timeout(1.0):
                for start in range(0, len(ordered), CHUNK):
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for mark in ordered[start:start + CHUNK]:
                            pipe.srem(KEY + mark, self.name)
                        await pipe.execute()
