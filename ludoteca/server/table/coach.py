"""The coach at a live table (a table created with ``hints``; never a rated one): a seated
player asks at their own decision, the move is chosen in the bot processes from that seat's
view alone (``analysis.hint``), and only that player's socket hears it. That a hint was used
is logged as a public note, so everyone sees it and the match record keeps it."""

from __future__ import annotations

from datetime import datetime

from ludoteca.engine.game import JSON
from ludoteca.engine.i18n import N_, Voice
from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError
from ludoteca.server.table.core import TableCore
from ludoteca.server.table.effects import Effects

WHY = N_("This move gives you a {win}% chance to win and about {score} points at the end; "
         "the next best move gives {next_win}%.")
WHY_ONLY = N_("This is your only move: it gives you a {win}% chance to win and about {score} "
              "points at the end.")


def asked(core: TableCore, seat: int, seq: int, now: datetime
          ) -> tuple[JSON, int, int, Effects | None]:
    """Check a hint request like an action answering ``seq``; the seat's view, the move's
    number (for the seed), the ``seq`` its decision began at, and, the first time at this
    decision, the note to log."""
    if not core.table.hints:
        raise ServerError("hints_off", E.HINTS_OFF, 403)
    if core.is_bot(seat):
        raise ServerError("not_playing", E.NOT_PLAYING, 409)
    match = core.match
    if match is None or core.table.status != "playing":
        raise ServerError("not_playing", E.NOT_PLAYING, 409)
    match.check(seat, seq)  # not your turn, stale: as an action would be told
    since = match.decision(seat) or 0
    used = any(step.kind == "note" and step.seat == seat and step.action.get("type") == "hint"
               for step in match.log[since:])
    view = match.view(seat)
    ply = len(match.actions)
    note = None if used else core.note(seat, {"type": "hint", "ply": ply}, now)
    return view, ply, since, note


def why(suggestion: JSON, say: Voice) -> str:
    """One sentence, in the asker's language: what the move is worth, and against what."""
    rest = suggestion.get("next")
    if rest is None:
        return say.t(WHY_ONLY, win=_pct(suggestion["win"]), score=_points(suggestion["score"]))
    return say.t(WHY, win=_pct(suggestion["win"]), score=_points(suggestion["score"]),
                 next_win=_pct(rest["win"]))


def _pct(value: float) -> str:
    return f"{value:.0f}"


def _points(value: float) -> str:
    return f"{value:.0f}"
