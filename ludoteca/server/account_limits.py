"""What one account may make the arena run at once (issue 23: bots cost their owner, not the
arena): open and running tables it hosts, and bots at search levels at those tables, which
each take a worker process for a quarter or one and a half seconds a move. A table's bots
are its host's, whoever seated them. Refused with a typed error, before anything changes;
the counts are read from the store, so they hold across restarts and processes (checks for
one account are made one at a time in each process).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from ludoteca.bots import SEARCH_SECONDS
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.store import Store

log = logging.getLogger("ludoteca.server")

SEARCH_LEVELS = tuple(SEARCH_SECONDS)
"""The bot levels that search (``medium``, ``hard``): the ones that cost."""


class AccountLimits:
    def __init__(self, store: Store, tables: int, search_bots: int) -> None:
        self.store = store
        self.tables = tables
        self.search_bots = search_bots
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, user_id: int) -> AsyncIterator[None]:
        """Check and change one account's tables one request at a time."""
        lock, users = self._locks.get(user_id, (asyncio.Lock(), 0))
        self._locks[user_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[user_id]
            if users > 1:
                self._locks[user_id] = (lock, users - 1)
            else:
                del self._locks[user_id]

    async def check_table(self, user_id: int, bots: Sequence[str | None]) -> None:
        """A new table hosted by ``user_id`` with these bots."""
        tables, search = await self.store.hosted(user_id, SEARCH_LEVELS)
        if tables >= self.tables:
            log.info("too many tables", extra={"user_id": user_id, "limit": self.tables})
            raise ServerError("too_many_tables", E.TOO_MANY_TABLES, 429, count=self.tables)
        self._check_bots(user_id, search, sum(1 for b in bots if b in SEARCH_LEVELS))

    async def check_bot(self, host_id: int, level: str) -> None:
        """One more bot at a table hosted by ``host_id``."""
        if level in SEARCH_LEVELS:
            _, search = await self.store.hosted(host_id, SEARCH_LEVELS)
            self._check_bots(host_id, search, 1)

    def _check_bots(self, user_id: int, have: int, more: int) -> None:
        if more and have + more > self.search_bots:
            log.info("too many search bots", extra={"user_id": user_id,
                                                     "limit": self.search_bots})
            raise ServerError("too_many_bots", E.TOO_MANY_BOTS, 429, count=self.search_bots,
                              levels=", ".join(SEARCH_LEVELS), have=have, more=more)
