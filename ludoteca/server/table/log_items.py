"""A table's log as the match driver reads it: a stored entry as a ``LogItem``, and which
action an undo would take back."""

from __future__ import annotations

from ludoteca.engine.match import LogItem, Match
from ludoteca.server.table.state import LogEntry


def last_act(match: Match) -> int | None:
    """The ``seq`` of the action an undo would take back (each undo in the log took back the
    action in force before it)."""
    pending = 0
    for step in reversed(match.log):
        if step.kind == "undo":
            pending += 1
        elif step.kind == "act":
            if not pending:
                return step.seq
            pending -= 1
    return None


def log_item(move: LogEntry) -> LogItem:
    """A stored log entry as the match driver reads it (``zombie`` is the older name of a
    take-over note)."""
    if move.kind == "act":
        return "act", move.seat, move.action
    if move.kind == "undo":
        return "undo", move.seat, None
    if move.kind == "zombie":
        return "note", move.seat, {"type": "takeover"}
    return "note", move.seat, move.action
