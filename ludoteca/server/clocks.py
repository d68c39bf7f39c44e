"""Clock arithmetic, kept apart from the actor so the rules of time are plain to read.

Live tables give each seat a bank and an increment (Fischer): a decision starts the seat's
clock, the answer stops it and adds the increment. Turn-based tables give a fixed number of
hours per decision. Only deadlines are stored (``seats.deadline``), so a restarted server
knows at once when each running clock falls.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any, Protocol

from ludoteca.server.table.state import SeatState, TableState


class Holder(Protocol):
    """Who holds a seat: a seat's state, or its stored row (``waiting.py``)."""

    @property
    def bot(self) -> str | None: ...

    @property
    def zombie(self) -> bool: ...


def runs(seat: Holder) -> bool:
    """People's clocks run; bots and seats a bot took over have none."""
    return seat.bot is None and not seat.zombie


def start(table: TableState, seat: SeatState, now: datetime) -> None:
    if not runs(seat):
        seat.deadline = None
        return
    if table.mode == "live":
        seat.deadline = now + timedelta(seconds=max(0.0, seat.bank_seconds))
    else:
        seat.deadline = now + timedelta(hours=table.turn_hours)


def stop(table: TableState, seat: SeatState, now: datetime, answered: bool) -> None:
    """Stop a running clock; a live seat that answered gets its increment."""
    if seat.deadline is not None and table.mode == "live":
        left = max(0.0, (seat.deadline - now).total_seconds())
        seat.bank_seconds = left + (table.increment_seconds if answered else 0.0)
    seat.deadline = None


def after_action(
    table: TableState,
    seats: list[SeatState],
    actor: int | None,
    before: Iterable[int],
    after: Iterable[int],
    now: datetime,
) -> list[SeatState]:
    """Move the clocks past one log entry; the seats whose clocks changed. A seat that stays
    to act while another acts (a simultaneous step) keeps its running clock."""
    before_set, after_set = set(before), set(after)
    changed: list[SeatState] = []
    for seat in seats:
        s = seat.seat
        continuing = s in before_set and s in after_set and s != actor
        if continuing:
            continue
        was, old_bank = seat.deadline, seat.bank_seconds
        if s in before_set or seat.deadline is not None:
            stop(table, seat, now, answered=s == actor)
        if s in after_set:
            start(table, seat, now)
        if seat.deadline != was or seat.bank_seconds != old_bank:
            changed.append(seat)
    return changed


def after_undo(
    table: TableState,
    seats: list[SeatState],
    undoer: int,
    acting: Iterable[int],
    restored: Iterable[int],
    acted_at: datetime,
    now: datetime,
) -> list[SeatState]:
    """Move the clocks back past an undone action (issue 23): ``acting`` are the seats to act
    before the undo, ``restored`` after it, ``acted_at`` when the undone action was made. The
    seats whose clocks changed.

    Every other seat gets its clock as it was before that action: one the action started
    (the waiting opponent) stops with its bank untouched, so the wait is not charged; one the
    action ended goes on with the bank it had. The undoer's live clock gets the deadline it
    had before acting: the time it spent before the action and since stays spent, and the
    increment the action earned goes back, so acting and taking back never buys time.
    Turn-based decisions have no bank: the undoer starts a new decision (bounded by the
    takeback limit, ``engine.match.TAKEBACKS_PER_TURN``)."""
    before_set, after_set = set(acting), set(restored)
    changed: list[SeatState] = []
    for seat in seats:
        s = seat.seat
        was = (seat.deadline, seat.bank_seconds)
        if s == undoer:
            if table.mode == "live" and runs(seat):
                left = max(0.0, seat.bank_seconds - table.increment_seconds)
                seat.deadline = (seat.deadline - timedelta(seconds=table.increment_seconds)
                                 if seat.deadline is not None
                                 else acted_at + timedelta(seconds=left))
                seat.bank_seconds = left
            else:
                start(table, seat, now)
        elif s in before_set and s not in after_set:
            seat.deadline = None
        elif s in after_set and s not in before_set:
            start(table, seat, now)
        if (seat.deadline, seat.bank_seconds) != was:
            changed.append(seat)
    return changed


def expired(seats: Iterable[SeatState], to_act: Iterable[int], now: datetime) -> list[SeatState]:
    acting = set(to_act)
    return [
        s for s in seats
        if s.seat in acting and runs(s) and s.deadline is not None and s.deadline <= now
    ]


def next_deadline(seats: Iterable[SeatState]) -> datetime | None:
    times = [s.deadline for s in seats if runs(s) and s.deadline is not None]
    return min(times) if times else None


def show(table: TableState, seats: Iterable[SeatState], now: datetime) -> list[dict[str, Any]]:
    """What clients are told: per seat, seconds left now and whether the clock runs."""
    out = []
    for seat in seats:
        running = seat.deadline is not None
        if running:
            assert seat.deadline is not None
            left = max(0.0, (seat.deadline - now).total_seconds())
        else:
            left = seat.bank_seconds if table.mode == "live" else table.turn_hours * 3600
        out.append({
            "seat": seat.seat,
            "running": running,
            "seconds": round(left, 1),
            "deadline": seat.deadline.isoformat() if seat.deadline is not None else None,
        })
    return out
