"""Turn notices of turn-based tables: a player whose decision began hears it on their stream
and, if they set one, at their webhook: a public address, checked when it was set and again
at each delivery, which connects to the address just checked (``webhook_targets.py``) and
gives up after the webhook timeout, all told."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import httpx

from ludoteca.engine.game import JSON
from ludoteca.server.errors import ServerError
from ludoteca.server.protocol import TurnEvent, TurnOverEvent
from ludoteca.server.streams import Streams
from ludoteca.server.table.snapshot import TableSnapshot
from ludoteca.server.webhook_targets import WebhookTargets

log = logging.getLogger("ludoteca.hub")


class TurnNotices:
    def __init__(self, streams: Streams, webhook_timeout: float,
                 targets: WebhookTargets | None = None) -> None:
        self.streams = streams
        self.timeout = webhook_timeout
        self.targets = targets or WebhookTargets()
        self.notified: dict[tuple[str, int], int] = {}
        """(table, seat) -> the ``seq`` of the decision last told, so each is told once."""
        self.told: dict[tuple[str, int], int] = {}
        """(table, seat) -> the person told of the seat's pending decision (until it ends)."""
        self.http: httpx.AsyncClient | None = None
        self._background: set[asyncio.Task[Any]] = set()

    def turns(self, table: TableSnapshot, webhooks: Mapping[int, str]) -> None:
        """Tell each person whose decision began (at their ``webhooks`` too, by user id)."""
        if table.mode != "turn":
            return
        decisions = table.decisions
        self._turns_over(table, decisions)
        for seat, since in decisions.items():
            row = table.seats[seat]
            if row.user_id is None or row.is_bot:
                continue
            key = (table.id, seat)
            if self.notified.get(key) == since:
                continue
            self.notified[key] = since
            self.told[key] = row.user_id
            event = TurnEvent(table.id, table.game, since)
            self.streams.publish(row.user_id, event)
            webhook = webhooks.get(row.user_id)
            if webhook:
                task = asyncio.create_task(self._webhook(webhook, event.to_wire()))
                self._background.add(task)
                task.add_done_callback(self._background.discard)

    def _turns_over(self, table: TableSnapshot, decisions: Mapping[int, int]) -> None:
        """A decision told of ended (answered, taken back by another's undo, or taken over
        by a bot): its player hears ``turn_over``, so a count of tables waiting for them
        drops at once (the header's badge)."""
        for seat in range(table.players):
            key = (table.id, seat)
            user_id = self.told.get(key)
            if user_id is None:
                continue
            row = table.seats[seat]
            if seat in decisions and not row.is_bot and row.user_id == user_id:
                continue
            del self.told[key]
            self.notified.pop(key, None)
            self.streams.publish(user_id, TurnOverEvent(table.id))

    def forget(self, table_id: str, seats: int) -> None:
        for seat in range(seats):
            self.notified.pop((table_id, seat), None)
            self.told.pop((table_id, seat), None)

    async def _webhook(self, url: str, data: JSON) -> None:
        try:
            await asyncio.wait_for(self._deliver(url, data), self.timeout)
        except ServerError as exc:
            log.warning("webhook %s refused: %s", url, exc, extra={"url": url})
        except (TimeoutError, httpx.HTTPError, httpx.InvalidURL) as exc:
            log.info("webhook %s failed: %s", url, repr(exc), extra={"url": url})

    async def _deliver(self, url: str, data: JSON) -> None:
        """Resolve and check the host again (it may point elsewhere since it was set), then
        connect to the checked address itself, naming the host in ``Host`` and TLS's SNI."""
        target, address = await self.targets.check(url)
        if self.http is None:
            self.http = httpx.AsyncClient(timeout=self.timeout)
        literal = f"[{address}]" if address.version == 6 else str(address)
        default = 443 if target.scheme == "https" else 80
        host = target.host if ":" not in target.host else f"[{target.host}]"
        await self.http.post(
            f"{target.scheme}://{literal}:{target.port}{target.path}", json=data,
            headers={"host": host if target.port == default else f"{host}:{target.port}"},
            extensions={"sni_hostname": target.host} if target.scheme == "https" else None,
        )

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        if self.http is not None:
            await self.http.aclose()
