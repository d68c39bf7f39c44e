"""A table's plain state, owned by its ``TableCore``: the table's settings and status, its
seats, the people it knows, the log entries it writes and its chat lines.

These are plain slotted dataclasses, not the store's rows: the core changes them in memory and
says, as ``Effects``, what to write; the store turns rows into these and these into rows
(``server/state_rows.py``). So the core is tested and reasoned about without a database, and
nothing the core holds is ever written behind its back by an ORM session. Field names are the
rows' column names, so a row and its state read alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


def utcnow() -> datetime:
    return datetime.now(UTC)


def stamp(when: datetime | None) -> str | None:
    """A moment as clients are sent it (ISO 8601, to the second)."""
    return when.isoformat(timespec="seconds") if when is not None else None


@dataclass(slots=True)
class TableState:
    """The table: what it is (fixed at its creation) and where it stands (status, result)."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    mode: str = "live"
    """``live`` (a bank per seat plus an increment per move) or ``turn`` (hours a move)."""
    bank_seconds: float = 0.0
    increment_seconds: float = 0.0
    turn_hours: float = 0.0
    rated: bool = False
    private: bool = False
    hints: bool = False
    invite: str = ""
    status: str = "open"
    """``open`` (seats to fill), ``playing``, ``finished`` or ``abandoned``."""
    host_id: int = 0
    zombie: bool = False
    """A bot took over a seat: the match is not rated."""
    result: dict[str, Any] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    tournament: str | None = None
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


@dataclass(slots=True)
class SeatState:
    """One seat: who holds it (a person, a bot level, or nobody) and its clock."""

    table_id: str
    seat: int
    user_id: int | None = None
    bot: str | None = None
    zombie: bool = False
    """A bot took the seat over for good (out of time, or the person left)."""
    bank_seconds: float = 0.0
    deadline: datetime | None = None
    reserved_for: int | None = None
    """The person this seat is kept for while free (a challenge): nobody else, and no bot,
    takes it."""

    @property
    def held(self) -> tuple[int | None, str | None]:
        """Who holds the seat: (person, bot level); (None, None) when free."""
        return self.user_id, self.bot


@dataclass(frozen=True, slots=True)
class Person:
    """Someone the table knows (seated now or before, its host): what it shows and uses."""

    id: int
    name: str
    """The sign-in name."""
    display_name: str
    language: str = "en"
    webhook_url: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a table's log, as written and as read back: an action, an undo or a note."""

    table_id: str
    seq: int
    seat: int
    kind: str
    action: dict[str, Any] | None
    at: datetime


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line as the table keeps it (escaped, as viewers draw it) and as it is written."""

    user_id: int
    user: str
    """The speaker's sign-in name."""
    name: str
    """The speaker's display name."""
    text: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        """As viewers get it (``chat`` messages, ``full``'s ``chat``)."""
        return {"user": self.user, "name": self.name, "text": self.text, "at": stamp(self.at)}
