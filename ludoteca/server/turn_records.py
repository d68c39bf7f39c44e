"""When each table's turn was last told to a player on one channel: the email channel's
``TurnMail`` rows and Web Push's ``PushTurn`` rows have the same shape (user, table, when), and
their reads and writes are these two, given the row's model."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import orm, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker


async def told_at(sessions: async_sessionmaker[AsyncSession], model: Any, user_id: int,
                  table_ids: list[str]) -> dict[str, datetime]:
    """The tables among ``table_ids`` already told to the player, with when."""
    if not table_ids:
        return {}
    async with sessions() as db:
        found = await db.execute(select(model.table_id, model.mailed_at).where(
            model.user_id == user_id, model.table_id.in_(table_ids)))
        return {t: at for t, at in found.all()}


def note_told(model: Any, user_id: int, table_ids: list[str], at: datetime
              ) -> Callable[[orm.Session], None]:
    """The write that records ``table_ids`` told to the player at ``at``."""
    def note(db: orm.Session) -> None:
        for table_id in table_ids:
            row = db.get(model, (user_id, table_id))
            if row is None:
                db.add(model(user_id=user_id, table_id=table_id, mailed_at=at))
            else:
                row.mailed_at = at

    return note
