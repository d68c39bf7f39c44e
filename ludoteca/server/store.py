"""Every read and write of the arena's database, as small async methods.

The routes and table actors call these and never build queries themselves, so the data's
shape lives in one place (``db.py``) and its uses in this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ludoteca.server.db import Chat, Move, Rating, Seat, Session, Table, User, make_engine, utcnow


class Conflict(Exception):
    """A write lost a race (a taken name, a log place already filled)."""


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = make_engine(url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def close(self) -> None:
        await self.engine.dispose()

    async def ping(self) -> None:
        async with self.sessions() as db:
            await db.execute(select(1))

    # ---- users and sessions ----------------------------------------------------------------
    async def add_user(
        self, name: str, password_hash: str | None, guest: bool, language: str
    ) -> User:
        user = User(
            name=name, name_key=name.lower(), display_name=name, password_hash=password_hash,
            guest=guest, language=language,
        )
        try:
            async with self.sessions() as db, db.begin():
                db.add(user)
        except IntegrityError:
            raise Conflict(name) from None
        return user

    async def user(self, user_id: int) -> User | None:
        async with self.sessions() as db:
            return await db.get(User, user_id)

    async def user_named(self, name: str) -> User | None:
        async with self.sessions() as db:
            found = await db.execute(select(User).where(User.name_key == name.strip().lower()))
            return found.scalar_one_or_none()

    async def users(self, ids: Sequence[int]) -> dict[int, User]:
        if not ids:
            return {}
        async with self.sessions() as db:
            found = await db.execute(select(User).where(User.id.in_(set(ids))))
            return {u.id: u for u in found.scalars()}

    async def update_user(self, user_id: int, **values: Any) -> User:
        try:
            async with self.sessions() as db, db.begin():
                user = await db.get(User, user_id)
                assert user is not None
                for key, value in values.items():
                    setattr(user, key, value)
        except IntegrityError:
            raise Conflict(str(values.get("name", ""))) from None
        return user

    async def add_session(self, token_hash: str, user_id: int, days: int) -> None:
        async with self.sessions() as db, db.begin():
            db.add(Session(
                token_hash=token_hash, user_id=user_id, expires_at=utcnow() + timedelta(days=days)
            ))

    async def session_user(self, token_hash: str) -> User | None:
        async with self.sessions() as db:
            found = await db.execute(
                select(User).join(Session, Session.user_id == User.id).where(
                    Session.token_hash == token_hash, Session.expires_at > utcnow()
                )
            )
            return found.scalar_one_or_none()

    async def drop_session(self, token_hash: str) -> None:
        async with self.sessions() as db, db.begin():
            await db.execute(delete(Session).where(Session.token_hash == token_hash))

    # ---- tables ----------------------------------------------------------------------------
    async def add_table(self, table: Table, seats: list[Seat]) -> None:
        async with self.sessions() as db, db.begin():
            db.add(table)
            await db.flush()
            db.add_all(seats)

    async def table(self, table_id: str) -> tuple[Table, list[Seat]] | None:
        async with self.sessions() as db:
            table = await db.get(Table, table_id)
            if table is None:
                return None
            seats = await db.execute(
                select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat)
            )
            return table, list(seats.scalars())

    async def tables(self, statuses: Sequence[str], limit: int = 200) -> list[Table]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Table).where(Table.status.in_(statuses), Table.private.is_(False))
                .order_by(Table.created_at.desc()).limit(limit)
            )
            return list(found.scalars())

    async def table_ids(self, statuses: Sequence[str]) -> list[str]:
        async with self.sessions() as db:
            found = await db.execute(select(Table.id).where(Table.status.in_(statuses)))
            return list(found.scalars())

    async def seats_of(self, table_ids: Sequence[str]) -> dict[str, list[Seat]]:
        out: dict[str, list[Seat]] = {t: [] for t in table_ids}
        if not table_ids:
            return out
        async with self.sessions() as db:
            found = await db.execute(
                select(Seat).where(Seat.table_id.in_(table_ids)).order_by(Seat.seat)
            )
            for seat in found.scalars():
                out[seat.table_id].append(seat)
        return out

    async def save_table(self, table: Table, seats: Sequence[Seat] = ()) -> None:
        """Write a table's row and the given seat rows as they are in memory."""
        async with self.sessions() as db, db.begin():
            await db.merge(table)
            for seat in seats:
                await db.merge(seat)

    async def moves(self, table_id: str) -> list[Move]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Move).where(Move.table_id == table_id).order_by(Move.seq)
            )
            return list(found.scalars())

    async def append(
        self,
        move: Move,
        seats: Sequence[Seat] = (),
        table: Table | None = None,
    ) -> None:
        """Append one log entry, with the seat clocks and table row it changes, in one
        transaction. ``Conflict`` if the place ``(table_id, seq)`` is already taken."""
        try:
            async with self.sessions() as db, db.begin():
                db.add(move)
                await db.flush()
                for seat in seats:
                    await db.execute(
                        update(Seat).where(Seat.table_id == seat.table_id, Seat.seat == seat.seat)
                        .values(
                            user_id=seat.user_id, bot=seat.bot, zombie=seat.zombie,
                            bank_seconds=seat.bank_seconds, deadline=seat.deadline,
                        )
                    )
                if table is not None:
                    await db.merge(table)
        except IntegrityError:
            raise Conflict(f"{move.table_id}#{move.seq}") from None

    # ---- chat ------------------------------------------------------------------------------
    async def add_chat(self, table_id: str, user_id: int, text: str) -> Chat:
        line = Chat(table_id=table_id, user_id=user_id, text=text)
        async with self.sessions() as db, db.begin():
            db.add(line)
        return line

    async def chat(self, table_id: str, limit: int = 50) -> list[Chat]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Chat).where(Chat.table_id == table_id).order_by(Chat.id.desc())
                .limit(limit)
            )
            return list(reversed(list(found.scalars())))

    # ---- history and ratings ---------------------------------------------------------------
    async def history(self, user_id: int, limit: int = 100) -> list[Table]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Table).join(Seat, Seat.table_id == Table.id)
                .where(Seat.user_id == user_id, Table.status == "finished")
                .order_by(Table.finished_at.desc()).limit(limit)
            )
            return list(found.scalars())

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

    async def save_ratings(self, ratings: Sequence[Rating]) -> None:
        async with self.sessions() as db, db.begin():
            for rating in ratings:
                await db.merge(rating)

    async def leaderboard(self, game: str, limit: int = 100) -> list[tuple[Rating, User]]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Rating, User).join(User, User.id == Rating.user_id)
                .where(Rating.game == game)
                .order_by((Rating.mu - 3 * Rating.sigma).desc()).limit(limit)
            )
            return [(r, u) for r, u in found.tuples()]

    async def counts(self) -> dict[str, int]:
        async with self.sessions() as db:
            found = await db.execute(select(Table.status, func.count()).group_by(Table.status))
            return {status: int(n) for status, n in found.tuples()}


def stamp(when: datetime | None) -> str | None:
    return when.isoformat(timespec="seconds") if when is not None else None
