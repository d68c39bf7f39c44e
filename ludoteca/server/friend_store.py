"""Every read and write of follows, blocks and challenges (``friend_rows.Follow``, ``Block``,
``Challenge``). A challenge changes status once: each answer is a conditional write
("open, if it is still open"), so an accept racing its expiry or a decline is decided by the
database."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, func, or_, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import Seat, Table, utcnow
from ludoteca.server.friend_rows import Block, Challenge, Follow
from ludoteca.server.lease_store import Write


class FriendStore:
    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.write = write
        self.sessions = sessions

    # ---- follows ---------------------------------------------------------------------------
    async def follow(self, follower: int, followed: int) -> None:
        """Idempotent: following twice is following."""
        def add(db: orm.Session) -> None:
            if db.get(Follow, (follower, followed)) is None:
                db.add(Follow(follower_id=follower, followed_id=followed, created_at=utcnow()))

        # the same follow written at once by another request: one of them is enough
        with contextlib.suppress(IntegrityError):
            await self.write(add)

    async def unfollow(self, follower: int, followed: int) -> None:
        await self.write(lambda db: db.execute(delete(Follow).where(
            Follow.follower_id == follower, Follow.followed_id == followed)))

    async def following(self, user_id: int) -> list[int]:
        async with self.sessions() as db:
            found = await db.execute(select(Follow.followed_id).where(
                Follow.follower_id == user_id).order_by(Follow.created_at))
            return list(found.scalars())

    async def followers(self, user_id: int) -> set[int]:
        async with self.sessions() as db:
            found = await db.execute(select(Follow.follower_id).where(
                Follow.followed_id == user_id))
            return set(found.scalars())

    # ---- blocks ----------------------------------------------------------------------------
    async def block(self, blocker: int, blocked: int) -> None:
        """Block, and end the blocked person's follow of the blocker (they may not follow)."""
        def add(db: orm.Session) -> None:
            if db.get(Block, (blocker, blocked)) is None:
                db.add(Block(blocker_id=blocker, blocked_id=blocked, created_at=utcnow()))
            db.execute(delete(Follow).where(
                Follow.follower_id == blocked, Follow.followed_id == blocker))

        with contextlib.suppress(IntegrityError):
            await self.write(add)

    async def unblock(self, blocker: int, blocked: int) -> None:
        await self.write(lambda db: db.execute(delete(Block).where(
            Block.blocker_id == blocker, Block.blocked_id == blocked)))

    async def blocked_by(self, user_id: int) -> list[int]:
        """Whom ``user_id`` blocks."""
        async with self.sessions() as db:
            found = await db.execute(select(Block.blocked_id).where(
                Block.blocker_id == user_id).order_by(Block.created_at))
            return list(found.scalars())

    async def blocks(self, blocker: int, blocked: int) -> bool:
        async with self.sessions() as db:
            return await db.get(Block, (blocker, blocked)) is not None

    async def blockers_among(self, blocked: int, among: Sequence[int]) -> list[int]:
        """Those of ``among`` who block ``blocked``."""
        if not among:
            return []
        async with self.sessions() as db:
            found = await db.execute(select(Block.blocker_id).where(
                Block.blocked_id == blocked, Block.blocker_id.in_(list(among))))
            return list(found.scalars())

    # ---- who is at which table -------------------------------------------------------------
    async def playing(self, ids: Sequence[int]) -> dict[int, list[Table]]:
        """The tables being played at which each of ``ids`` holds a seat."""
        if not ids:
            return {}
        async with self.sessions() as db:
            found = await db.execute(
                select(Seat.user_id, Table).join(Table, Table.id == Seat.table_id).where(
                    Seat.user_id.in_(list(ids)), Table.status == "playing"))
            out: dict[int, list[Table]] = {}
            for user_id, table in found.all():
                if user_id is not None:
                    out.setdefault(user_id, []).append(table)
            return out

    async def tables(self, ids: Sequence[str]) -> dict[str, Table]:
        """Table rows by id (a challenge's summary reads its settings without loading the
        table's actor)."""
        if not ids:
            return {}
        async with self.sessions() as db:
            found = await db.execute(select(Table).where(Table.id.in_(list(ids))))
            return {t.id: t for t in found.scalars()}

    # ---- challenges ------------------------------------------------------------------------
    async def add_challenge(self, challenge: Challenge) -> None:
        await self.write(lambda db: db.add(challenge))

    async def challenge(self, challenge_id: str) -> Challenge | None:
        async with self.sessions() as db:
            return await db.get(Challenge, challenge_id)

    async def challenges_of(self, user_id: int, statuses: Sequence[str]) -> list[Challenge]:
        """Challenges made or received by ``user_id``, newest first."""
        async with self.sessions() as db:
            found = await db.execute(select(Challenge).where(
                or_(Challenge.challenger_id == user_id, Challenge.challenged_id == user_id),
                Challenge.status.in_(list(statuses))).order_by(Challenge.created_at.desc()))
            return list(found.scalars())

    async def challenged_since(self, challenger: int, challenged: int, since: datetime
                               ) -> int:
        """How many challenges ``challenger`` made ``challenged`` since ``since``."""
        async with self.sessions() as db:
            found = await db.execute(select(func.count()).select_from(Challenge).where(
                Challenge.challenger_id == challenger, Challenge.challenged_id == challenged,
                Challenge.created_at > since))
            return int(found.scalar_one())

    async def due_challenges(self, now: datetime) -> list[Challenge]:
        async with self.sessions() as db:
            found = await db.execute(select(Challenge).where(
                Challenge.status == "open", Challenge.expires_at <= now))
            return list(found.scalars())

    async def settle(self, challenge_id: str, status: str) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open."""
        def change(db: orm.Session) -> bool:
            done = db.execute(update(Challenge).where(
                Challenge.id == challenge_id, Challenge.status == "open").values(status=status))
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

        return await self.write(change)
