"""Email's rows: the outbox, the links sent by email (stored hashed), the turn emails sent
and the server's keys, as small async methods (as ``store.py`` does for the rest)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import EmailToken, Outbox, ServerKey, TurnMail, User, utcnow
from ludoteca.server.lease_store import Write
from ludoteca.server.turn_records import note_told, told_at

CLAIM = timedelta(minutes=5)
"""How long a sender's claim on an outbox row lasts: a process that died holding one lets
another send it after this (the one case where a message may go twice: docs/server.md)."""


class MailStore:
    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.write = write
        self.sessions = sessions

    # ---- the outbox ----------------------------------------------------------------------
    async def enqueue(self, user_id: int | None, to: str, subject: str, text: str, html: str,
                      headers: dict[str, str], kind: str, at: datetime | None = None) -> int:
        row = Outbox(user_id=user_id, to_addr=to, subject=subject, text=text, html=html,
                     headers=headers, kind=kind, next_at=at or utcnow(), attempts=0)

        def add(db: orm.Session) -> int:
            db.add(row)
            db.flush()
            return row.id

        return await self.write(add)

    async def due(self, limit: int = 20) -> list[int]:
        now = utcnow()
        async with self.sessions() as db:
            found = await db.execute(
                select(Outbox.id).where(
                    Outbox.sent_at.is_(None), Outbox.failed_at.is_(None), Outbox.next_at <= now,
                    or_(Outbox.claimed_until.is_(None), Outbox.claimed_until < now))
                .order_by(Outbox.id).limit(limit))
            return list(found.scalars())

    async def next_due(self) -> datetime | None:
        async with self.sessions() as db:
            found = await db.execute(
                select(Outbox.next_at).where(Outbox.sent_at.is_(None),
                                             Outbox.failed_at.is_(None))
                .order_by(Outbox.next_at).limit(1))
            return found.scalar_one_or_none()

    async def claim(self, outbox_id: int) -> Outbox | None:
        """Take the row for this sender (one conditional write: two processes cannot both),
        or None if another has it or it went."""
        now = utcnow()

        def take(db: orm.Session) -> Outbox | None:
            changed = db.connection().execute(
                update(Outbox).where(
                    Outbox.id == outbox_id, Outbox.sent_at.is_(None), Outbox.failed_at.is_(None),
                    or_(Outbox.claimed_until.is_(None), Outbox.claimed_until < now))
                .values(claimed_until=now + CLAIM)).rowcount
            return db.get(Outbox, outbox_id) if changed else None

        return await self.write(take)

    async def sent(self, outbox_id: int) -> None:
        await self.write(lambda db: db.execute(
            update(Outbox).where(Outbox.id == outbox_id).values(sent_at=utcnow(),
                                                                claimed_until=None)))

    async def retry(self, outbox_id: int, attempts: int, at: datetime | None,
                    error: str) -> None:
        """A failed attempt: try again ``at``, or never (None)."""
        values: dict[str, Any] = {"attempts": attempts, "claimed_until": None,
                                  "error": error[:2000]}
        if at is None:
            values["failed_at"] = utcnow()
        else:
            values["next_at"] = at
        await self.write(lambda db: db.execute(
            update(Outbox).where(Outbox.id == outbox_id).values(**values)))

    # ---- links sent by email ---------------------------------------------------------------
    async def add_token(self, token_hash: str, kind: str, user_id: int, email: str,
                        lifetime: timedelta) -> None:
        row = EmailToken(token_hash=token_hash, kind=kind, user_id=user_id, email=email,
                         expires_at=utcnow() + lifetime)
        await self.write(lambda db: db.add(row))

    async def use_token(self, token_hash: str, kind: str) -> EmailToken | None:
        """Spend a link: one conditional write, so it works once even when two requests race;
        None if it is unknown, of another kind, used or expired."""
        now = utcnow()

        def spend(db: orm.Session) -> EmailToken | None:
            changed = db.connection().execute(update(EmailToken).where(
                EmailToken.token_hash == token_hash, EmailToken.kind == kind,
                EmailToken.used_at.is_(None), EmailToken.expires_at > now,
            ).values(used_at=now)).rowcount
            return db.get(EmailToken, token_hash) if changed else None

        return await self.write(spend)

    async def drop_tokens(self, user_id: int, kind: str) -> None:
        """The account's other links of ``kind`` stop working (a reset used, a new address)."""
        await self.write(lambda db: db.execute(delete(EmailToken).where(
            EmailToken.user_id == user_id, EmailToken.kind == kind,
            EmailToken.used_at.is_(None))))

    async def purge_tokens(self, before: datetime) -> None:
        await self.write(lambda db: db.execute(
            delete(EmailToken).where(EmailToken.expires_at < before)))

    async def user_by_email(self, email: str) -> User | None:
        async with self.sessions() as db:
            found = await db.execute(select(User).where(
                User.email_key == email.lower(), User.deleted_at.is_(None)))
            return found.scalar_one_or_none()

    # ---- turn emails ---------------------------------------------------------------------
    async def mailed(self, user_id: int, table_ids: list[str]) -> dict[str, datetime]:
        return await told_at(self.sessions, TurnMail, user_id, table_ids)

    async def note_mailed(self, user_id: int, table_ids: list[str], at: datetime) -> None:
        await self.write(note_told(TurnMail, user_id, table_ids, at))

    # ---- keys ------------------------------------------------------------------------------
    async def key(self, name: str, make: Callable[[], str] | None = None) -> str:
        """The server's secret ``name``, made (by ``make``, else 48 random bytes) by whichever
        process asks first."""
        async with self.sessions() as db:
            found = await db.get(ServerKey, name)
            if found is not None:
                return found.value
        value = make() if make is not None else secrets.token_urlsafe(48)
        try:
            await self.write(lambda db: db.add(ServerKey(name=name, value=value)))
        except IntegrityError:  # another process made it first: theirs it is
            return await self.key(name, make)
        return value
