"""The table log's writer: every action waits for its entry to be durable before anyone is
told, so this is the write the arena's speed rests on. Entries that arrive while a commit is
under way go together in the next one (group commit).

On SQLite the commits run in the one writer thread (``Store.write``), and that thread drains
the entries itself: after a commit it takes whatever arrived meanwhile and commits again,
telling the event loop only who is done. When the loop itself handed each batch to the
thread, every commit waited for a turn of the busy loop twice (to be handed over, to be
heard done): with a live arena beside 300 tables a batch took 2.5 ms in the thread and
25-33 ms end to end (benchmarks/arena.py; docs/tournaments.md)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, orm, select
from sqlalchemy.exc import IntegrityError

from ludoteca.server.db import LogEntry, Move, Result, ResultSeat, Seat, Table, utcnow
from ludoteca.server.result_rows import finished, result_row, result_seat_rows
from ludoteca.server.rows import UPDATE_SEAT, UPDATE_TABLE, by_key, row_of
from ludoteca.server.table.state import SeatState, TableState

Row = dict[str, Any]
Batch = tuple[list[Row], list[Row], list[Row]]
"""The rows of a commit, column by column: log entries, seat rows, table rows."""


class Conflict(Exception):
    """A write lost a race (a taken name, a log place already filled)."""


@dataclass
class _Pending:
    """One log entry waiting for the next commit, as the rows it writes."""

    move: Row
    seats: list[Row]
    table: Row | None
    done: asyncio.Future[None]

    def succeed(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def fail(self, exc: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(exc)


@dataclass(frozen=True)
class WriterThread:
    """SQLite: the one thread that may write, and the batch commit it runs there."""

    executor: Executor
    write: Callable[[list[Row], list[Row], list[Row]], None]


ROUNDS = 4
"""Commits the writer thread makes in a row before the other writes queued for it go first."""


class LogWriter:
    """``write`` commits one batch of rows from the event loop (SQLAlchemy Core statements,
    ``core_writes``); with ``thread``, the writer thread commits and drains the batches."""

    def __init__(self, write: Callable[[Batch], Awaitable[None]],
                 thread: WriterThread | None = None) -> None:
        self._write_rows = write
        self._thread = thread
        self._pending: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self._lock = threading.Lock()
        """Guards ``_pending`` and ``_draining`` between the loop and the writer thread."""
        self._draining = False
        """A drain is queued for the writer thread or running there."""
        self._unsettled: set[asyncio.Future[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def close(self) -> None:
        """Finish the writes under way."""
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        while self._unsettled:
            await asyncio.gather(*list(self._unsettled), return_exceptions=True)

    async def append(
        self,
        move: Move | LogEntry,
        seats: Sequence[Seat | SeatState] = (),
        table: Table | TableState | None = None,
    ) -> None:
        """Append one log entry, with the seat clocks and table row it changes, in one
        transaction; return once it is committed. ``Conflict`` if the place
        ``(table_id, seq)`` is already taken.

        Entries that arrive while a commit is under way go together in the next one (group
        commit): under load one commit carries the moves of many tables, and each caller
        still hears only when its own is durable."""
        pending = _Pending(
            {"table_id": move.table_id, "seq": move.seq, "seat": move.seat, "kind": move.kind,
             "action": move.action, "at": move.at or utcnow()},
            [row_of(Seat, seat) for seat in seats],
            None if table is None else row_of(Table, table),
            asyncio.get_running_loop().create_future(),
        )
        if self._thread is not None:
            self._hand_over(pending)
        else:
            self._pending.append(pending)
            if self._flusher is None or self._flusher.done():
                self._flusher = asyncio.create_task(self._flush(), name="store: log writer")
        # the write goes on if the caller is cancelled: an action is never half-saved
        await asyncio.shield(pending.done)

    # ---- SQLite: the writer thread drains -------------------------------------------------
    def _hand_over(self, pending: _Pending) -> None:
        assert self._thread is not None
        self._loop = asyncio.get_running_loop()
        self._unsettled.add(pending.done)
        with self._lock:
            self._pending.append(pending)
            start, self._draining = not self._draining, True
        if start:
            self._thread.executor.submit(self._drain)

    def _drain(self) -> None:
        """In the writer thread: commit what is pending, again while more arrives; after
        ``ROUNDS`` commits, queue itself behind the other writes waiting for the thread."""
        assert self._thread is not None and self._loop is not None
        for _ in range(ROUNDS):
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._draining = False
                    return
            outcomes = self._commit(batch)
            self._loop.call_soon_threadsafe(self._settle, batch, outcomes)
        self._thread.executor.submit(self._drain)

    def _commit(self, batch: list[_Pending]) -> list[BaseException | None]:
        """Each entry's outcome: None (committed) or why not."""
        assert self._thread is not None
        try:
            self._thread.write(*_rows(batch))
            return [None] * len(batch)
        except TAKEN:  # someone else filled a place (another process, issue 16): find whose
            outcomes: list[BaseException | None] = []
            for one in batch:
                try:
                    self._thread.write(*_rows([one]))
                    outcomes.append(None)
                except TAKEN:
                    outcomes.append(Conflict(f"{one.move['table_id']}#{one.move['seq']}"))
                except Exception as exc:
                    outcomes.append(exc)
            return outcomes
        except Exception as exc:
            return [exc] * len(batch)

    def _settle(self, batch: list[_Pending], outcomes: list[BaseException | None]) -> None:
        for one, outcome in zip(batch, outcomes, strict=True):
            self._unsettled.discard(one.done)
            if outcome is None:
                one.succeed()
            else:
                one.fail(outcome)

    # ---- elsewhere: the event loop hands each batch over ------------------------------------

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write(batch)
            except TAKEN:
                # someone else filled a place (another process, issue 16): find whose, alone
                for one in batch:
                    try:
                        await self._write([one])
                    except TAKEN:
                        one.fail(Conflict(f"{one.move['table_id']}#{one.move['seq']}"))
                    except Exception as exc:
                        one.fail(exc)
                    else:
                        one.succeed()
            except Exception as exc:
                for one in batch:
                    one.fail(exc)
            else:
                for one in batch:
                    one.succeed()

    async def _write(self, batch: list[_Pending]) -> None:
        await self._write_rows(_rows(batch))


def _rows(batch: list[_Pending]) -> Batch:
    return ([one.move for one in batch], [row for one in batch for row in one.seats],
            [one.table for one in batch if one.table is not None])


TAKEN = (IntegrityError, sqlite3.IntegrityError)
"""A log place already filled, from SQLAlchemy or from SQLite's own driver."""


def core_writes(db: orm.Session, batch: Batch) -> None:
    """A batch as SQLAlchemy Core statements (PostgreSQL): the ORM's unit of work would cost
    several times their price, on the write every action waits for."""
    moves, seats, tables = batch
    conn = db.connection()
    conn.execute(insert(Move), moves)
    if seats:
        conn.execute(UPDATE_SEAT, [by_key(Seat, row) for row in seats])
    if tables:
        conn.execute(UPDATE_TABLE, [by_key(Table, row) for row in tables])
    for table in finished(tables):  # the match's result row, in the same transaction
        if conn.execute(select(Result.id).where(Result.table_id == table["id"])).first():
            continue
        held = conn.execute(select(Seat.seat, Seat.user_id, Seat.bot)
                            .where(Seat.table_id == table["id"]).order_by(Seat.seat))
        conn.execute(insert(Result), [result_row(table)])
        conn.execute(insert(ResultSeat), result_seat_rows(
            table, [(r.seat, r.user_id, r.bot) for r in held]))
