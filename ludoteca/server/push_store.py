"""Web Push's rows: the browsers' subscriptions, the push outbox (claimed, sent and retried as
the email outbox is: ``mail_store``) and the turn pushes sent, as small async methods."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, orm, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import utcnow
from ludoteca.server.lease_store import Write
from ludoteca.server.outbox_store import OutboxStore
from ludoteca.server.push_rows import PushOutbox, PushSubscription, PushTurn
from ludoteca.server.turn_records import note_told, told_at

DEVICES = 10
"""Subscriptions one account keeps: a new one past this replaces the oldest."""


class PushStore(OutboxStore[PushOutbox]):
    """Push subscriptions, push's outbox (``OutboxStore``) and its turn records."""

    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession]) -> None:
        super().__init__(PushOutbox, write, sessions)

    # ---- subscriptions ---------------------------------------------------------------------
    async def subscribe(self, user_id: int, endpoint: str, p256dh: str, auth: str,
                        label: str) -> PushSubscription:
        """The browser's subscription, the account's: an endpoint already known (this browser
        subscribed before, perhaps signed in as someone else) moves to this account."""
        def add(db: orm.Session) -> PushSubscription:
            db.execute(delete(PushSubscription).where(PushSubscription.endpoint == endpoint))
            mine = list(db.execute(select(PushSubscription.id).where(
                PushSubscription.user_id == user_id).order_by(PushSubscription.id)).scalars())
            if len(mine) >= DEVICES:
                db.execute(delete(PushSubscription).where(
                    PushSubscription.id.in_(mine[:len(mine) - DEVICES + 1])))
            row = PushSubscription(user_id=user_id, endpoint=endpoint, p256dh=p256dh,
                                   auth=auth, label=label, created_at=utcnow())
            db.add(row)
            db.flush()
            return row

        return await self.write(add)

    async def devices(self, user_id: int) -> list[PushSubscription]:
        async with self.sessions() as db:
            found = await db.execute(select(PushSubscription).where(
                PushSubscription.user_id == user_id).order_by(PushSubscription.id))
            return list(found.scalars())

    async def any(self, user_id: int) -> bool:
        """Whether the player has a browser to push to (most have none: no more work then)."""
        async with self.sessions() as db:
            found = await db.execute(select(PushSubscription.id).where(
                PushSubscription.user_id == user_id).limit(1))
            return found.first() is not None

    async def remove(self, subscription_id: int, user_id: int | None = None) -> bool:
        """Forget a subscription (``user_id``: only if it is theirs); whether one went."""
        def drop(db: orm.Session) -> bool:
            query = delete(PushSubscription).where(PushSubscription.id == subscription_id)
            if user_id is not None:
                query = query.where(PushSubscription.user_id == user_id)
            return bool(db.connection().execute(query).rowcount)

        return await self.write(drop)

    async def forget(self, user_id: int) -> None:
        """Every subscription of a deleted account."""
        await self.write(lambda db: db.execute(delete(PushSubscription).where(
            PushSubscription.user_id == user_id)))

    async def subscription(self, subscription_id: int) -> PushSubscription | None:
        async with self.sessions() as db:
            return await db.get(PushSubscription, subscription_id)

    # ---- the outbox ------------------------------------------------------------------------
    async def enqueue(self, user_id: int, payload: dict[str, Any], kind: str,
                      at: datetime | None = None) -> int:
        """One row per subscription of the player's; how many."""
        def add(db: orm.Session) -> int:
            ids = list(db.execute(select(PushSubscription.id).where(
                PushSubscription.user_id == user_id)).scalars())
            for sub in ids:
                db.add(PushOutbox(subscription_id=sub, payload=payload, kind=kind,
                                  next_at=at or utcnow(), attempts=0, created_at=utcnow()))
            return len(ids)

        return await self.write(add)

    # ---- turn pushes (the interval, as ``MailStore.mailed``) -------------------------------
    async def mailed(self, user_id: int, table_ids: list[str]) -> dict[str, datetime]:
        return await told_at(self.sessions, PushTurn, user_id, table_ids)

    async def note_mailed(self, user_id: int, table_ids: list[str], at: datetime) -> None:
        await self.write(note_told(PushTurn, user_id, table_ids, at))
