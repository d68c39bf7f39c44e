"""What pairing needs to know about the rounds played: points, who met whom, byes, who sat
first; and the orders and table sizes every format shares."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_
from ludoteca.tournament.model import Bye, Entrant, EntrantId, GameResult, check_results
from ludoteca.tournament.scoring import Scorer


def _pair(a: EntrantId, b: EntrantId) -> tuple[EntrantId, EntrantId]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    """Built from the set of results and byes (their order does not matter)."""

    points: dict[EntrantId, float] = field(default_factory=dict)
    meetings: dict[tuple[EntrantId, EntrantId], int] = field(default_factory=dict)
    byes: dict[EntrantId, int] = field(default_factory=dict)
    games: dict[EntrantId, int] = field(default_factory=dict)
    firsts: dict[EntrantId, int] = field(default_factory=dict)
    """Games in which the entrant sat first."""
    last_first: dict[EntrantId, bool] = field(default_factory=dict)
    """Whether the entrant sat first in their latest game."""

    @classmethod
    def build(
        cls, results: Iterable[GameResult], byes: Iterable[Bye], scorer: Scorer
    ) -> History:
        ordered = check_results(results)
        history = cls()
        points = history.points
        for result, earned in zip(ordered, scorer.points(ordered), strict=True):
            history.seat(result.seats)
            for entrant, gained in zip(result.seats, earned, strict=True):
                points[entrant] = points.get(entrant, 0.0) + gained
        for bye in sorted(set(byes), key=lambda b: (b.round, b.entrant)):
            history.bye(bye.entrant, scorer.bye)
        return history

    def seat(self, seats: Sequence[EntrantId]) -> None:
        """Count a table played (its points aside)."""
        games, meetings, last_first = self.games, self.meetings, self.last_first
        first = seats[0]
        self.firsts[first] = self.firsts.get(first, 0) + 1
        last = len(seats) - 1
        for seat, entrant in enumerate(seats):
            games[entrant] = games.get(entrant, 0) + 1
            last_first[entrant] = seat == 0
            if seat < last:
                for other in seats[seat + 1 :]:
                    key = (entrant, other) if entrant < other else (other, entrant)
                    meetings[key] = meetings.get(key, 0) + 1

    def bye(self, entrant: EntrantId, points: float) -> None:
        self.points[entrant] = self.points.get(entrant, 0.0) + points
        self.byes[entrant] = self.byes.get(entrant, 0) + 1

    def met(self, a: EntrantId, b: EntrantId) -> int:
        """How many times a and b have sat at one table."""
        return self.meetings.get(_pair(a, b), 0)

    def first_debt(self, entrant: EntrantId, table_size: int) -> float:
        """How many more times than their share the entrant sat first (negative: owed)."""
        return self.firsts.get(entrant, 0) - self.games.get(entrant, 0) / table_size


def tie_key(seed: int, entrant: EntrantId) -> bytes:
    """A seeded, stable order among entrants nothing else separates."""
    return hashlib.blake2b(f"{seed}\0{entrant}".encode(), digest_size=8).digest()


def ranked(entrants: Sequence[Entrant], history: History, seed: int) -> list[EntrantId]:
    """The standings order pairing uses: points, then rating, then the seed's order."""
    return [
        e.id for e in sorted(
            entrants,
            key=lambda e: (-history.points.get(e.id, 0.0), -e.rating, tie_key(seed, e.id)),
        )
    ]


def check_entrants(entrants: Sequence[Entrant], least: int) -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise OptionError(msgid=N_("entrant {entrant!r} is entered twice"), entrant=twice[0])
    if len(ids) < least:
        raise OptionError(
            msgid=N_("a round needs at least {least} entrants, not {n}"), least=least, n=len(ids)
        )


def table_sizes(n: int, table_size: int, min_table: int) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``n`` entrants: as many tables as
    seat everyone with no table below ``min_table``; sizes differ by at most one; byes only
    when no such split exists (then full tables and the rest on byes)."""
    if not 2 <= min_table <= table_size:
        raise OptionError(
            msgid=N_("the smallest table must be from 2 to {size} seats, not {min}"),
            size=table_size, min=min_table,
        )
    tables = -(-n // table_size)
    if tables * min_table > n:
        tables = n // table_size
        seated = tables * table_size
    else:
        seated = n
    if tables == 0:
        return [], n
    q, r = divmod(seated, tables)
    return [q + 1] * r + [q] * (tables - r), n - seated


def seat_order(
    members: Sequence[EntrantId], history: History, table_size: int, board: int
) -> tuple[EntrantId, ...]:
    """Seats for a table whose ``members`` are in standings order: whoever sat first least
    often (against their share) sits first, then whoever did not sit first last time; with
    nothing between them, the better-ranked sits first on odd boards, the other on even ones."""
    rank = {e: i if board % 2 else -i for i, e in enumerate(members)}
    return tuple(sorted(
        members,
        key=lambda e: (history.first_debt(e, table_size), history.last_first.get(e, False),
                       rank[e]),
    ))


def bye_takers(order: Sequence[EntrantId], history: History, count: int) -> list[EntrantId]:
    """Who gets the ``count`` byes: those with the fewest byes so far, lowest-ranked first."""
    position = {e: i for i, e in enumerate(order)}
    chosen = sorted(order, key=lambda e: (history.byes.get(e, 0), -position[e]))[:count]
    return sorted(chosen, key=position.__getitem__)
