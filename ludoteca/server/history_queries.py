"""The store's reads of finished matches, players' pages, ratings and quotas (``Store``
inherits them; kept apart so each module stays one screenful of concerns). Every write is
``Store``'s, through its one writer."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import Rating, Seat, Table, User


class HistoryQueries:
    sessions: async_sessionmaker[AsyncSession]

    async def history(self, user_id: int, limit: int = 100, private: bool = False
                      ) -> list[tuple[Table, int]]:
        """The user's finished tables, newest first, each with the seat they had; private
        tables only with ``private`` (the player's own view of their page)."""
        query = (select(Table, Seat.seat).join(Seat, Seat.table_id == Table.id)
                 .where(Seat.user_id == user_id, Table.status == "finished"))
        if not private:
            query = query.where(Table.private.is_(False))
        async with self.sessions() as db:
            found = await db.execute(
                query.order_by(Table.finished_at.desc()).limit(limit))
            return [(table, seat) for table, seat in found.tuples()]

    async def playing(self, user_id: int) -> list[Table]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Table).join(Seat, Seat.table_id == Table.id)
                .where(Seat.user_id == user_id, or_(
                    Table.status == "playing", Table.status == "open"))
                .order_by(Table.created_at.desc())
            )
            return list(found.scalars())

    async def ratings(self, user_ids: Sequence[int], game: str) -> dict[int, Rating]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Rating).where(Rating.user_id.in_(set(user_ids)), Rating.game == game)
            )
            return {r.user_id: r for r in found.scalars()}

    async def user_ratings(self, user_id: int) -> list[Rating]:
        async with self.sessions() as db:
            found = await db.execute(select(Rating).where(Rating.user_id == user_id))
            return list(found.scalars())

    async def leaderboard(self, game: str, limit: int = 100) -> list[tuple[Rating, User]]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Rating, User).join(User, User.id == Rating.user_id)
                .where(Rating.game == game)
                .order_by((Rating.mu - 3 * Rating.sigma).desc()).limit(limit)
            )
            return [(r, u) for r, u in found.tuples()]

    async def hosted(self, user_id: int, levels: Sequence[str]) -> tuple[int, int]:
        """The open and running tables the account hosts, and their bot seats at ``levels``
        (its quota: account_limits.py)."""
        live = (Table.host_id == user_id, Table.status.in_(("open", "playing")))
        async with self.sessions() as db:
            tables = await db.scalar(select(func.count()).select_from(Table).where(*live))
            bots = await db.scalar(
                select(func.count()).select_from(Seat).join(Table, Seat.table_id == Table.id)
                .where(*live, Seat.bot.in_(list(levels))))
            return int(tables or 0), int(bots or 0)

    async def counts(self) -> dict[str, int]:
        async with self.sessions() as db:
            found = await db.execute(select(Table.status, func.count()).group_by(Table.status))
            return {status: int(n) for status, n in found.tuples()}
