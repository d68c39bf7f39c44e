"""Tournament points from places: Swiss and round-robin place points, and arena points with a
streak bonus. docs/tournaments.md states the rules in words.

- **Place points** (:class:`Scoring`): a full table of N pays ``points[place - 1]``; by default
  1 for a win and 0 for a loss at two players (a draw ½ each), and 2 × (N − place) above two
  (+6/+4/+2/0 at four, +4/+2/0 at three). Seats that tie share the mean of the places they
  cover. A smaller table (``min_table``) pays each place what the same fraction of the way down
  a full table pays, interpolated: a three-seat table in a four-player Swiss pays 6/3/0, so its
  winner earns what a winner earns and its mean is the same. A bye pays ``bye`` (default: a
  win).
- **Arena points** (:class:`ArenaScoring`): 2 × (N − place), so 2 for a win and 1 for a draw
  at two players; after two wins in a row an entrant is *on fire* and every game scores double
  (a win 4, a draw 2) until a game that is not a win. A win is first place alone.

A seat that forfeited is placed below every seat that did not (:func:`effective_places`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_
from ludoteca.tournament.model import EntrantId, GameResult

GamePoints = tuple[float, ...]
"""A result's points, seat by seat."""


def effective_places(result: GameResult) -> tuple[int, ...]:
    """``places`` with every forfeiting seat moved below every seat that did not forfeit."""
    if not any(result.forfeits):
        return result.places
    keys = [(result.forfeited(s), p) for s, p in enumerate(result.places)]
    return tuple(1 + sum(other < mine for other in keys) for mine in keys)


@lru_cache(maxsize=4096)
def shared(points: tuple[float, ...], places: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's points for its place, tied seats sharing the mean of the places they cover
    (two seats tied for 2nd share the points of 2nd and 3rd). Cached: a tournament has few
    different (points, places)."""
    out = []
    for place in places:
        tied = places.count(place)
        covered = points[place - 1 : place - 1 + tied]
        out.append(sum(covered) / tied)
    return tuple(out)


def won(places: Sequence[int], seat: int) -> bool:
    """First place alone."""
    return places[seat] == 1 and places.count(1) == 1


def default_points(table_size: int) -> tuple[float, ...]:
    if table_size == 2:
        return (1.0, 0.0)
    return tuple(2.0 * (table_size - place) for place in range(1, table_size + 1))


class Scorer(Protocol):
    """How results become tournament points (standings.py sums them)."""

    @property
    def bye(self) -> float: ...

    def points(self, results: Sequence[GameResult]) -> list[GamePoints]:
        """Each result's points seat by seat, ``results`` being in (round, board) order."""
        ...


@dataclass(frozen=True)
class Scoring:
    """Place points for tables of ``table_size`` (see the module docstring)."""

    table_size: int
    place_points: tuple[float, ...] = ()
    bye_points: float | None = None

    def __post_init__(self) -> None:
        if self.table_size < 2:
            raise OptionError(
                msgid=N_("a table has at least 2 seats, not {size}"), size=self.table_size
            )
        if self.place_points and len(self.place_points) != self.table_size:
            raise OptionError(
                msgid=N_("give one number of points per place ({size}), not {given}"),
                size=self.table_size, given=len(self.place_points),
            )

    @property
    def full(self) -> tuple[float, ...]:
        return self.place_points or default_points(self.table_size)

    @property
    def bye(self) -> float:
        return self.full[0] if self.bye_points is None else self.bye_points

    def table_points(self, size: int) -> tuple[float, ...]:
        """Points per place at a table of ``size`` seats (at most ``table_size``)."""
        return _table_points(self.full, size)

    def game_points(self, result: GameResult) -> GamePoints:
        return shared(_table_points(self.full, len(result.seats)), effective_places(result))

    def points(self, results: Sequence[GameResult]) -> list[GamePoints]:
        full = self.full
        return [shared(_table_points(full, len(r.seats)), effective_places(r)) for r in results]


@lru_cache(maxsize=256)
def _table_points(full: tuple[float, ...], size: int) -> tuple[float, ...]:
    """Points per place at a table of ``size`` of a tournament paying ``full`` (module
    docstring: smaller tables are interpolated)."""
    n = len(full)
    if size == n:
        return full
    if not 2 <= size <= n:
        raise OptionError(
            msgid=N_("a table of {size} in a tournament of tables of {n}"), size=size, n=n
        )
    out = []
    for place in range(size):
        x = place * (n - 1) / (size - 1)
        low = int(x)
        high = min(low + 1, n - 1)
        out.append(full[low] + (full[high] - full[low]) * (x - low))
    return tuple(out)


@dataclass(frozen=True)
class ArenaScoring:
    """Arena points with the streak bonus (module docstring); ``streaks=False`` turns it off.
    Results are scored in (round, board) order: in an arena ``round`` numbers the games in the
    order they were paired."""

    streaks: bool = True

    @property
    def bye(self) -> float:
        return 0.0

    def points(self, results: Sequence[GameResult]) -> list[GamePoints]:
        wins_in_a_row: dict[EntrantId, int] = {}
        out = []
        for result in results:
            size = len(result.seats)
            places = effective_places(result)
            base = shared(tuple(2.0 * (size - p) for p in range(1, size + 1)), places)
            earned = []
            for seat, entrant in enumerate(result.seats):
                on_fire = self.streaks and wins_in_a_row.get(entrant, 0) >= 2
                earned.append(base[seat] * (2 if on_fire else 1))
                streak = wins_in_a_row.get(entrant, 0)
                wins_in_a_row[entrant] = streak + 1 if won(places, seat) else 0
            out.append(tuple(earned))
        return out

    def on_fire(self, results: Sequence[GameResult]) -> set[EntrantId]:
        """Who is on fire after these results (their next game scores double)."""
        streak: dict[EntrantId, int] = {}
        for result in results:
            places = effective_places(result)
            for seat, entrant in enumerate(result.seats):
                streak[entrant] = streak.get(entrant, 0) + 1 if won(places, seat) else 0
        return {e for e, n in streak.items() if self.streaks and n >= 2}
