"""The one sender loop behind email and Web Push: each process runs one task per outbox that
claims due rows, hands each to its ``deliver`` and sleeps until woken (a row was enqueued here)
or until the next row falls due (a retry, quiet hours' end, another process's row).

The wake flag is cleared *before* a round reads the outbox, never after: a row enqueued while
the round is reading (or while it asks when the next one is due) sets the flag again, so the
loop goes round once more at once instead of sleeping ``IDLE`` seconds with a row waiting."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Generic, Protocol, TypeVar

from ludoteca.server.db import utcnow

Row = TypeVar("Row")
Row_co = TypeVar("Row_co", covariant=True)

IDLE = 30.0
"""Seconds between looks at the outbox when nobody wakes the sender (another process's
rows, retries that came due)."""


class OutboxRows(Protocol[Row_co]):
    async def due(self, limit: int = 20) -> list[int]: ...

    async def next_due(self) -> datetime | None: ...

    async def claim(self, outbox_id: int) -> Row_co | None: ...


class OutboxLoop(Generic[Row]):
    def __init__(self, rows: OutboxRows[Row], deliver: Callable[[Row], Awaitable[None]],
                 log: logging.Logger, idle: float = IDLE) -> None:
        self.rows = rows
        self.deliver = deliver
        self.log = log
        self.idle = idle
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.round()
                wait = self.idle
                next_at = await self.rows.next_due()
                if next_at is not None:
                    wait = min(self.idle, max(0.0, (next_at - utcnow()).total_seconds()))
            except asyncio.CancelledError:
                raise
            except Exception:
                self.log.exception("the outbox could not be read")
                wait = self.idle
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    async def round(self) -> None:
        while due := await self.rows.due():
            for outbox_id in due:
                row = await self.rows.claim(outbox_id)
                if row is not None:
                    await self.deliver(row)
