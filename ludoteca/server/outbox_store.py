"""The queries of a durable outbox (email's ``outbox``, push's ``push_outbox``): which rows are
due, when the next one is, a sender's claim on one, and its outcome. Each row is sent by one
process at a time (``claim`` is one conditional write) and retried on the senders' schedule
(``outbox_loop.py``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from sqlalchemy import or_, orm, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import utcnow
from ludoteca.server.lease_store import Write

CLAIM = timedelta(minutes=5)
"""How long a sender's claim on an outbox row lasts: a process that died holding one lets
another send it after this (the one case where a message may go twice: docs/server.md)."""

R = TypeVar("R")


class OutboxStore(Generic[R]):
    """The outbox queries over ``model`` (a mapped class with ``id``, ``next_at``,
    ``claimed_until``, ``sent_at``, ``failed_at``, ``attempts`` and ``error``)."""

    def __init__(self, model: type[R], write: Write,
                 sessions: async_sessionmaker[AsyncSession]) -> None:
        self._model: Any = model
        self.write = write
        self.sessions = sessions

    async def due(self, limit: int = 20) -> list[int]:
        m, now = self._model, utcnow()
        async with self.sessions() as db:
            found = await db.execute(
                select(m.id).where(
                    m.sent_at.is_(None), m.failed_at.is_(None), m.next_at <= now,
                    or_(m.claimed_until.is_(None), m.claimed_until < now))
                .order_by(m.id).limit(limit))
            return list(found.scalars())

    async def next_due(self) -> datetime | None:
        m = self._model
        async with self.sessions() as db:
            found = await db.execute(
                select(m.next_at).where(m.sent_at.is_(None), m.failed_at.is_(None))
                .order_by(m.next_at).limit(1))
            at: datetime | None = found.scalar_one_or_none()
            return at

    async def claim(self, outbox_id: int) -> R | None:
        """Take the row for this sender (one conditional write: two processes cannot both),
        or None if another has it or it went."""
        m, now = self._model, utcnow()

        def take(db: orm.Session) -> R | None:
            changed = db.connection().execute(
                update(m).where(
                    m.id == outbox_id, m.sent_at.is_(None), m.failed_at.is_(None),
                    or_(m.claimed_until.is_(None), m.claimed_until < now))
                .values(claimed_until=now + CLAIM)).rowcount
            row: R | None = db.get(m, outbox_id) if changed else None
            return row

        return await self.write(take)

    async def sent(self, outbox_id: int) -> None:
        m = self._model
        await self.write(lambda db: db.execute(
            update(m).where(m.id == outbox_id).values(sent_at=utcnow(), claimed_until=None)))

    async def retry(self, outbox_id: int, attempts: int, at: datetime | None,
                    error: str) -> None:
        """A failed attempt: try again ``at``, or never (None)."""
        m = self._model
        values: dict[str, Any] = {"attempts": attempts, "claimed_until": None,
                                  "error": error[:2000]}
        if at is None:
            values["failed_at"] = utcnow()
        else:
            values["next_at"] = at
        await self.write(lambda db: db.execute(
            update(m).where(m.id == outbox_id).values(**values)))
