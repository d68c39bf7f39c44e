"""The analyses of finished matches in the store: one row per table, written by the process
making it, part by part (``analysis_jobs.py``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, orm, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.engine.game import JSON
from ludoteca.server.db import Analysis, utcnow
from ludoteca.server.lease_store import Write


class AnalysisStore:
    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.write = write
        self.sessions = sessions

    async def get(self, table_id: str) -> Analysis | None:
        async with self.sessions() as db:
            return await db.get(Analysis, table_id)

    async def start(self, table_id: str, total: int, budget: int, seed: int,
                    user_id: int | None) -> bool:
        """A new analysis, unless the table has one (False: someone asked first)."""
        def add(db: orm.Session) -> bool:
            if db.get(Analysis, table_id) is not None:
                return False
            db.add(Analysis(table_id=table_id, status="running", done=0, total=total,
                            budget=budget, seed=seed, result={"moves": [], "luck": []},
                            requested_by=user_id, updated_at=utcnow()))
            return True

        return await self.write(add)

    async def retry(self, table_id: str) -> bool:
        """Start a failed analysis again from nothing (one conditional write)."""
        statement = (update(Analysis)
                     .where(Analysis.table_id == table_id, Analysis.status == "failed")
                     .values(status="running", done=0, result={"moves": [], "luck": []},
                             updated_at=utcnow()))
        return await self._changed(statement)

    async def claim(self, table_id: str, stale_before: datetime) -> bool:
        """Take over a running analysis nobody has written to since ``stale_before`` (its
        process died): one conditional write, so two processes cannot both take it."""
        statement = (update(Analysis)
                     .where(Analysis.table_id == table_id, Analysis.status == "running",
                            Analysis.updated_at < stale_before)
                     .values(updated_at=utcnow()))
        return await self._changed(statement)

    async def progress(self, table_id: str, done: int, parts: JSON) -> None:
        await self._changed(update(Analysis).where(Analysis.table_id == table_id)
                            .values(done=done, result=parts, updated_at=utcnow()))

    async def finish(self, table_id: str, result: JSON) -> None:
        await self._changed(update(Analysis).where(Analysis.table_id == table_id)
                            .values(status="done", result=result, updated_at=utcnow()))

    async def fail(self, table_id: str, reason: str) -> None:
        await self._changed(update(Analysis).where(Analysis.table_id == table_id)
                            .values(status="failed", result={"error": reason[:500]},
                                    updated_at=utcnow()))

    async def running_for(self, user_id: int) -> int:
        """Analyses the account asked for that are still being made."""
        async with self.sessions() as db:
            found = await db.scalar(select(func.count()).select_from(Analysis).where(
                Analysis.requested_by == user_id, Analysis.status == "running"))
            return int(found or 0)

    async def unfinished(self, stale_before: datetime, limit: int = 100) -> list[str]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Analysis.table_id)
                .where(Analysis.status == "running", Analysis.updated_at < stale_before)
                .limit(limit))
            return list(found.scalars())

    async def _changed(self, statement: Any) -> bool:
        def run(db: orm.Session) -> bool:
            return bool(db.connection().execute(statement).rowcount == 1)

        return await self.write(run)
