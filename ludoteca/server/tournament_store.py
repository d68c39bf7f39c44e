"""Every read and write of the tournaments' rows (``db.Tournament`` and its entrants, rounds and
games). The changes that may race (two registrations for the last place, two directors pairing
one round, a table's end heard twice) are conditional writes: the database decides once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import delete, func, insert, or_, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ludoteca.server.db import (
    DirectorLease,
    PoolRating,
    Table,
    Tournament,
    TournamentEntrant,
    TournamentGame,
    TournamentRound,
    utcnow,
)
from ludoteca.server.lease_store import Write

ACTIVE = ("registering", "running")
DIRECTOR = "director"


class EntrantRow(NamedTuple):
    """An entrant as read: plain values, not a mapped object. An arena's director and its
    page read every entrant several times a second (each table's end, each person looking
    for their table); mapped objects cost several times as much to load, and each one
    lived on into the cycle collector's middle generation (benchmarks/arena.py)."""

    participant: str
    user_id: int | None
    rating: float
    registered_at: datetime
    withdrawn_at: datetime | None


class GameRow(NamedTuple):
    """A tournament's game as read (plain values, as ``EntrantRow``)."""

    round: int
    board: int
    table_id: str
    seats: list[str]
    opened: bool
    result: dict[str, Any] | None
    decided_by: str | None
    decided_at: datetime | None


class RoundRow(NamedTuple):
    """A round's (an arena's wave's) draw as read (plain values, as ``EntrantRow``)."""

    round: int
    draw: dict[str, Any]


_ENTRANT = (TournamentEntrant.participant, TournamentEntrant.user_id, TournamentEntrant.rating,
            TournamentEntrant.registered_at, TournamentEntrant.withdrawn_at)
_GAME = (TournamentGame.round, TournamentGame.board, TournamentGame.table_id,
         TournamentGame.seats, TournamentGame.opened, TournamentGame.result,
         TournamentGame.decided_by, TournamentGame.decided_at)


