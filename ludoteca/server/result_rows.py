"""The ``results`` and ``result_seats`` rows of a finished match, built from its table row and
seats; the log writer puts them in the transaction of the match's last log entry, so a match
is never over without its result row, nor the other way round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludoteca.bots import identity
from ludoteca.engine.game import Outcome

Row = dict[str, Any]
SeatHeld = tuple[int, int | None, str | None]
"""A seat as the database holds it: ``(seat, user_id, bot)``."""


def participant(user_id: int | None, bot: str | None) -> str:
    """Who played a seat: ``user:<id>``, or the bot's rated identity ``bot:<level>@<version>``
    (a seat a bot took over stays its person's: the match is then not rated)."""
    if bot is not None:
        return identity(bot)
    return f"user:{user_id}"


def user_of(name: str) -> int | None:
    """The user id a participant names (None: a bot)."""
    return int(name.removeprefix("user:")) if name.startswith("user:") else None


def finished(tables: Sequence[Row]) -> list[Row]:
    """The table rows of a write that end a match."""
    return [t for t in tables if t["status"] == "finished" and t["result"] is not None]


def result_row(table: Row) -> Row:
    return {"table_id": table["id"], "game": table["game"], "players": table["players"],
            "options": table["options"], "rated": bool(table["rated"] and not table["zombie"]),
            "finished_at": table["finished_at"], "outcome": table["result"],
            "rated_at": None, "pools": None, "changes": None}


def result_seat_rows(table: Row, seats: Sequence[SeatHeld]) -> list[Row]:
    outcome = Outcome.from_json(table["result"])
    rank = {seat: side.rank for side in outcome.sides for seat in side.seats}
    side_of = outcome.side_of
    return [{"table_id": table["id"], "seat": seat, "participant": participant(user_id, bot),
             "side": side_of[seat], "rank": rank[seat], "score": outcome.scores[seat]}
            for seat, user_id, bot in seats]
