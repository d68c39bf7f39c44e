"""Email's rows: the outbox, the links sent by email (stored hashed), the turn emails sent
and the server's keys, as small async methods (as ``store.py`` does for the rest)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import EmailToken, Outbox, ServerKey, TurnMail, User, utcnow
from ludoteca.server.lease_store import Write
from ludoteca.server.outbox_store import OutboxStore
from ludoteca.server.turn_records import note_told, told_at


class MailStore(OutboxStore[Outbox]):
    """Email's outbox (``OutboxStore``), the links it sends, its turn records and keys."""

    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession]) -> None:
        super().__init__(Outbox, write, sessions)

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
