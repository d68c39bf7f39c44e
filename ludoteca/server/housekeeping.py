"""The lobby's housekeeping, in the server's background: open tables that nobody filled in
time are given up (``abandoned``: they leave the lobby, and their viewers hear it), and guest
accounts unused for long are purged with their sessions (``account_deletion.py``), and
expired email links are deleted.

Every process of an arena runs it. That is harmless: giving a table up is the same conditional
write as a start (``Store.move_on``: only the first of two processes changes it, the other
reads the table again), and a purge re-checks in its one transaction that the guest is still
a guest unused since the cut-off (``Store.forget_user``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from datetime import timedelta

from ludoteca.server import friends
from ludoteca.server.account_deletion import forget_account
from ludoteca.server.db import utcnow
from ludoteca.server.hub import Hub
from ludoteca.server.table.commands import Expire

log = logging.getLogger("ludoteca.housekeeping")


class Housekeeping:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name="housekeeping")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def _run(self) -> None:
        every = self.hub.settings.housekeeping_seconds
        # spread out: several processes started together do not all sweep at once
        await asyncio.sleep(every * random.uniform(0.5, 1.0))
        while not self.hub.closing:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("housekeeping failed; trying again later", exc_info=True)
            await asyncio.sleep(every * random.uniform(0.8, 1.2))

    async def sweep(self) -> tuple[int, int]:
        """One pass: the tables given up and the guests purged, challenges past their time
        expired (their tables given up); email links that expired a day ago go too (they could
        not be used anyway)."""
        await friends.expire_due(self.hub)
        done = await self.expire_tables(), await self.purge_guests()
        await self.hub.mail_store.purge_tokens(utcnow() - timedelta(days=1))
        return done

    async def expire_tables(self) -> int:
        hub = self.hub
        cutoff = utcnow() - timedelta(minutes=hub.settings.open_table_minutes)
        done = 0
        for table_id in await hub.store.stale_open_tables(cutoff):
            if hub.closing:
                break
            ref = await hub.tables.ref(table_id)
            if ref is not None and (await ref.send(Expire())).done:
                done += 1
                log.info("open table abandoned: nobody filled it in time",
                         extra={"table": table_id,
                                "minutes": hub.settings.open_table_minutes})
        return done

    async def purge_guests(self) -> int:
        hub = self.hub
        cutoff = utcnow() - timedelta(days=hub.settings.guest_days)
        done = 0
        for user_id in await hub.store.stale_guests(cutoff):
            if hub.closing:
                break
            user = await hub.store.user(user_id)
            if user is None or not user.guest or user.seen_at >= cutoff:
                continue  # used again meanwhile
            if await forget_account(hub, user, only_guest_seen_before=cutoff) is None:
                continue  # another process purged it first
            done += 1
            log.info("unused guest purged", extra={"user_id": user_id, "guest": user.name,
                                                   "days": hub.settings.guest_days})
        return done
