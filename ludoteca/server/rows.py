"""The rows a write sends, built once: updates of whole seat and table rows by key, and the
table row lock that orders conditional writes (PostgreSQL)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, select, update

from ludoteca.server.db import Seat, Table

# Updates of whole rows by key, built once (statements are compiled once per shape).
UPDATE_SEAT = update(Seat).where(
    Seat.table_id == bindparam("k_table"), Seat.seat == bindparam("k_seat")
).values({c.key: bindparam("v_" + c.key) for c in Seat.__table__.columns if not c.primary_key})
UPDATE_TABLE = update(Table).where(Table.id == bindparam("k_id")).values(
    {c.key: bindparam("v_" + c.key) for c in Table.__table__.columns if not c.primary_key}
)


UPDATE_CLOCKS = update(Seat).where(
    Seat.table_id == bindparam("k_table"), Seat.seat == bindparam("k_seat")
).values(bank_seconds=bindparam("v_bank_seconds"), deadline=bindparam("v_deadline"))


def lock_table(conn: Any, table_id: str) -> str | None:
    """The table's status, its row locked until the transaction ends (PostgreSQL)."""
    found = conn.execute(
        select(Table.status).where(Table.id == table_id).with_for_update()
    ).scalar_one_or_none()
    return None if found is None else str(found)


def row_of(model: type[Seat] | type[Table], obj: object) -> dict[str, Any]:
    """A seat's or table's row, column by column, as it is now (``obj``: a row, or a table's
    plain state, ``table/state.py``, whose fields are the columns)."""
    return {c.key: getattr(obj, c.key) for c in model.__table__.columns}


def by_key(model: type[Seat] | type[Table], row: dict[str, Any]) -> dict[str, Any]:
    """``row`` as the parameters of ``UPDATE_SEAT`` or ``UPDATE_TABLE``."""
    return {("k_" if c.primary_key else "v_") + (
        "table" if model is Seat and c.key == "table_id" else c.key): row[c.key]
        for c in model.__table__.columns}


def seat_rows(seats: Sequence[object]) -> list[dict[str, Any]]:
    return [by_key(Seat, row_of(Seat, s)) for s in seats]


def table_row(table: object) -> dict[str, Any]:
    return by_key(Table, row_of(Table, table))
