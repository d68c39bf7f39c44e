"""Every read and write of the arena's database, as small async methods.

The routes and table actors call these and never build queries themselves, so the data's
shape lives in one place (``db.py``) and its uses in this one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, or_, orm, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from ludoteca.server.analysis_store import AnalysisStore
from ludoteca.server.db import (
    Chat,
    EmailToken,
    Move,
    PoolRating,
    Seat,
    Session,
    Table,
    User,
    make_engine,
    make_sync_engine,
    utcnow,
)
from ludoteca.server.history_queries import HistoryQueries
from ludoteca.server.lease_store import LeaseStore
from ludoteca.server.log_writer import Batch, Conflict, LogWriter, WriterThread, core_writes
from ludoteca.server.names import fold
from ludoteca.server.pool_store import PoolStore
from ludoteca.server.pools import PoolRules
from ludoteca.server.rows import (
    UPDATE_CLOCKS,
    UPDATE_SEAT,
    UPDATE_TABLE,
    lock_table,
    seat_rows,
    table_row,
)
from ludoteca.server.sqlite_log import SQLiteLog
from ludoteca.server.state_rows import (
    chat_row,
    log_entry,
    people,
    person,
    seat_states,
    table_state,
)
from ludoteca.server.table.effects import SeatChange
from ludoteca.server.table.state import (
    ChatLine,
    LogEntry,
    Person,
    SeatState,
    TableState,
    stamp,
)

T = TypeVar("T")
TableRead = tuple[TableState, list[SeatState], list[LogEntry]]
log = logging.getLogger(__name__)
SEEN_EVERY = timedelta(hours=1)

__all__ = ["Conflict", "Store", "stamp"]


class _SeatLost(Exception):
    """A seat was not held as the write expected: the whole change is rolled back."""


class Store(HistoryQueries):
    """The store: users, sessions, tables, seats, the log and chat here; finished matches and
    ratings read in ``HistoryQueries``; leases, analyses and rating pools in their own
    stores."""

    def __init__(self, url: str, rules: PoolRules | None = None) -> None:
        self.url = url
        self.engine: AsyncEngine = make_engine(url)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._writer: ThreadPoolExecutor | None = None
        self._checkpoints: asyncio.Task[None] | None = None
        self._sync_sessions: orm.sessionmaker[orm.Session] | None = None
        self._sqlite_log: SQLiteLog | None = None
        thread = None
        if self.engine.dialect.name == "sqlite":
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
            self._sync_engine = make_sync_engine(url)
            self._sync_sessions = orm.sessionmaker(self._sync_engine, expire_on_commit=False)
            self._sqlite_log = SQLiteLog(self._sync_engine)
            thread = WriterThread(self._writer, self._sqlite_log.write)
        self.log_writer = LogWriter(self.write_log, thread)
        self.seen_every = SEEN_EVERY
        self.leases = LeaseStore(self.write, self.sessions,
                                 self.engine.dialect.name == "postgresql")
        self.analyses = AnalysisStore(self.write, self.sessions)
        self.pools = PoolStore(self.write, self.sessions, rules or PoolRules())

    async def write(self, change: Callable[[orm.Session], T]) -> T:
        """Run ``change`` in one write transaction and return what it returns.

        On SQLite every write runs whole in one writer thread with its own connection. SQLite
        lets one writer in at a time (others sleep and retry), and aiosqlite would make each
        statement, the commit included, a separate trip between threads, every one waiting
        for the busy event loop: one trip per transaction, in the one thread that may write,
        is what kept actions fast under load (benchmarks/server.py). PostgreSQL takes
        writers side by side, over the event loop's own sockets."""
        if self._writer is not None:
            self._start_checkpoints()
            return await asyncio.get_running_loop().run_in_executor(
                self._writer, self._write_now, change
            )
        async with self.sessions() as db, db.begin():
            return await db.run_sync(change)

    async def write_log(self, batch: Batch) -> None:
        """Commit a batch of log entries with their seat and table rows (``LogWriter``) as
        Core statements. (On SQLite the writer thread commits them itself, through SQLite's
        own driver: ``sqlite_log``.)"""
        await self.write(lambda db: core_writes(db, batch))

    def _start_checkpoints(self) -> None:
        if self._checkpoints is None:
            self._checkpoints = asyncio.create_task(self._checkpoint(), name="checkpoints")

    async def _checkpoint(self, every: float = 1.0) -> None:
        """Copy SQLite's write-ahead log into the database file now and then, in another
        thread, so that no commit waits for it (they would, at every 1000 pages)."""
        def passive() -> None:
            with self._sync_engine.connect() as db:
                db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(passive)
            except Exception:  # busy or failing: the next one tries again
                log.warning("SQLite checkpoint failed", exc_info=True)

    def _write_now(self, change: Callable[[orm.Session], T]) -> T:
        assert self._sync_sessions is not None
        with self._sync_sessions() as db, db.begin():
            return change(db)

    async def close(self) -> None:
        """Finish the log writes under way, then close the connections."""
        await self.log_writer.close()
        if self._checkpoints is not None:
            self._checkpoints.cancel()
        if self._writer is not None:
            def dispose() -> None:
                if self._sqlite_log is not None:
                    self._sqlite_log.close()
                self._sync_engine.dispose()

            await asyncio.get_running_loop().run_in_executor(self._writer, dispose)
            self._writer.shutdown()
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
            guest=guest, language=language, name_fold=fold(name), display_fold=fold(name),
        )
        try:
            await self.write(lambda db: db.add(user))
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
        def change(db: orm.Session) -> User:
            user = db.get(User, user_id)
            assert user is not None
            for key, value in values.items():
                setattr(user, key, value)
            return user

        try:
            return await self.write(change)
        except IntegrityError:
            raise Conflict(str(values.get("name", ""))) from None

    async def add_session(self, token_hash: str, user_id: int, days: int) -> None:
        session = Session(
            token_hash=token_hash, user_id=user_id, expires_at=utcnow() + timedelta(days=days)
        )
        await self.write(lambda db: db.add(session))

    async def session_user(self, token_hash: str) -> User | None:
        async with self.sessions() as db:
            found = await db.execute(
                select(User).join(Session, Session.user_id == User.id).where(
                    Session.token_hash == token_hash, Session.expires_at > utcnow()
                )
            )
            user = found.scalar_one_or_none()
        if user is not None and user.seen_at < utcnow() - self.seen_every:
            await self.seen(user)
        return user

    async def seen(self, user: User) -> None:
        """Note that the account is in use (at most once per ``seen_every``: not a write per
        request); unused guests are purged by it."""
        user.seen_at = utcnow()
        await self.write(lambda db: db.execute(
            update(User).where(User.id == user.id).values(seen_at=user.seen_at)))

    async def name_clash(self, folded: str, user_id: int | None) -> bool:
        """Another account's sign-in or display name looks like ``folded``."""
        async with self.sessions() as db:
            found = await db.execute(select(User.id).where(
                or_(User.name_fold == folded, User.display_fold == folded),
                User.id != (user_id if user_id is not None else -1)).limit(1))
            return found.first() is not None

    async def drop_sessions(self, user_id: int, keep: str | None = None) -> int:
        """End the account's sessions, all or all but ``keep``; how many ended."""
        statement = delete(Session).where(Session.user_id == user_id)
        if keep is not None:
            statement = statement.where(Session.token_hash != keep)
        return await self.write(lambda db: int(db.connection().execute(statement).rowcount))

    async def forget_user(self, user_id: int, anonymous: str,
                          only_guest_seen_before: datetime | None = None
                          ) -> tuple[bool, User | None]:
        """Delete an account and keep its history: the row stays under ``anonymous`` with no
        password, webhook, email address, email links or sessions, and leaves the
        leaderboards; if nothing refers to it (a guest that never sat at a table or
        chatted), the row goes too. With
        ``only_guest_seen_before``, only if it is still a guest unused since then (a purge
        must not take an account its owner came back to meanwhile). Whether it was deleted
        now (not before, nor left alone), and its anonymous row (None: removed outright)."""
        def forget(db: orm.Session) -> tuple[bool, User | None]:
            # locked (PostgreSQL): two processes purging the same guest take turns, and the
            # second finds it gone or deleted already
            user = db.get(User, user_id, with_for_update=True)
            if user is None or user.deleted_at is not None:
                return False, None
            if only_guest_seen_before is not None and (
                    not user.guest or user.seen_at >= only_guest_seen_before):
                return False, None
            db.execute(delete(Session).where(Session.user_id == user_id))
            db.execute(delete(EmailToken).where(EmailToken.user_id == user_id))
            db.execute(delete(PoolRating).where(PoolRating.user_id == user_id))
            used = any(db.execute(select(1).where(where).limit(1)).first() for where in (
                Seat.user_id == user_id, Table.host_id == user_id, Chat.user_id == user_id))
            if not used:
                db.delete(user)
                return True, None
            user.name = user.name_key = user.display_name = anonymous
            user.name_fold = user.display_fold = fold(anonymous)
            user.password_hash = user.webhook_url = user.email = user.email_key = None
            user.notify = None
            user.guest = False
            user.deleted_at = utcnow()
            return True, user

        return await self.write(forget)

    async def drop_session(self, token_hash: str) -> None:
        await self.write(
            lambda db: db.execute(delete(Session).where(Session.token_hash == token_hash))
        )

    # ---- tables ----------------------------------------------------------------------------
    async def add_table(self, table: Table, seats: list[Seat]) -> None:
        def add(db: orm.Session) -> None:
            db.add(table)
            db.flush()
            db.add_all(seats)

        await self.write(add)

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

    async def save_table(self, table: Table | TableState,
                         seats: Sequence[Seat | SeatState] = ()) -> None:
        """Write a table's row and the given seats as they are in memory."""
        row, rows = table_row(table), seat_rows(seats)

        def save(db: orm.Session) -> None:
            conn = db.connection()
            conn.execute(UPDATE_TABLE, [row])
            if rows:
                conn.execute(UPDATE_SEAT, rows)

        await self.write(save)

    async def moves(self, table_id: str, after: int = 0) -> list[Move]:
        """The table's log entries after ``seq`` number ``after``, in order."""
        async with self.sessions() as db:
            found = await db.execute(
                select(Move).where(Move.table_id == table_id, Move.seq > after)
                .order_by(Move.seq)
            )
            return list(found.scalars())

    async def turn_began(self, table_id: str, since: int) -> datetime | None:
        """When the decision that began at ``seq`` ``since`` began: its log entry's time (the
        table's start for ``seq`` 0); None if not stored (yet)."""
        async with self.sessions() as db:
            if since > 0:
                return await db.scalar(select(Move.at).where(
                    Move.table_id == table_id, Move.seq == since))
            return await db.scalar(select(Table.started_at).where(Table.id == table_id))

    async def snapshot(
        self, table_id: str, after: int = 0
    ) -> tuple[Table, list[Seat], list[Move]] | None:
        """The table's rows and its log entries after ``after``, as of one moment (another
        process may be writing to it): what a process catching up reads."""
        async with self.sessions() as db:
            if self.engine.dialect.name == "postgresql":
                await db.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            table = await db.get(Table, table_id)
            if table is None:
                return None
            seats = await db.execute(
                select(Seat).where(Seat.table_id == table_id).order_by(Seat.seat))
            moves = await db.execute(
                select(Move).where(Move.table_id == table_id, Move.seq > after)
                .order_by(Move.seq))
            return table, list(seats.scalars()), list(moves.scalars())

    async def read_table(self, table_id: str, after: int = 0) -> TableRead | None:
        """``snapshot`` as a table's plain state: what a table's actor loads and re-reads."""
        found = await self.snapshot(table_id, after)
        if found is None:
            return None
        table, seats, moves = found
        return table_state(table), seat_states(seats), [log_entry(m) for m in moves]

    async def person(self, user_id: int) -> Person | None:
        user = await self.user(user_id)
        return None if user is None else person(user)

    async def people(self, ids: Sequence[int]) -> dict[int, Person]:
        return people(await self.users(ids))

    # ---- seats and status, written only if nobody changed them first -------------------
    # Several processes may hold the same table (issue 16): these conditional writes let the
    # database decide who was first, as ``(table_id, seq)`` does for the log.
    # Each of these first locks the table's row (PostgreSQL; SQLite has one writer anyway),
    # so seat changes and the start of the match happen one after another, each seeing the
    # last.
    async def change_seats(self, table_id: str, changes: Sequence[SeatChange]) -> bool:
        """Seat or unseat people and bots at an open table, each seat only if it is still
        held as ``was`` says ("take seat 2 if it is still empty"): all of them, or none and
        False (the table had started, or another process changed a seat first)."""
        def change(db: orm.Session) -> bool:
            conn = db.connection()
            if lock_table(conn, table_id) != "open":
                return False
            for one in changes:
                (user, bot), (new_user, new_bot) = one.was, one.now
                held = (Seat.user_id == user if user is not None else Seat.user_id.is_(None),
                        Seat.bot == bot if bot is not None else Seat.bot.is_(None))
                done = conn.execute(update(Seat).where(
                    Seat.table_id == table_id, Seat.seat == one.seat, *held,
                ).values(user_id=new_user, bot=new_bot))
                if done.rowcount != 1:
                    raise _SeatLost  # undoes the seats changed before it
            return True

        try:
            return await self.write(change)
        except _SeatLost:
            return False

    async def move_on(self, table: Table | TableState, seats: Sequence[Seat | SeatState],
                      was: str) -> bool:
        """Write the table row and the seats' clocks if its status is still ``was`` and its
        seats are held as ``seats`` say: the start of a match, or an abandoned open table,
        happens once, and only with the players it was decided with."""
        row = table_row(table)
        clocks = [{"k_table": s.table_id, "k_seat": s.seat, "v_bank_seconds": s.bank_seconds,
                   "v_deadline": s.deadline} for s in seats]

        def save(db: orm.Session) -> bool:
            conn = db.connection()
            if lock_table(conn, table.id) != was:
                return False
            held = {seat: (user, bot) for seat, user, bot in conn.execute(
                select(Seat.seat, Seat.user_id, Seat.bot).where(Seat.table_id == table.id))}
            if any(held.get(s.seat) != (s.user_id, s.bot) for s in seats):
                return False
            conn.execute(UPDATE_TABLE, row)
            if clocks:
                conn.execute(UPDATE_CLOCKS, clocks)
            return True

        return await self.write(save)

    async def set_result(self, table_id: str, result: dict[str, Any] | None) -> None:
        """Only the result column (a rematch named meanwhile by another process stays)."""
        await self.write(lambda db: db.execute(
            update(Table).where(Table.id == table_id).values(result=result)))

    async def set_rematch(self, table_id: str, rematch: str) -> bool:
        """Name the finished table's rematch, unless another was named first."""
        return await self._changed(
            update(Table).where(Table.id == table_id, Table.rematch.is_(None))
            .values(rematch=rematch)
        )

    async def _changed(self, statement: Any) -> bool:
        def run(db: orm.Session) -> bool:
            return bool(db.connection().execute(statement).rowcount == 1)

        return await self.write(run)

    async def append(
        self,
        move: Move | LogEntry,
        seats: Sequence[Seat | SeatState] = (),
        table: Table | TableState | None = None,
    ) -> None:
        """Append one log entry with the rows it changes, once committed (``log_writer``)."""
        if self._writer is not None:
            self._start_checkpoints()
        await self.log_writer.append(move, seats, table)

    # ---- chat ------------------------------------------------------------------------------
    async def add_chat(self, table_id: str, line: ChatLine) -> None:
        row = chat_row(line, table_id)
        await self.write(lambda db: db.add(row))

    async def chat(self, table_id: str, limit: int = 50) -> list[Chat]:
        async with self.sessions() as db:
            found = await db.execute(
                select(Chat).where(Chat.table_id == table_id).order_by(Chat.id.desc())
                .limit(limit)
            )
            return list(reversed(list(found.scalars())))
