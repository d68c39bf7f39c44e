"""The store's reads of finished matches, players' pages, ratings, quotas and housekeeping
(``Store`` inherits them; kept apart so each module stays one screenful of concerns). Every write is
``Store``'s, through its one writer."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import PoolRating, Seat, Table, User


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

    async def user_ratings(self, user_id: int) -> list[PoolRating]:
        """The person's ratings in every game and pool."""
        async with self.sessions() as db:
            found = await db.execute(select(PoolRating).where(PoolRating.user_id == user_id)
                                     .order_by(PoolRating.game, PoolRating.pool))
            return list(found.scalars())

    async def leaderboard(self, game: str, pool: str, limit: int = 100
                          ) -> list[tuple[PoolRating, User]]:
        """The pool's people, surest strongest first (``mu - 3 sigma``)."""
        async with self.sessions() as db:
            found = await db.execute(
                select(PoolRating, User).join(User, User.id == PoolRating.user_id)
                .where(PoolRating.game == game, PoolRating.pool == pool)
                .order_by((PoolRating.mu - 3 * PoolRating.sigma).desc(), User.name_key)
                .limit(limit)
            )
            return [(r, u) for r, u in found.tuples()]

    async def season_pools(self, game: str) -> list[str]:
        """The game's season pools that have standings."""
        async with self.sessions() as db:
            found = await db.execute(
                select(PoolRating.pool).where(PoolRating.game == game,
                                              PoolRating.pool.startswith("season:"))
                .distinct())
            return list(found.scalars())

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

    async def stale_guests(self, before: datetime, limit: int = 200) -> list[int]:
        async with self.sessions() as db:
            found = await db.execute(select(User.id).where(
                User.guest.is_(True), User.deleted_at.is_(None), User.seen_at < before,
            ).limit(limit))
            return list(found.scalars())

    async def stale_open_tables(self, before: datetime, limit: int = 200) -> list[str]:
        async with self.sessions() as db:
            found = await db.execute(select(Table.id).where(
                Table.status == "open", Table.created_at < before).limit(limit))
            return list(found.scalars())