class TournamentStore:
    def __init__(self, write: Write, sessions: async_sessionmaker[AsyncSession],
                 postgres: bool) -> None:
        self.write = write
        self.sessions = sessions
        self.postgres = postgres

    # ---- reading -------------------------------------------------------------------------
    async def get(self, tournament_id: str) -> Tournament | None:
        async with self.sessions() as db:
            return await db.get(Tournament, tournament_id)

    async def listed(self, statuses: Sequence[str], limit: int = 100) -> list[Tournament]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Tournament).where(Tournament.status.in_(list(statuses)))
                .order_by(Tournament.created_at.desc()).limit(limit))
            return list(found.scalars())

    async def active_ids(self) -> list[str]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Tournament.id).where(Tournament.status.in_(ACTIVE)))
            return list(found.scalars())

    async def entrants(self, tournament_id: str) -> list[EntrantRow]:
        async with self.sessions() as db:
            found = await db.execute(
                select(*_ENTRANT).where(TournamentEntrant.tournament_id == tournament_id)
                .order_by(TournamentEntrant.registered_at, TournamentEntrant.participant))
            return [EntrantRow(*row) for row in found]

    async def active_count(self, tournament_id: str) -> int:
        """How many entrants have not withdrawn (what a summary says), counted by the
        database."""
        async with self.sessions() as db:
            found = await db.execute(
                select(func.count()).select_from(TournamentEntrant).where(
                    TournamentEntrant.tournament_id == tournament_id,
                    TournamentEntrant.withdrawn_at.is_(None)))
            return int(found.scalar_one())

    async def rounds(self, tournament_id: str) -> list[RoundRow]:
        async with self.sessions() as db:
            found = await db.execute(
                select(TournamentRound.round, TournamentRound.draw)
                .where(TournamentRound.tournament_id == tournament_id)
                .order_by(TournamentRound.round))
            return [RoundRow(*row) for row in found]

    async def games(self, tournament_id: str, undecided: bool = False) -> list[GameRow]:
        """The tournament's games in (round, board) order; ``undecided``: only those without a
        result (an arena's director reads every result only when it pairs)."""
        where = [TournamentGame.tournament_id == tournament_id]
        if undecided:
            where.append(TournamentGame.result.is_(None))
        async with self.sessions() as db:
            found = await db.execute(
                select(*_GAME).where(*where)
                .order_by(TournamentGame.round, TournamentGame.board))
            return [GameRow(*row) for row in found]

    async def game_of_table(self, table_id: str) -> GameRow | None:
        async with self.sessions() as db:
            found = (await db.execute(
                select(*_GAME).where(TournamentGame.table_id == table_id))).first()
            return None if found is None else GameRow(*found)

    async def finished_tables(self, table_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The stored result of each of these tables that finished (one query)."""
        if not table_ids:
            return {}
        async with self.sessions() as db:
            found = await db.execute(select(Table.id, Table.result).where(
                Table.id.in_(list(table_ids)), Table.status == "finished",
                Table.result.is_not(None)))
            return {row.id: row.result for row in found if row.result is not None}

    async def rating(self, game: str, participant: str) -> float | None:
        """The participant's all-time rating (mu) in the game, None if unrated."""
        async with self.sessions() as db:
            found = await db.execute(select(PoolRating.mu).where(
                PoolRating.game == game, PoolRating.pool == "all",
                PoolRating.participant == participant))
            return found.scalar_one_or_none()

    # ---- registering ---------------------------------------------------------------------
    async def add(self, tournament: Tournament) -> None:
        await self.write(lambda db: db.add(tournament))

    async def register(self, tournament_id: str, participant: str, user_id: int | None,
                       rating: float, while_running: bool = False) -> str:
        """Enter the participant: ``ok``, or why not (``started``, ``full``, ``already``).
        The tournament's row is locked first (PostgreSQL), so two registrations for the last
        place take turns. ``while_running`` (an arena): entries stay open while it runs, and
        one who withdrew comes back (their entry and results were kept)."""
        def enter(db: orm.Session) -> str:
            row = db.execute(select(Tournament.status, Tournament.max_entrants)
                             .where(Tournament.id == tournament_id).with_for_update()).first()
            open_ = ("registering", "running") if while_running else ("registering",)
            if row is None or row.status not in open_:
                return "started"
            held = db.execute(select(TournamentEntrant.participant).where(
                TournamentEntrant.tournament_id == tournament_id)).scalars().all()
            if participant in held:
                back = db.connection().execute(update(TournamentEntrant).where(
                    TournamentEntrant.tournament_id == tournament_id,
                    TournamentEntrant.participant == participant,
                    TournamentEntrant.withdrawn_at.is_not(None)).values(withdrawn_at=None))
                if back.rowcount != 1:
                    return "already"
                _touch(db, tournament_id)
                return "ok"
            if len(held) >= row.max_entrants:
                return "full"
            db.add(TournamentEntrant(tournament_id=tournament_id, participant=participant,
                                     user_id=user_id, rating=rating, registered_at=utcnow()))
            _touch(db, tournament_id)
            return "ok"

        try:
            return await self.write(enter)
        except IntegrityError:
            return "already"

    async def withdraw(self, tournament_id: str, participant: str) -> str | None:
        """Leave the tournament: before the start the entry goes; once running it is marked
        withdrawn (its games stay, it is paired no more). The status it was in, or None if
        the participant was not (or no longer) an entrant."""
        def leave(db: orm.Session) -> str | None:
            status = db.execute(select(Tournament.status).where(Tournament.id == tournament_id)
                                .with_for_update()).scalar_one_or_none()
            mine = (TournamentEntrant.tournament_id == tournament_id,
                    TournamentEntrant.participant == participant,
                    TournamentEntrant.withdrawn_at.is_(None))
            conn = db.connection()
            if status == "registering":
                done = conn.execute(delete(TournamentEntrant).where(*mine))
            elif status == "running":
                done = conn.execute(update(TournamentEntrant).where(*mine)
                                    .values(withdrawn_at=utcnow()))
            else:
                return None
            if done.rowcount != 1:
                return None
            _touch(db, tournament_id)
            return status

        return await self.write(leave)

    # ---- the director's writes -----------------------------------------------------------
    async def move_status(self, tournament_id: str, was: str, now: str,
                          **values: Any) -> bool:
        """``was`` -> ``now`` (with ``values``), once: False if another wrote first."""
        def change(db: orm.Session) -> bool:
            done = db.connection().execute(update(Tournament).where(
                Tournament.id == tournament_id, Tournament.status == was,
            ).values(status=now, version=Tournament.version + 1, **values))
            return bool(done.rowcount == 1)

        return await self.write(change)

    async def pair(self, tournament_id: str, round: int, draw: dict[str, Any],
                   games: Sequence[dict[str, Any]], deadline: datetime,
                   before_end: bool = False) -> bool:
        """Write round ``round``'s draw and its games, and make it the current round: once.
        The draw's row is keyed by (tournament, round), so a second pairing of the same round
        (a director that restarted, another process) writes nothing and returns False. With
        ``before_end`` (an arena's wave) it writes only before the tournament's ``ends_at``,
        and only if nobody it seats has withdrawn since the director read the entrants: the
        tournament's row is locked first, as a withdrawal locks it, so the two take turns."""
        def write(db: orm.Session) -> bool:
            conn = db.connection()
            if before_end:
                conn.execute(select(Tournament.id).where(Tournament.id == tournament_id)
                             .with_for_update())
                seated = sorted({p for g in games for p in g["seats"]})
                gone = conn.execute(select(TournamentEntrant.participant).where(
                    TournamentEntrant.tournament_id == tournament_id,
                    TournamentEntrant.participant.in_(seated),
                    TournamentEntrant.withdrawn_at.is_not(None))).first()
                if gone is not None:
                    return False
            where = [Tournament.id == tournament_id, Tournament.status == "running",
                     Tournament.round == round - 1]
            if before_end:
                where.append(Tournament.ends_at > utcnow())
            moved = conn.execute(update(Tournament).where(*where)
                                 .values(round=round, round_deadline=deadline,
                                         version=Tournament.version + 1))
            if moved.rowcount != 1:
                return False
            conn.execute(insert(TournamentRound).values(
                tournament_id=tournament_id, round=round, draw=draw, paired_at=utcnow()))
            if games:
                conn.execute(insert(TournamentGame), [
                    {"tournament_id": tournament_id, "round": round, "opened": False,
                     "result": None, "decided_by": None, "decided_at": None, **g}
                    for g in games])
            return True

        try:
            return await self.write(write)
        except IntegrityError:
            return False

    async def set_opened(self, tournament_id: str, round: int, board: int) -> None:
        def write(db: orm.Session) -> None:
            done = db.connection().execute(update(TournamentGame).where(
                TournamentGame.tournament_id == tournament_id, TournamentGame.round == round,
                TournamentGame.board == board, TournamentGame.opened.is_(False),
            ).values(opened=True))
            if done.rowcount == 1:
                _touch(db, tournament_id)

        await self.write(write)

    async def decide(self, tournament_id: str, round: int, board: int,
                     result: dict[str, Any], decided_by: str) -> bool:
        """Write a game's result unless it has one: a table's end heard twice, or heard after
        the deadline decided it, changes nothing. True if this wrote it."""
        def write(db: orm.Session) -> bool:
            done = db.connection().execute(update(TournamentGame).where(
                TournamentGame.tournament_id == tournament_id, TournamentGame.round == round,
                TournamentGame.board == board, TournamentGame.result.is_(None),
            ).values(result=result, decided_by=decided_by, decided_at=utcnow()))
            if done.rowcount != 1:
                return False
            _touch(db, tournament_id)
            return True

        return await self.write(write)

    # ---- the director's lease ------------------------------------------------------------
    async def lead(self, owner: str, seconds: float) -> bool:
        """Take or keep the one director's lease until ``seconds`` from now: True if
        ``owner`` directs now. The same conditional writes as a table's lease."""
        # by the database's clock where it has one, as table leases are
        now: Any = func.now() if self.postgres else utcnow()
        expires = now + timedelta(seconds=seconds)

        def take(db: orm.Session) -> bool:
            conn = db.connection()
            done = conn.execute(update(DirectorLease).where(
                DirectorLease.name == DIRECTOR,
                or_(DirectorLease.owner == owner, DirectorLease.expires_at < now),
            ).values(owner=owner, expires_at=expires))
            if done.rowcount == 1:
                return True
            if conn.execute(select(DirectorLease.owner)
                            .where(DirectorLease.name == DIRECTOR)).first() is not None:
                return False
            conn.execute(insert(DirectorLease).values(name=DIRECTOR, owner=owner,
                                                      expires_at=expires))
            return True

        try:
            return await self.write(take)
        except IntegrityError:
            return False

    async def let_go(self, owner: str) -> None:
        await self.write(lambda db: db.execute(delete(DirectorLease).where(
            DirectorLease.name == DIRECTOR, DirectorLease.owner == owner)))


def _touch(db: orm.Session, tournament_id: str) -> None:
    """Move the tournament's ``version`` in the transaction that changed what its page shows,
    so every process's cached page (``tournament_pages``) knows it is stale."""
    db.connection().execute(update(Tournament).where(Tournament.id == tournament_id)
                            .values(version=Tournament.version + 1))
