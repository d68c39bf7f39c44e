"""One open table tab, as the table's actor sees it: who is watching, in which language, and an
outbox the actor fills without waiting (a slow client never holds up a table; one that falls
far behind gets a fresh full message instead of the backlog)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

OUTBOX = 256
RESYNC = "\x00resync"
"""In an outbox: send a fresh ``full`` message instead of what was dropped."""
CLOSE = "\x00close"
"""In an outbox: close the socket (the server is stopping)."""


@dataclass(eq=False)
class Connection:
    user_id: int | None
    lang: str
    seat: int | None = None
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(OUTBOX))

    def send(self, text: str) -> None:
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(RESYNC)
