"""Web Push's tables (issue 36), kept out of ``db.py`` so each module stays small: the
browsers' subscriptions, the push outbox and the turn pushes sent. ``schema.py`` gathers them
with the rest for the migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.server.db import Base, UTCDateTime, utcnow


class PushSubscription(Base):
    """One browser's Web Push subscription (its push service's endpoint and the keys the
    message is encrypted for); removed when the push service answers 404 or 410."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PushOutbox(Base):
    """A push message to send, as the email ``Outbox``: claimed, sent, retried with backoff.
    ``payload`` is the JSON the service worker shows (already in the player's language)."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    kind: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    next_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class PushTurn(Base):
    """When a player was last pushed about a table's turn (at most one per interval)."""

    __tablename__ = "push_turns"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    mailed_at: Mapped[datetime] = mapped_column(UTCDateTime)
