"""The log writer's three statements in plain SQL for SQLite's own driver, on one connection
kept by the writer thread.

Every action waits for its log entry to be committed, and on SQLite the writer is one thread
that shares the interpreter with the event loop: SQLAlchemy's session and statement layers
held the interpreter for a sixth of the server's time under load (benchmarks/server.py,
py-spy ``--gil``). The values still go through each column type's own bind processor, so
the rows are stored exactly as SQLAlchemy stores them and read back the same way."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Dialect
from sqlalchemy import Table as SQLTable
from sqlalchemy.engine import Engine

from ludoteca.server.db import Move, Result, ResultSeat, Seat, Table
from ludoteca.server.result_rows import finished, result_row, result_seat_rows

Row = dict[str, Any]


class _Statement:
    """One statement over a table's columns, and how each value is sent."""

    def __init__(self, sql: str, columns: Sequence[Any], dialect: Dialect) -> None:
        self.sql = sql
        self.columns: list[tuple[str, Callable[[Any], Any] | None]] = [
            (c.key, c.type.bind_processor(dialect)) for c in columns
        ]

    def params(self, row: Row) -> tuple[Any, ...]:
        return tuple(row[key] if send is None else send(row[key]) for key, send in self.columns)


def _insert(table: SQLTable, dialect: Dialect, verb: str = "INSERT") -> _Statement:
    """All columns but a generated key (``results.id``)."""
    columns = [c for c in table.columns if not (c.primary_key and c.autoincrement is True)]
    names = ", ".join(c.name for c in columns)
    return _Statement(f"{verb} INTO {table.name} ({names}) VALUES "
                      f"({', '.join('?' for _ in columns)})", columns, dialect)


def _update(table: SQLTable, dialect: Dialect) -> _Statement:
    """A whole row by its key: values first, then the key, in the order of the ``?``s."""
    values = [c for c in table.columns if not c.primary_key]
    keys = [c for c in table.columns if c.primary_key]
    return _Statement(
        f"UPDATE {table.name} SET {', '.join(c.name + ' = ?' for c in values)} "
        f"WHERE {' AND '.join(c.name + ' = ?' for c in keys)}",
        values + keys, dialect)


class SQLiteLog:
    """Writes batches of log entries, each with its seat and table rows, in one transaction.
    Only ever called from the store's writer thread (``LogWriter``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self.move = _insert(Move.__table__, dialect)  # type: ignore[arg-type]
        self.seat = _update(Seat.__table__, dialect)  # type: ignore[arg-type]
        self.table = _update(Table.__table__, dialect)  # type: ignore[arg-type]
        # a match's result row, once (a finished table row written again adds nothing)
        self.result = _insert(Result.__table__, dialect, "INSERT OR IGNORE")  # type: ignore[arg-type]
        self.result_seat = _insert(
            ResultSeat.__table__, dialect, "INSERT OR IGNORE")  # type: ignore[arg-type]
        self._connection: Any = None

    def write(self, moves: list[Row], seats: list[Row], tables: list[Row]) -> None:
        """Commit the rows, or roll back and raise (``sqlite3.IntegrityError`` when a log
        place is taken)."""
        if self._connection is None:
            self._connection = self.engine.raw_connection()  # pooled, with the pragmas
        db: sqlite3.Connection = self._connection.driver_connection
        try:
            db.executemany(self.move.sql, [self.move.params(r) for r in moves])
            if seats:
                db.executemany(self.seat.sql, [self.seat.params(r) for r in seats])
            if tables:
                db.executemany(self.table.sql, [self.table.params(r) for r in tables])
            for table in finished(tables):
                held = db.execute("SELECT seat, user_id, bot FROM seats WHERE table_id = ? "
                                  "ORDER BY seat", (table["id"],)).fetchall()
                db.execute(self.result.sql, self.result.params(result_row(table)))
                db.executemany(self.result_seat.sql, [
                    self.result_seat.params(r) for r in result_seat_rows(table, held)])
            db.commit()
        except BaseException:
            db.rollback()
            raise

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()  # back to the pool, which the engine then disposes
            self._connection = None
