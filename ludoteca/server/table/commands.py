"""What may be asked of a table: typed commands, plain frozen values named for what the caller
asks, each answered with a ``Reply`` (DESIGN.md §3). A table's actor takes them one at a time
(``TableActor.handle``, one method per command type); everyone else sends them through a
``TableRef``. Being values, not closures, they can be logged, queued, tested, and one day sent
to the process that runs the table.

Seats are numbered from 0; people are named by their user id (the actor reads whom it
needs). A command refused raises the refusal (a typed ``LudotecaError``) to its sender.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ludoteca.engine.game import JSON
from ludoteca.engine.record import MatchRecord
from ludoteca.server.connection import Connection
from ludoteca.server.table.snapshot import TableSnapshot


# ---- a seated player, at the table --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Act:
    """The seat's action, answering the decision numbered ``seq``."""

    seat: int
    seq: int
    action: object


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot's move for its seat (the table's own bots: ``turns.py``)."""

    seat: int
    seq: int
    action: JSON


@dataclass(frozen=True, slots=True)
class Undo:
    seat: int
    seq: int


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's move for the seat at decision ``seq`` (the reply's ``hint``)."""

    seat: int
    seq: int


@dataclass(frozen=True, slots=True)
class Rematch:
    """Offer or accept a rematch (``accept``), or decline the open offer."""

    seat: int
    accept: bool


# ---- anyone signed in -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Chat:
    user_id: int
    text: str


@dataclass(frozen=True, slots=True)
class Join:
    """Take ``seat`` (None: the first free one); a private table wants its invite."""

    user_id: int
    seat: int | None
    invite: str | None


@dataclass(frozen=True, slots=True)
class Leave:
    """Free one's seat at an open table; a bot takes it over in a match being played."""

    user_id: int


@dataclass(frozen=True, slots=True)
class AddBot:
    user_id: int
    level: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class RemoveSeat:
    """The host frees another's seat before the start (the reply's ``removed``)."""

    user_id: int
    seat: int


# ---- the server -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Deal:
    """A table just stored with its seats: deal if every seat is taken."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """A clock ran out: bots take over the seats out of time."""


@dataclass(frozen=True, slots=True)
class Expire:
    """Give up an open table nobody filled in time (the reply's ``done``: it was)."""


@dataclass(frozen=True, slots=True)
class Drop:
    """Give up a table made twice (a rematch another process made first), unplayed."""


@dataclass(frozen=True, slots=True)
class CatchUp:
    """Read what other processes wrote to the table."""


@dataclass(frozen=True, slots=True)
class ChatHeard:
    """A chat line another process wrote: this process's viewers hear it."""

    line: JSON


@dataclass(frozen=True, slots=True)
class UserChanged:
    """A person's account changed (a new name, language or webhook): read it again."""

    user_id: int


@dataclass(frozen=True, slots=True)
class Sync:
    """The whole table as the person's socket is sent it (the reply's ``text``)."""

    user_id: int | None
    lang: str


@dataclass(frozen=True, slots=True)
class Record:
    """The match record as of now (the reply's ``record``; None while the table is open)."""


Command = (Act | BotMove | Undo | Hint | Rematch | Chat | Join | Leave | AddBot | RemoveSeat
           | Deal | Timeout | Expire | Drop | CatchUp | ChatHeard | UserChanged | Sync | Record)


@dataclass(frozen=True, slots=True)
class Subscribe:
    """A socket of this process starts watching (``TableRef.subscribe``): not a ``Command``,
    since a socket cannot leave its process."""

    conn: Connection


@dataclass(frozen=True, slots=True)
class Reply:
    """The table right after the command, and what the command answers beyond it."""

    snapshot: TableSnapshot
    done: bool = True
    removed: int | None = None
    """``RemoveSeat``: the person removed (None: a bot)."""
    text: str | None = None
    record: MatchRecord | None = None
    hint: asyncio.Future[JSON] | None = None
    """``Hint``: the coach's move, chosen in the bot processes; shared by every socket of the
    seat asking at that decision."""
