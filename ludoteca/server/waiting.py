"""Tables waiting for a person's move, read off the stored rows: ``your_turn`` in
``GET /api/me/tables`` and the ``waiting`` event that opens a person's event stream."""

from __future__ import annotations

from ludoteca.server import clocks
from ludoteca.server.db import Seat, Table
from ludoteca.server.hub import Hub


def your_turn(table: Table, seats: list[Seat], user_id: int) -> bool:
    """The person's decision is pending: a running clock is exactly a person's decision
    (``clocks.py``: a seat's deadline is set when its decision begins and cleared when it
    ends), so the stored rows answer without rebuilding the match."""
    return table.status == "playing" and any(
        s.user_id == user_id and s.deadline is not None and clocks.runs(s) for s in seats)


async def turn_tables(hub: Hub, user_id: int) -> list[str]:
    """The turn-based tables waiting for the person's move, newest first."""
    rows = [t for t in await hub.store.playing(user_id) if t.mode == "turn"]
    seats = await hub.store.seats_of([t.id for t in rows])
    return [t.id for t in rows if your_turn(t, seats[t.id], user_id)]
