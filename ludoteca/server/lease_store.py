"""Which process runs each live table's clocks and bots (several processes, docs/deploy.md):
a lease row per table, taken and renewed with conditional writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, Protocol, TypeVar

from sqlalchemy import delete, func, insert, or_, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import Lease, Table, utcnow

T = TypeVar("T")


class Write(Protocol):
    """``Store.write``: run a change in one write transaction."""

    def __call__(self, change: Callable[[orm.Session], T], /) -> Awaitable[T]: ...


class LeaseStore:
    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession],
                 postgres: bool) -> None:
        self.write = write
        self.sessions = sessions
        self.postgres = postgres

    async def claim(self, table_id: str, owner: str, seconds: float) -> bool:
        """Take the table's lease (free, expired or already ours) until ``seconds`` from now;
        True if ``owner`` holds it now. One conditional write: two processes asking at once
        cannot both get it."""
        now = self._now()
        until = now + timedelta(seconds=seconds)

        def take(db: orm.Session) -> bool:
            conn = db.connection()
            done = conn.execute(
                update(Lease).where(
                    Lease.table_id == table_id,
                    or_(Lease.owner == owner, Lease.expires_at < now),
                ).values(owner=owner, expires_at=until)
            )
            if done.rowcount == 1:
                return True
            held = conn.execute(select(Lease.owner).where(Lease.table_id == table_id)).first()
            if held is not None:
                return False
            conn.execute(insert(Lease).values(table_id=table_id, owner=owner, expires_at=until))
            return True

        try:
            return await self.write(take)
        except IntegrityError:  # another process inserted it first
            return False

    async def renew(self, owner: str, table_ids: Sequence[str], seconds: float) -> set[str]:
        """Renew the leases of ``table_ids`` that ``owner`` still holds; those tables."""
        until = self._now() + timedelta(seconds=seconds)
        ids = list(table_ids)

        def extend(db: orm.Session) -> set[str]:
            conn = db.connection()
            mine = (Lease.owner == owner, Lease.table_id.in_(ids))
            conn.execute(update(Lease).where(*mine).values(expires_at=until))
            return set(conn.execute(select(Lease.table_id).where(*mine)).scalars())

        if not ids:
            return set()

        return await self.write(extend)

    async def release(self, owner: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``owner``'s leases (those of ``table_ids``, or all of them)."""
        statement = delete(Lease).where(Lease.owner == owner)
        if table_ids is not None:
            statement = statement.where(Lease.table_id.in_(list(table_ids)))
        await self.write(lambda db: db.execute(statement))

    def _now(self) -> Any:
        """Now, by the database's clock where it has one (PostgreSQL): the processes'
        machines need not agree to the second for leases to be exclusive."""
        if self.postgres:
            return func.now()
        return utcnow()

    async def orphans(self, limit: int = 100) -> list[str]:
        """Tables being played whose lease is missing or expired: nobody runs their clocks."""
        async with self.sessions() as db:
            found = await db.execute(
                select(Table.id).outerjoin(Lease, Lease.table_id == Table.id).where(
                    Table.status == "playing",
                    or_(Lease.table_id.is_(None), Lease.expires_at < self._now()),
                ).limit(limit)
            )
            return list(found.scalars())
