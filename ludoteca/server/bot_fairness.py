"""Whose bot moves the pool works on next (issue 23): round-robin over the accounts that own
the tables, not first come, first served.

The process pool's own queue is FIFO, so one account's twenty tables of search bots, each
asking for a 1.5 s move as soon as the last one is played, kept every other table's bot
waiting behind all of theirs. Here a move waits for a free process in its owner's line, and a
freed process goes to the next account in turn: another table's bot waits for at most the
moves already running, however many the busy account has queued.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Hashable


class FairQueue:
    """``slots`` moves run at once; waiting moves are served one account at a time, in turn."""

    def __init__(self, slots: int) -> None:
        self.free = slots
        self.lines: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()

    async def acquire(self, owner: Hashable) -> None:
        """Wait for a slot for a move of ``owner``'s (pair with ``release``)."""
        if self.free > 0 and not self.lines:
            self.free -= 1
            return
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.lines.setdefault(owner, deque()).append(ticket)
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self.release()  # it was handed a slot just as it was cancelled
            else:
                self._drop(owner, ticket)
            raise

    def release(self) -> None:
        """A move finished: its slot goes to the first waiting move of the next account."""
        while self.lines:
            owner, line = next(iter(self.lines.items()))
            ticket = line.popleft()
            if line:
                self.lines.move_to_end(owner)  # its next move waits for the others' turns
            else:
                del self.lines[owner]
            if not ticket.done():
                ticket.set_result(None)
                return
        self.free += 1

    def waiting(self) -> int:
        return sum(len(line) for line in self.lines.values())

    def _drop(self, owner: Hashable, ticket: asyncio.Future[None]) -> None:
        line = self.lines.get(owner)
        if line is not None and ticket in line:
            line.remove(ticket)
            if not line:
                del self.lines[owner]
