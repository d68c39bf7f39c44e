"""The sender loop behind email and push (``outbox_loop``): a row enqueued while a round is
reading the outbox is sent at once, not after the idle wait (a lost wake-up once held a
confirmation email back 30 s under load)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from ludoteca.server.outbox_loop import OutboxLoop


class Rows:
    """An outbox in memory whose ``next_due`` reads a snapshot taken before a row arrives
    that the caller enqueues (and wakes the loop for) while that read is under way."""

    def __init__(self) -> None:
        self.waiting: list[int] = []
        self.arrive_during_read: list[OutboxLoop[int]] = []

    async def due(self, limit: int = 20) -> list[int]:
        return list(self.waiting[:limit])

    async def next_due(self) -> datetime | None:
        snapshot = list(self.waiting)
        if self.arrive_during_read:
            loop = self.arrive_during_read.pop()
            self.waiting.append(7)
            loop.wake()
        await asyncio.sleep(0)
        return None if not snapshot else datetime.now()

    async def claim(self, outbox_id: int) -> int | None:
        if outbox_id in self.waiting:
            self.waiting.remove(outbox_id)
            return outbox_id
        return None


async def sent_within(seconds: float) -> list[int]:
    rows = Rows()
    sent: list[int] = []
    delivered = asyncio.Event()

    async def deliver(row: int) -> None:
        sent.append(row)
        delivered.set()

    loop: OutboxLoop[int] = OutboxLoop(rows, deliver, logging.getLogger("test"), idle=30.0)
    rows.arrive_during_read.append(loop)
    loop.start()
    try:
        await asyncio.wait_for(delivered.wait(), seconds)
    except TimeoutError:
        pass
    finally:
        await loop.stop()
    return sent


def test_a_row_enqueued_while_the_outbox_is_read_goes_out_at_once() -> None:
    assert asyncio.run(sent_within(2.0)) == [7]


def test_a_claimed_row_is_delivered_once() -> None:
    async def go() -> list[int]:
        rows = Rows()
        rows.waiting = [1, 2]
        sent: list[int] = []

        async def deliver(row: int) -> None:
            sent.append(row)

        loop: OutboxLoop[int] = OutboxLoop(rows, deliver, logging.getLogger("test"), idle=0.05)
        loop.start()
        await asyncio.sleep(0.3)
        await loop.stop()
        return sent

    assert asyncio.run(go()) == [1, 2]
