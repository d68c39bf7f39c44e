"""Between the store's rows and a table's plain state (``table/state.py``): the store reads
rows and hands the table plain values, and writes plain values back as rows. The table's core
never sees a row; this is the one place both meet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ludoteca.engine.game import JSON
from ludoteca.server.db import Chat, Move, Seat, Table, User
from ludoteca.server.table.snapshot import TableSnapshot, snapshot_of
from ludoteca.server.table.state import (
    ChatLine,
    LogEntry,
    Person,
    SeatState,
    TableState,
    stamp,
)


def table_state(row: Table) -> TableState:
    return TableState(
        id=row.id, game=row.game, players=row.players, seed=row.seed,
        options=row.options, mode=row.mode, bank_seconds=row.bank_seconds,
        increment_seconds=row.increment_seconds, turn_hours=row.turn_hours, rated=row.rated,
        private=row.private, hints=bool(row.hints), invite=row.invite, status=row.status,
        host_id=row.host_id, zombie=bool(row.zombie), result=row.result,
        rematch_of=row.rematch_of, rematch=row.rematch, tournament=row.tournament,
        created_at=row.created_at, started_at=row.started_at, finished_at=row.finished_at,
    )


def seat_state(row: Seat) -> SeatState:
    return SeatState(row.table_id, row.seat, row.user_id, row.bot, bool(row.zombie),
                     row.bank_seconds or 0.0, row.deadline, row.reserved_for)


def seat_states(rows: Sequence[Seat]) -> list[SeatState]:
    return [seat_state(row) for row in rows]


def person(row: User | Person) -> Person:
    """Someone as a table knows them (a ``Person`` is taken as it is)."""
    if isinstance(row, Person):
        return row
    return Person(row.id, row.name, row.display_name, row.language or "en", row.webhook_url)


def people(rows: Mapping[int, User | Person]) -> dict[int, Person]:
    return {user_id: person(row) for user_id, row in rows.items()}


def log_entry(row: Move) -> LogEntry:
    return LogEntry(row.table_id, row.seq, row.seat, row.kind, row.action, row.at)


def chat_line(user: User | Person | None, row: Chat) -> JSON:
    """A stored chat line as viewers get it (``chat`` messages, ``full``'s ``chat``)."""
    who = person(user) if user is not None else None
    return {"user": who.name if who else "?", "name": who.display_name if who else "?",
            "text": row.text, "at": stamp(row.at)}


def chat_row(line: ChatLine, table_id: str) -> Chat:
    return Chat(table_id=table_id, user_id=line.user_id, text=line.text, at=line.at)


def table_summary(table: Table, seats: Sequence[Seat], users: Mapping[int, User],
                  title: str) -> JSON:
    """A stored table's public summary (the lobby's list, a player's running tables)."""
    return snapshot_of(table_state(table), seat_states(seats), people(users), title).public()


def table_rows(snapshot: TableSnapshot) -> tuple[Table, list[Seat]]:
    """Detached rows carrying the snapshot's values, for code that reads rows (``ratings.rate``);
    never added to a session. The seed is not in a snapshot: 0 here."""
    table = Table(
        id=snapshot.id, game=snapshot.game, players=snapshot.players,
        options=dict(snapshot.options), seed=0, mode=snapshot.mode,
        bank_seconds=snapshot.bank_seconds, increment_seconds=snapshot.increment_seconds,
        turn_hours=snapshot.turn_hours, rated=snapshot.rated, private=snapshot.private,
        hints=snapshot.hints, invite=snapshot.invite, status=snapshot.status,
        host_id=snapshot.host_id, zombie=snapshot.zombie, result=snapshot.result,
        rematch_of=snapshot.rematch_of, rematch=snapshot.rematch,
        tournament=snapshot.tournament, created_at=snapshot.created_at,
        started_at=snapshot.started_at, finished_at=snapshot.finished_at,
    )
    seats = [Seat(table_id=snapshot.id, seat=s.seat, user_id=s.user_id, bot=s.bot,
                  zombie=s.zombie, bank_seconds=0.0, deadline=None) for s in snapshot.seats]
    return table, seats
