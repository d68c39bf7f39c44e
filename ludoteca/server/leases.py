"""Which process runs each live table's clocks and bots, when several serve one arena: a
lease row per table (``lease_store.py``) names its owner until an expiry the owner renews every
third of the lease. A process that finds a table being played with no live lease takes it (one
conditional write), so a dead owner's tables move on within about a lease."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from ludoteca.server.live_tables import LiveTables
from ludoteca.server.store import Store

log = logging.getLogger("ludoteca.cluster")


class LeasesHost(Protocol):
    store: Store
    tables: LiveTables
    closing: bool


class Leases:
    def __init__(self, host: LeasesHost, owner: str, seconds: float) -> None:
        self.host = host
        self.owner = owner
        self.seconds = seconds

    async def claim(self, table_id: str) -> bool:
        try:
            return await self.host.store.leases.claim(table_id, self.owner, self.seconds)
        except Exception:
            log.warning("table %s: the lease could not be claimed", table_id, exc_info=True)
            return False

    async def release(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self.host.store.leases.release(self.owner, [table_id])

    async def keep(self) -> None:
        """Keep the leases, every third of their length, until cancelled."""
        while True:
            try:
                await self.keep_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("leases could not be renewed", exc_info=True)
            await asyncio.sleep(self.seconds / 3)

    async def keep_once(self) -> None:
        """Renew ours (and let go of tables another process took), then take over tables
        being played that nobody holds."""
        store, hub = self.host.store, self.host
        mine = {r.table_id: r for r in hub.tables.refs.values() if r.owned and not r.stopping}
        held = await store.leases.renew(self.owner, list(mine), self.seconds)
        for table_id, ref in mine.items():
            ref.set_owned(table_id in held)
        # a lease of ours with no table in memory (its loading failed) is not renewed: it
        # lapses, and the next look finds the table here
        for table_id in await store.leases.orphans():
            if hub.closing or not await self.claim(table_id):
                continue
            log.info("table %s: taken over (its lease had lapsed)", table_id)
            try:
                found = await hub.tables.ref(table_id)
            except Exception:
                await self.release(table_id)
                raise
            if found is not None:
                found.set_owned(True)
