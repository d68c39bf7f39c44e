"""What a tournament stores: entrants, a round's draw (tables and byes) and the games' results.

Plain frozen dataclasses that turn into JSON and back (``to_json``/``from_json``), so the arena's
director can keep a round in its database and pair again from what it stored: every pairing
function is a pure function of (entrants, previous results and byes, round number, seed).

Seats are entrant ids in seat order: ``seats[0]`` sits first (moves first where the game has a
first player). A result's ``places`` are 1 for first; seats that tie share a place (a 2-player
draw is ``(1, 1)``, a shared second at four is ``(1, 2, 2, 4)``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_

EntrantId = str


@dataclass(frozen=True)
class Entrant:
    """Someone in the tournament: a person, a bot identity (``bot:hard@3``), a program.
    ``rating`` seeds them (higher first); equal ratings are ordered by the tournament's seed."""

    id: EntrantId
    rating: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rating": self.rating}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(str(data["id"]), float(data.get("rating", 0.0)))


@dataclass(frozen=True)
class TableDraw:
    """One table of a round: board 1 holds the leaders."""

    round: int
    board: int
    seats: tuple[EntrantId, ...]

    @property
    def key(self) -> tuple[int, int]:
        """The result that ends this table has the same key."""
        return (self.round, self.board)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "board": self.board, "seats": list(self.seats)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableDraw:
        return cls(int(data["round"]), int(data["board"]), tuple(map(str, data["seats"])))


@dataclass(frozen=True)
class Bye:
    """A round without a table. A Swiss bye scores the scoring's ``bye`` points; a knockout
    bye goes through to the next round."""

    round: int
    entrant: EntrantId

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "entrant": self.entrant}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bye:
        return cls(int(data["round"]), str(data["entrant"]))


@dataclass(frozen=True)
class RoundDraw:
    """Everything paired for one round: its tables, board by board, and its byes."""

    round: int
    tables: tuple[TableDraw, ...]
    byes: tuple[Bye, ...] = ()

    def entrants(self) -> list[EntrantId]:
        """Everyone in the round, seated or on a bye, in board order."""
        return [e for t in self.tables for e in t.seats] + [b.entrant for b in self.byes]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "tables": [t.to_json() for t in self.tables],
            "byes": [b.to_json() for b in self.byes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundDraw:
        return cls(
            int(data["round"]),
            tuple(TableDraw.from_json(t) for t in data["tables"]),
            tuple(Bye.from_json(b) for b in data.get("byes", ())),
        )


@dataclass(frozen=True)
class GameResult:
    """How one table ended. ``scores`` are the game's own points (crowns and land), used by the
    "game score" tie-break, and may be empty. ``forfeits`` marks seats that forfeited (did not
    show up, ran out of time, a bot that broke the protocol): a forfeiting seat is placed below
    every seat that did not forfeit, whatever ``places`` says (scoring.py)."""

    round: int
    board: int
    seats: tuple[EntrantId, ...]
    places: tuple[int, ...]
    scores: tuple[float, ...] = ()
    forfeits: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.seats)
        if n < 2 or len(set(self.seats)) != n:
            raise OptionError(
                msgid=N_("a table needs at least two different entrants, not {seats}"),
                seats=", ".join(self.seats),
            )
        if len(self.places) != n or any(not 1 <= p <= n for p in self.places):
            raise OptionError(
                msgid=N_("a result needs one place from 1 to {n} per seat, not {places}"),
                n=n, places=", ".join(map(str, self.places)),
            )
        if len(self.scores) not in (0, n) or len(self.forfeits) not in (0, n):
            raise OptionError(
                msgid=N_("a result's scores and forfeits have one value per seat ({n})"), n=n
            )

    @property
    def key(self) -> tuple[int, int]:
        """Which table this is: a round has one result per board."""
        return (self.round, self.board)

    def forfeited(self, seat: int) -> bool:
        return bool(self.forfeits) and self.forfeits[seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "board": self.board, "seats": list(self.seats),
            "places": list(self.places), "scores": list(self.scores),
            "forfeits": list(self.forfeits),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            int(data["round"]), int(data["board"]), tuple(map(str, data["seats"])),
            tuple(int(p) for p in data["places"]),
            tuple(float(s) for s in data.get("scores", ())),
            tuple(bool(f) for f in data.get("forfeits", ())),
        )


def result_from_scores(
    round: int, board: int, seats: Iterable[EntrantId], scores: Iterable[float],
    forfeits: Iterable[bool] = (),
) -> GameResult:
    """A result whose places follow the scores (higher is better, equal scores share a
    place): for games that end in points, and for the command line's bots."""
    seats, scores = tuple(seats), tuple(scores)
    places = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    return GameResult(round, board, seats, places, scores, tuple(forfeits))


def check_results(results: Iterable[GameResult]) -> list[GameResult]:
    """The results as a set, in (round, board) order: the same table reported twice is kept
    once, and two different results for one table are refused (the caller mixed rounds)."""
    results = list(results)
    seen = {(r.round, r.board): r for r in results}
    if len(seen) < len(results):
        for result in results:
            known = seen[(result.round, result.board)]
            if known is not result and known != result:
                raise OptionError(
                    msgid=N_("two different results for round {round}, board {board}"),
                    round=result.round, board=result.board,
                )
    return [seen[key] for key in sorted(seen)]
