"""Friends' tables (issue 36), kept out of ``db.py`` so each module stays small: who follows
whom, who blocks whom, and challenges. ``schema.py`` gathers them with the rest for the
migrations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from ludoteca.server.db import Base, UTCDateTime, utcnow


class Follow(Base):
    """``follower_id`` follows ``followed_id`` (one way; friends follow each other)."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    followed_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Block(Base):
    """``blocker_id`` blocks ``blocked_id``: no follow, challenge, chat or casual seat from
    them (docs/protocol.md, "Friends")."""

    __tablename__ = "blocks"

    blocker_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Challenge(Base):
    """A challenge: a table opened by the challenger with a seat kept for the challenged."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True)
    challenged_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``open``, ``accepted``, ``declined``, ``expired`` or ``withdrawn``."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
