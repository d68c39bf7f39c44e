"""One front for every format: a tournament's :class:`Format`, the next round's draw
(:func:`pair_round`) and the standings (:func:`format_standings`), for the arena's director and
``ludoteca tournament`` alike. Pure functions of (format, entrants, results, byes, round, seed):
pairing a round twice gives the same draw, so a director may re-pair after a restart.

The formats live in their own modules: ``swiss`` (2 players), ``multiplayer`` (Swiss and
round-robin tables of N), ``roundrobin``, ``knockout`` and ``arena``; points in ``scoring``,
tie-breaks in ``standings``. docs/tournaments.md describes them for players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_
from ludoteca.tournament.history import History
from ludoteca.tournament.knockout import knockout_draws, knockout_round
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.multiplayer import pair_swiss_tables
from ludoteca.tournament.roundrobin import round_robin
from ludoteca.tournament.scoring import ArenaScoring, Scorer, Scoring, effective_places
from ludoteca.tournament.standings import (
    Standing,
    Standings,
    default_tiebreaks,
    standings,
)
from ludoteca.tournament.swiss import pair_swiss

FORMATS = ("swiss", "round-robin", "knockout", "arena")


@dataclass(frozen=True)
class Format:
    """How a tournament is played. ``rounds``: a Swiss's length (required), a multiplayer
    round-robin's (default: enough for everyone to meet everyone); ``cycles``: a 2-player
    round-robin played this many times over (seats swapped); ``advance``: how many of each
    knockout table go through; ``min_table``: the smallest table allowed (default: full
    tables only, byes for the rest); ``place_points``/``bye_points``: scoring.Scoring's;
    ``tiebreaks``: keys of standings.TIEBREAKS (default: the format's); ``minutes``: an arena's
    time box."""

    kind: str = "swiss"
    table_size: int = 2
    rounds: int | None = None
    min_table: int | None = None
    cycles: int = 1
    advance: int = 1
    place_points: tuple[float, ...] = ()
    bye_points: float | None = None
    tiebreaks: tuple[str, ...] = ()
    minutes: float | None = None
    """An arena's length, from its start (the server requires it; the pairing ignores it)."""

    def __post_init__(self) -> None:
        if self.kind not in FORMATS:
            raise OptionError(
                msgid=N_("unknown format {format!r}; known: {known}"),
                format=self.kind, known=", ".join(FORMATS),
            )
        if self.kind == "swiss" and (self.rounds is None or self.rounds < 1):
            raise OptionError(msgid=N_("a Swiss needs a number of rounds, 1 or more"))
        if self.cycles < 1:
            raise OptionError(
                msgid=N_("everyone meets everyone at least once: cycles must be 1 or more")
            )

    @property
    def scorer(self) -> Scorer:
        if self.kind == "arena":
            return ArenaScoring()
        return Scoring(self.table_size, self.place_points, self.bye_points)

    @property
    def tiebreak_keys(self) -> tuple[str, ...]:
        if self.tiebreaks or self.kind == "knockout":
            return self.tiebreaks
        return default_tiebreaks(self.kind, self.table_size)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "table_size": self.table_size, "rounds": self.rounds,
            "min_table": self.min_table, "cycles": self.cycles, "advance": self.advance,
            "place_points": list(self.place_points), "bye_points": self.bye_points,
            "tiebreaks": list(self.tiebreaks), "minutes": self.minutes,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Format:
        return cls(
            str(data["kind"]), int(data.get("table_size", 2)), data.get("rounds"),
            data.get("min_table"), int(data.get("cycles", 1)), int(data.get("advance", 1)),
            tuple(float(p) for p in data.get("place_points", ())), data.get("bye_points"),
            tuple(map(str, data.get("tiebreaks", ()))),
            None if data.get("minutes") is None else float(data["minutes"]),
        )


def pair_round(
    fmt: Format, entrants: Sequence[Entrant], results: Iterable[GameResult],
    byes: Iterable[Bye], round: int, seed: int = 0,
) -> RoundDraw | None:
    """Round ``round``'s draw, or None when the tournament has no such round. ``entrants``
    are those still playing (a Swiss pairs whoever has not withdrawn); an arena is paired
    by arena.arena_tables as entrants come free, not in rounds."""
    if fmt.kind == "swiss":
        if round > (fmt.rounds or 0):
            return None
        if fmt.table_size == 2:
            return pair_swiss(entrants, results, byes, round, seed, fmt.scorer)
        return pair_swiss_tables(entrants, results, byes, round, fmt.table_size, fmt.min_table,
                                 seed, fmt.scorer)
    if fmt.kind == "round-robin":
        schedule = round_robin(entrants, fmt.table_size, seed, fmt.cycles, fmt.rounds,
                               fmt.min_table)
        return schedule[round - 1] if round <= len(schedule) else None
    if fmt.kind == "knockout":
        return knockout_round(entrants, results, round, seed, fmt.table_size, fmt.advance,
                              fmt.min_table)
    raise OptionError(msgid=N_("an arena pairs entrants as they come free, not in rounds"))


def format_standings(
    fmt: Format, entrants: Sequence[Entrant], results: Iterable[GameResult],
    byes: Iterable[Bye], seed: int = 0,
) -> Standings:
    """The standings as the format ranks them. A knockout ranks by the round reached, then by
    the place in it; its "points" are the round reached."""
    if fmt.kind != "knockout":
        return standings(entrants, results, byes, fmt.scorer, fmt.tiebreak_keys)
    results = list(results)
    draws = knockout_draws(entrants, results, seed, fmt.table_size, fmt.advance, fmt.min_table)
    played = {r.key: r for r in results}
    reached: dict[str, tuple[int, int]] = {}
    for draw in draws:
        for bye in draw.byes:
            reached[bye.entrant] = (draw.round, 1)
        for table in draw.tables:
            result = played.get(table.key)
            places = effective_places(result) if result else (1,) * len(table.seats)
            for who, p in zip(result.seats if result else table.seats, places, strict=True):
                reached[who] = (draw.round, p)
    history = History.build(results, (), fmt.scorer)
    order = sorted(
        entrants, key=lambda e: (-reached[e.id][0], reached[e.id][1], -e.rating, e.id)
    )
    rows: list[Standing] = []
    for i, e in enumerate(order):
        tied = rows and reached[rows[-1].entrant] == reached[e.id]
        rows.append(Standing(
            rank=rows[-1].rank if tied else i + 1, entrant=e.id,
            points=float(reached[e.id][0]), tiebreaks=(), games=history.games.get(e.id, 0),
            byes=sum(b.entrant == e.id for d in draws for b in d.byes),
        ))
    return Standings((), tuple(rows))
