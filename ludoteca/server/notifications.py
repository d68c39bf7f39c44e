"""Turn notices of turn-based tables: a player whose decision began hears it on their stream
and, if they set one, at their webhook (a public address: checked when it was set)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx

from ludoteca.engine.game import JSON
from ludoteca.server.streams import Streams
from ludoteca.server.table.core import TableCore

log = logging.getLogger("ludoteca.hub")


class TurnNotices:
    def __init__(self, streams: Streams, webhook_timeout: float) -> None:
        self.streams = streams
        self.timeout = webhook_timeout
        self.notified: dict[tuple[str, int], int] = {}
        """(table, seat) -> the ``seq`` of the decision last told, so each is told once."""
        self.http: httpx.AsyncClient | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def turns(self, core: TableCore) -> None:
        if core.table.mode != "turn":
            return
        for seat, since in core.decisions().items():
            row = core.seats[seat]
            if row.user_id is None or core.is_bot(seat):
                continue
            key = (core.table.id, seat)
            if self.notified.get(key) == since:
                continue
            self.notified[key] = since
            data = {"type": "turn", "table": core.table.id, "game": core.table.game,
                    "seq": since}
            self.streams.publish(row.user_id, data)
            user = core.users.get(row.user_id)
            if user is not None and user.webhook_url:
                task = asyncio.create_task(self._webhook(user.webhook_url, data))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    def forget(self, table_id: str, seats: int) -> None:
        for seat in range(seats):
            self.notified.pop((table_id, seat), None)

    async def _webhook(self, url: str, data: JSON) -> None:
        if self.http is None:
            self.http = httpx.AsyncClient(timeout=self.timeout)
        try:
            await self.http.post(url, json=data)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            log.info("webhook %s failed: %s", url, exc)

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        if self.http is not None:
            await self.http.aclose()
