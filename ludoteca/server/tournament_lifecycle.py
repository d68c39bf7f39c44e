"""The director's decisions, as pure functions of what the database holds (docs/tournaments.md,
"Lifecycle"): what to do next with a tournament, a played table's result, a late table's
result, and the table id of a board. ``director.py`` reads, asks these, and writes."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from ludoteca.engine.game import JSON, Outcome
from ludoteca.tournament.model import GameResult

Step = Literal["wait", "start", "cancel", "pair", "open", "late", "finish"]


@dataclass(frozen=True)
class GameLook:
    board: int
    opened: bool
    decided: bool


@dataclass(frozen=True)
class Look:
    """One tournament as the director reads it: its row, its active entrants and the games of
    its current round."""

    status: str
    starts_at: datetime | None
    min_entrants: int
    max_entrants: int
    entrants: int
    """Registered and not withdrawn."""
    round: int
    round_deadline: datetime | None
    games: tuple[GameLook, ...] = ()
    """The current round's games (an arena: every game)."""
    arena: bool = False
    ends_at: datetime | None = None
    free: int = 0
    """An arena: active entrants not at an undecided table."""
    table_size: int = 2


def next_step(look: Look, now: datetime) -> Step:
    """What the tournament needs now.

    Registering: ``start`` at its time with at least the minimum entered (``cancel`` with
    fewer), or as soon as it is full when it has no time. Running: ``pair`` round 1, then
    ``open`` the tables of a round not yet opened, ``late`` once the round's deadline passed
    with tables undecided, and ``pair`` the next round once every table is decided (the
    director finishes the tournament when the format has no next round). An arena goes by
    :func:`arena_step`."""
    if look.arena:
        return arena_step(look, now)
    if look.status == "registering":
        if look.starts_at is not None and now >= look.starts_at:
            return "start" if look.entrants >= max(2, look.min_entrants) else "cancel"
        if look.starts_at is None and look.entrants >= look.max_entrants:
            return "start"
        return "wait"
    if look.status != "running":
        return "wait"
    if look.round == 0:
        return "pair"
    if any(not g.opened for g in look.games):
        return "open"
    if all(g.decided for g in look.games):
        return "pair"
    if look.round_deadline is not None and now >= look.round_deadline:
        return "late"
    return "wait"


def arena_step(look: Look, now: datetime) -> Step:
    """An arena's next step. Registering: ``start`` at its time with enough entrants
    (``cancel`` with fewer), or, without a time, as soon as ``min_entrants`` (at least two)
    have entered: others may join while it runs. Running: ``open`` the tables paired, ``pair``
    while it is before ``ends_at`` and a table's worth of entrants is free; from ``ends_at``
    nothing is paired, ``finish`` once every table is decided, and ``late`` once
    ``round_deadline`` (the end plus the round's minutes) passed with tables still playing."""
    least = max(2, look.min_entrants)
    if look.status == "registering":
        if look.starts_at is not None and now >= look.starts_at:
            return "start" if look.entrants >= least else "cancel"
        if look.starts_at is None and look.entrants >= least:
            return "start"
        return "wait"
    if look.status != "running":
        return "wait"
    if any(not g.opened for g in look.games):
        return "open"
    if look.ends_at is not None and now < look.ends_at:
        return "pair" if look.free >= look.table_size else "wait"
    if all(g.decided for g in look.games):
        return "finish"
    if look.round_deadline is not None and now >= look.round_deadline:
        return "late"
    return "wait"


def table_id_for(tournament_id: str, round: int, board: int) -> str:
    """The board's table id, the same every time it is asked: a director that restarts between
    pairing and opening opens each table once (12 characters: never a lobby table's 8)."""
    digest = hashlib.sha256(f"{tournament_id}:{round}:{board}".encode()).digest()
    return base64.b32encode(digest).decode()[:12].lower()


def played_result(round: int, board: int, seats: Sequence[str], result: JSON,
                  zombies: Sequence[bool]) -> GameResult:
    """A finished table's result: places are the outcome's ranks, scores its scores; a seat a
    bot took over (out of time, or its player left) forfeits."""
    outcome = Outcome.from_json(result)
    forfeits = tuple(bool(z) for z in zombies)
    return GameResult(round, board, tuple(seats), tuple(outcome.ranks),
                      tuple(float(s) for s in outcome.scores),
                      forfeits if any(forfeits) else ())


def late_result(round: int, board: int, seats: Sequence[str],
                zombies: Sequence[bool]) -> GameResult:
    """A table still playing at the round's deadline. The games offer no provisional ranking,
    so its seats share first place (a draw), and a seat a bot took over forfeits."""
    forfeits = tuple(bool(z) for z in zombies)
    return GameResult(round, board, tuple(seats), (1,) * len(seats), (),
                      forfeits if any(forfeits) else ())


def absent_result(round: int, board: int, seats: Sequence[str],
                  withdrawn: Sequence[bool]) -> GameResult:
    """A board of a fixed schedule (round-robin, knockout) with an entrant who withdrew: no
    table is opened; those who withdrew forfeit, the others share first place."""
    n = len(seats)
    places = tuple(n if w else 1 for w in withdrawn)
    return GameResult(round, board, tuple(seats), places, (), tuple(bool(w) for w in withdrawn))
