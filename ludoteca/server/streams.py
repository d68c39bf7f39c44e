"""The players' and the lobby's server-sent event streams (``GET /api/events``): queues in this
process, and the same notices passed on to the arena's other processes through the bus."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Protocol

from ludoteca.engine.game import JSON
from ludoteca.server.db import utcnow
from ludoteca.server.presence import Presence, online
from ludoteca.server.protocol import LobbyEvent, SignedOutEvent, StreamEvent
from ludoteca.server.table.snapshot import TableSnapshot

QUEUE = 256


class StreamBus(Protocol):
    """What the streams tell the other processes (``cluster.Cluster``)."""

    def user(self, user_id: int, data: JSON) -> None: ...

    def lobby(self, text: str) -> None: ...


class Streams:
    def __init__(self, presence: Presence | None = None) -> None:
        self.queues: dict[int | None, set[asyncio.Queue[str]]] = {}
        """``None`` holds anonymous lobby watchers."""
        self.bus: StreamBus | None = None
        self.presence = presence or Presence()
        """A signed-in person's open stream is their page of the arena: they are online."""

    def subscribe(self, user_id: int | None) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE)
        self.queues.setdefault(user_id, set()).add(queue)
        if user_id is not None:
            self.presence.enter(online(user_id))
        return queue

    def unsubscribe(self, user_id: int | None, queue: asyncio.Queue[str]) -> None:
        found = self.queues.get(user_id)
        if found is not None and queue in found:
            found.discard(queue)
            if not found:
                del self.queues[user_id]
            if user_id is not None:
                self.presence.leave(online(user_id))

    def publish(self, user_id: int, event: StreamEvent) -> None:
        """Tell a player's streams, in every process."""
        data = event.to_wire()
        self.deliver(user_id, json.dumps(data))
        if self.bus is not None:
            self.bus.user(user_id, data)

    def deliver(self, user_id: int, text: str) -> None:
        """Tell a player's streams in this process (the bus calls this for the others)."""
        for queue in self.queues.get(user_id, ()):
            _put(queue, text)

    def lobby_changed(self, snapshot: TableSnapshot) -> None:
        if snapshot.private:
            return
        text = LobbyEvent(snapshot.summary(utcnow())).text()
        self.deliver_all(text)
        if self.bus is not None:
            self.bus.lobby(text)

    def everyone(self, event: StreamEvent) -> None:
        """Tell every stream, in every process (a public tournament changed)."""
        text = event.text()
        self.deliver_all(text)
        if self.bus is not None:
            self.bus.lobby(text)

    def signed_out(self, user_id: int) -> None:
        """The person's sessions ended (a new password, signed out elsewhere, deleted): their
        streams in this process end; a browser whose session lives on opens its stream again."""
        self.deliver(user_id, SignedOutEvent().text())

    def deliver_all(self, text: str) -> None:
        for queues in self.queues.values():
            for queue in queues:
                _put(queue, text)


def _put(queue: asyncio.Queue[str], text: str) -> None:
    """A stream that falls far behind loses notices, never holds up the server."""
    with contextlib.suppress(asyncio.QueueFull):
        queue.put_nowait(text)
