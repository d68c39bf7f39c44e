"""What a table's command asks of the world: ``Effects``, returned by ``TableCore``, applied by
the actor one way (DESIGN.md §3): **write** (one transaction), then **tell**, and on a write
conflict re-read the table from the store and answer with the command's typed refusal.

Every write is conditional, so of two processes changing one table at once the database lets
one in and the other learns it lost, with nothing half-written:

- a log entry goes at place ``(table, seq)``, which must be free (the entry before it is the
  core's, or the write is stale);
- a seat change (``SeatChange``) happens only while the table is open and the seat is still
  held as the core saw it ("take seat 2 if it is still empty");
- a change of status (the deal, giving an open table up) happens only if the table's status is
  still ``status_was`` and its seats are held as the core saw them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ludoteca.server.errors import ServerError
from ludoteca.server.table.state import ChatLine, LogEntry, SeatState, TableState

Tell = Literal["step", "full", "table", "lobby", "chat", "seats"]
"""Who hears of a change: ``step`` (each viewer its new events), ``full`` (each viewer the
whole table), ``table`` (the summary), ``lobby``, ``chat`` (the new line), ``seats`` (the seats
changed: the actor deals if every seat is taken)."""


@dataclass(frozen=True, slots=True)
class SeatChange:
    """Seat ``seat`` goes from ``was`` to ``now`` (person, bot level), if it is still ``was``
    and the table still open."""

    seat: int
    was: tuple[int | None, str | None]
    now: tuple[int | None, str | None]


@dataclass
class Write:
    """What a command writes, in one transaction."""

    move: LogEntry | None = None
    """A log entry, with what it changed (``seats``' clocks, ``table``)."""
    seats: list[SeatState] = field(default_factory=list)
    table: TableState | None = None
    status_was: str | None = None
    """Without a log entry: write ``table`` and ``seats``' clocks only if the table's status is
    still this and its seats are held as ``seats`` say (None: write them as they are)."""
    seat_changes: list[SeatChange] = field(default_factory=list)
    chat: ChatLine | None = None


@dataclass
class Effects:
    """What a command asks of the world, in order: write, then tell, then the rest."""

    write: Write | None = None
    tell: list[Tell] = field(default_factory=list)
    finished: bool = False
    """The match ended with this command (the finisher: results, ratings, streams)."""
    refusal: ServerError | None = None
    """The answer when another process wrote first (None: the command was stale)."""
