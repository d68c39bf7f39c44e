"""The table log's writer: every action waits for its entry to be durable before anyone is
told, so this is the write the arena's speed rests on. Entries that arrive while a commit is
under way go together in the next one (group commit)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, orm
from sqlalchemy.exc import IntegrityError

from ludoteca.server.db import Move, Seat, Table, utcnow
from ludoteca.server.rows import UPDATE_SEAT, UPDATE_TABLE, seat_rows, table_row


class Conflict(Exception):
    """A write lost a race (a taken name, a log place already filled)."""


@dataclass
class _Pending:
    """One log entry waiting for the next commit, as the rows it writes."""

    move: dict[str, Any]
    seats: list[dict[str, Any]]
    table: dict[str, Any] | None
    done: asyncio.Future[None]

    def succeed(self) -> None:
        if not self.done.done():
            self.done.set_result(None)

    def fail(self, exc: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(exc)


class LogWriter:
    def __init__(self, commit: Callable[[Callable[[orm.Session], None]], Awaitable[None]]) -> None:
        self._commit = commit
        self._pending: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None

    async def close(self) -> None:
        """Finish the writes under way."""
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)

    async def append(
        self,
        move: Move,
        seats: Sequence[Seat] = (),
        table: Table | None = None,
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
            seat_rows(seats),
            None if table is None else table_row(table),
            asyncio.get_running_loop().create_future(),
        )
        self._pending.append(pending)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="store: log writer")
        # the write goes on if the caller is cancelled: an action is never half-saved
        await asyncio.shield(pending.done)

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._write(batch)
            except IntegrityError:
                # someone else filled a place (another process, issue 16): find whose, alone
                for one in batch:
                    try:
                        await self._write([one])
                    except IntegrityError:
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
        await self._commit(lambda db: self._write_log(db, batch))

    @staticmethod
    def _write_log(db: orm.Session, batch: list[_Pending]) -> None:
        # Core statements: this is the write every action waits for, and the ORM's unit of
        # work would cost several times its price.
        conn = db.connection()
        conn.execute(insert(Move), [one.move for one in batch])
        seats = [row for one in batch for row in one.seats]
        if seats:
            conn.execute(UPDATE_SEAT, seats)
        tables = [one.table for one in batch if one.table is not None]
        if tables:
            conn.execute(UPDATE_TABLE, tables)
