"""Turn emails (and turn pushes, the same logic on their own channel): a turn waits ``delay``
seconds before its email, so the tables whose turn comes meanwhile make one digest and a player
who answers at once gets none; then each table still waiting for the player, whom no socket of
theirs shows it (they are not looking at it, on any of the arena's processes: ``presence.py``),
and not emailed about within ``interval``, is in the email. In quiet hours the email waits
for their end.

What waits is in memory, and nothing is lost with it: the database says what is owed. A
process that starts (or takes a table over from one that died, ``leases.py``) loads every
table being played, and a loaded table tells its pending decisions again (``TurnNotices``), so
they come here again; a decision already told on this channel (its sent-record is not older
than the decision's start, ``Store.turn_began``) is not told twice. Only the table's owning
process tells its turns, so two processes do not both send one."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from typing import Protocol

from ludoteca.server.db import User, utcnow
from ludoteca.server.notify_prefs import quiet_until, wants

LONGEST_WAIT = 86400.0


class Sent(Protocol):
    """Where the channel notes when it last told a player about a table (``turn_mails`` for
    email, ``push_turns`` for push)."""

    async def mailed(self, user_id: int, table_ids: list[str]) -> dict[str, datetime]: ...

    async def note_mailed(self, user_id: int, table_ids: list[str], at: datetime) -> None: ...


class TurnMails:
    def __init__(self, send: Callable[[User, list[tuple[str, str]]], Awaitable[None]],
                 store: Sent, users: Callable[[int], Awaitable[User | None]],
                 waiting: Callable[[str, int], bool],
                 watching: Callable[[int, Iterable[str]], Awaitable[set[str]]],
                 began: Callable[[str, int], Awaitable[datetime | None]],
                 delay: float, interval: timedelta, channel: str = "email",
                 reachable: Callable[[User], bool] = lambda user: bool(user.email)) -> None:
        self.send = send
        self.channel = channel
        self.reachable = reachable
        self.store = store
        self.users = users
        self.waiting = waiting
        self.watching = watching
        """Those of a player's tables a socket of theirs shows, in any process."""
        self.began = began
        """When a table's decision (by the ``seq`` it began at) began."""
        self.delay = delay
        self.interval = interval
        self.pending: dict[int, dict[str, tuple[str, int]]] = {}
        """player -> {table: (game, the seq its decision began at)} of the turns not emailed
        yet."""
        self.timers: dict[int, asyncio.Task[None]] = {}

    async def add(self, user: User, table_id: str, game: str, since: int) -> None:
        self.pending.setdefault(user.id, {})[table_id] = game, since
        if user.id not in self.timers:
            self._later(user.id, self.delay)

    def _later(self, user_id: int, seconds: float) -> None:
        self.timers[user_id] = asyncio.get_running_loop().create_task(
            self._flush_after(user_id, min(seconds, LONGEST_WAIT)))

    async def _flush_after(self, user_id: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.timers.pop(user_id, None)
        await self.flush(user_id)

    async def flush(self, user_id: int) -> None:
        tables = {t: g for t, g in self.pending.pop(user_id, {}).items()
                  if self.waiting(t, user_id)}
        if tables:  # one look for them all (with several processes: one Redis round trip)
            for seen in await self.watching(user_id, list(tables)):
                tables.pop(seen, None)
        if not tables:
            return
        user = await self.users(user_id)
        if user is None or not self.reachable(user) or not wants(user, "turn", self.channel):
            return
        now = utcnow()
        quiet = quiet_until(user, now)
        if quiet is not None:  # the turns wait for the morning (each checked again then)
            self.pending.setdefault(user_id, {}).update(tables)
            if user_id not in self.timers:
                self._later(user_id, (quiet - now).total_seconds() + 1)
            return
        mailed = await self.store.mailed(user_id, list(tables))
        due = [t for t in tables if t not in mailed
               or (mailed[t] <= now - self.interval and not await self._told(t, tables[t][1],
                                                                             mailed[t]))]
        if not due:
            return
        await self.store.note_mailed(user_id, due, now)
        await self.send(user, [(t, tables[t][0]) for t in due])

    async def _told(self, table_id: str, since: int, mailed: datetime) -> bool:
        """This decision was told already (before a restart, or by the process that owned the
        table before this one)."""
        began = await self.began(table_id, since)
        return began is not None and mailed >= began

    def close(self) -> None:
        for task in self.timers.values():
            task.cancel()
        with contextlib.suppress(Exception):
            self.timers.clear()
