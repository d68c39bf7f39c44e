"""The rating pools' writes: taking finished matches' results in, and rebuilding a pool from
them (``pools.py`` holds the rules and the arithmetic; the reads are ``HistoryQueries``')."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import orm, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import PoolRating, Result
from ludoteca.server.pools import Changes, PoolRules, recompute, take_in


class PoolStore:
    def __init__(self, write: Callable[[Callable[[orm.Session], Any]], Awaitable[Any]],
                 sessions: async_sessionmaker[AsyncSession], rules: PoolRules) -> None:
        self._write = write
        self._sessions = sessions
        self.rules = rules
        """Which pools a result counts in (the operator's seasons, the bot ladders)."""

    async def take_in(self, game: str, table_id: str) -> Changes:
        """Count the game's rated results not yet in their pools (this table's and any before
        it), in order; this table's changes per pool (empty: it counts nowhere)."""
        def count(db: orm.Session) -> Changes:
            take_in(db.connection(), self.rules, game)
            found = db.execute(select(Result.changes).where(Result.table_id == table_id))
            return found.scalar_one_or_none() or {}

        changes: Changes = await self._write(count)
        return changes

    async def pools_of(self, game: str) -> list[str]:
        """Every pool the game's results counted in or that holds its ratings."""
        async with self._sessions() as db:
            counted = await db.execute(select(Result.pools).where(
                Result.game == game, Result.rated_at.is_not(None)))
            held = await db.execute(select(PoolRating.pool).where(PoolRating.game == game))
            return sorted({p for pools in counted.scalars() for p in pools or []}
                          | set(held.scalars()))

    async def recompute(self, game: str, pool: str) -> int:
        """Rebuild one pool from the results (``pools.recompute``); the results replayed."""
        replayed: int = await self._write(lambda db: recompute(db.connection(), game, pool))
        return replayed
