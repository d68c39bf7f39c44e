"""The end of a match is an event (DESIGN.md §3): the table's actor emits ``MatchFinished`` once
the last log entry is written, and the ``Finisher`` hands it to its subscribers in the order
they subscribed, before any viewer is told. The hub subscribes today's parts (ratings, the
lobby, turn notices, the players' streams); tournaments and the ladder subscribe theirs.

A subscriber may amend the table's result (the ratings add each seat's change): it writes it,
then returns it, and the subscribers after it, and the table's viewers, see it. A subscriber
that fails is logged, and the others still run."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ludoteca.engine.game import JSON
from ludoteca.server.table.snapshot import SeatSnapshot, TableSnapshot

log = logging.getLogger("ludoteca.table")


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A finished match: the table as the last command left it."""

    snapshot: TableSnapshot

    @property
    def table_id(self) -> str:
        return self.snapshot.id

    @property
    def game(self) -> str:
        return self.snapshot.game

    @property
    def options(self) -> JSON:
        return self.snapshot.options

    @property
    def result(self) -> JSON | None:
        return self.snapshot.result

    @property
    def seats(self) -> tuple[SeatSnapshot, ...]:
        """The participants, by seat: people (``user_id``) and bots (``bot``)."""
        return self.snapshot.seats

    @property
    def finished_at(self) -> datetime | None:
        return self.snapshot.finished_at

    def with_result(self, result: JSON) -> MatchFinished:
        return MatchFinished(dataclasses.replace(self.snapshot, result=result))


Subscriber = Callable[[MatchFinished], Awaitable[JSON | None]]
"""Hears a finished match; returns the table's result if it amended it (and wrote it)."""


class Finisher:
    def __init__(self, subscribers: list[Subscriber] | None = None) -> None:
        self.subscribers: list[Subscriber] = list(subscribers or [])

    def subscribe(self, subscriber: Subscriber) -> None:
        """Hear every finished match, after the subscribers before."""
        self.subscribers.append(subscriber)

    async def finish(self, event: MatchFinished) -> MatchFinished:
        """Run every subscriber in turn; the event as the last one left it."""
        for subscriber in self.subscribers:
            try:
                amended = await subscriber(event)
            except Exception:
                log.exception("table %s: %s failed at the match's end; the others go on",
                              event.table_id, _name(subscriber))
                continue
            if amended is not None:
                event = event.with_result(amended)
        return event


def _name(subscriber: Any) -> str:
    return str(getattr(subscriber, "__qualname__", subscriber))
