"""A finished table's rematch offer, read off the notes of its log (``rematch_offer``,
``rematch_accept``, ``rematch_decline``), so every process agrees on it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ludoteca.engine.game import JSON
from ludoteca.engine.match import Step
from ludoteca.server.table.state import SeatState, stamp


def open_offer(log: Sequence[Step], seats: Sequence[SeatState], now: datetime) -> JSON | None:
    """The open offer: who made it, the seats that accepted (bots always do, and every seat of
    a person who accepted), the seats still to answer and until when; None when there is none
    (declined, expired, or no offer since the end)."""
    accepted: set[int] = set()
    for step in reversed(log):
        kind = step.action.get("type") if step.kind == "note" else None
        if kind == "rematch_accept":
            accepted.add(step.seat)
        elif kind == "rematch_offer":
            until = datetime.fromisoformat(step.action["until"])
            if now >= until:
                return None
            accepted |= {step.seat, *(s.seat for s in seats if s.user_id is None)}
            people = {s.user_id: s.seat for s in seats if s.user_id is not None}
            accepted |= {seat for uid, seat in people.items()
                         if any(seats[a].user_id == uid for a in accepted)}
            waiting = [s.seat for s in seats if s.seat not in accepted]
            return {"by": step.seat, "accepted": sorted(accepted), "waiting": waiting,
                    "until": stamp(until)}
        else:
            return None
    return None


def declined_by(log: Sequence[Step]) -> int | None:
    """The seat whose decline ended the last offer, while nothing came after it (a new offer,
    or the rematch made): every page says so, not only the log."""
    last = log[-1] if log else None
    if last is not None and last.kind == "note" and last.action.get("type") == "rematch_decline":
        return last.seat
    return None
