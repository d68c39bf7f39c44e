"""Standings: points, then tie-breaks, each with a name and a sentence in English and Spanish.

Standings are computed from the **set** of results (``check_results`` puts them in (round,
board) order first), never added up as results arrive, so the order in which tables finish
cannot change them, down to the last bit of a float.

Tie-breaks (docs/tournaments.md):

- ``buchholz``: the sum of the final points of every opponent met at a table, one term per
  opponent per game. A bye brings no opponent and adds nothing.
- ``buchholz_cut1``: Buchholz without the single lowest term (the weakest opponent met).
- ``sonneborn_berger``: for every opponent at every table, their final points times what you
  scored against them (1 ahead of them, ½ tied, 0 behind): at two players, the points of those
  you beat plus half the points of those you drew with.
- ``opponents_points``: per game, the mean final points of the others at the table, summed
  (the multiplayer Buchholz; a mean so a smaller table is not worth less).
- ``game_score``: the game's own points (``GameResult.scores``) over all games.
- ``wins``: games finished first alone (a forfeit is never a win).

Ranks are shared when points and every tie-break are equal; the order among them is then
rating (higher first) and id, so it is stable but says nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_
from ludoteca.tournament.model import Bye, Entrant, EntrantId, GameResult, check_results
from ludoteca.tournament.scoring import Scorer, effective_places, won


@dataclass
class Played:
    """One entrant's game, as the tie-breaks read it."""

    opponents: tuple[EntrantId, ...]
    against: tuple[float, ...]
    """Per opponent: 1 if this entrant finished ahead, ½ tied, 0 behind."""
    points: float
    score: float
    win: bool


@dataclass
class Ledger:
    """Everything the tie-breaks need, built once from the results."""

    points: dict[EntrantId, float]
    games: dict[EntrantId, list[Played]] = field(default_factory=dict)
    byes: dict[EntrantId, int] = field(default_factory=dict)


def _buchholz(ledger: Ledger, e: EntrantId) -> float:
    return sum(ledger.points[o] for g in ledger.games[e] for o in g.opponents)


def _buchholz_cut1(ledger: Ledger, e: EntrantId) -> float:
    terms = [ledger.points[o] for g in ledger.games[e] for o in g.opponents]
    return sum(terms) - min(terms) if terms else 0.0


def _sonneborn_berger(ledger: Ledger, e: EntrantId) -> float:
    return sum(
        share * ledger.points[o]
        for g in ledger.games[e] for o, share in zip(g.opponents, g.against, strict=True)
    )


def _opponents_points(ledger: Ledger, e: EntrantId) -> float:
    return sum(
        sum(ledger.points[o] for o in g.opponents) / len(g.opponents) for g in ledger.games[e]
    )


def _game_score(ledger: Ledger, e: EntrantId) -> float:
    return sum(g.score for g in ledger.games[e])


def _wins(ledger: Ledger, e: EntrantId) -> float:
    return float(sum(g.win for g in ledger.games[e]))


@dataclass(frozen=True)
class TieBreak:
    """A tie-break: its key (in JSON), its name and its rule in one sentence (message ids)."""

    key: str
    name: str
    rule: str
    compute: Callable[[Ledger, EntrantId], float]


TIEBREAKS: dict[str, TieBreak] = {
    t.key: t
    for t in (
        TieBreak(
            "buchholz", N_("Buchholz"),
            N_("The points of every opponent you played, added up: a harder field counts "
               "for more."),
            _buchholz,
        ),
        TieBreak(
            "buchholz_cut1", N_("Buchholz cut 1"),
            N_("Buchholz without your weakest opponent, so one easy game counts for less."),
            _buchholz_cut1,
        ),
        TieBreak(
            "sonneborn_berger", N_("Sonneborn-Berger"),
            N_("The points of every opponent you finished ahead of, plus half the points of "
               "those you tied with."),
            _sonneborn_berger,
        ),
        TieBreak(
            "opponents_points", N_("Opponents' points"),
            N_("For each of your games, the average points of the others at your table, "
               "added up."),
            _opponents_points,
        ),
        TieBreak(
            "game_score", N_("Game score"),
            N_("All the points you scored in your games themselves, added up."),
            _game_score,
        ),
        TieBreak(
            "wins", N_("Wins"), N_("The games you finished first, alone."), _wins,
        ),
    )
}

DEFAULT_TIEBREAKS: dict[tuple[str, bool], tuple[str, ...]] = {
    ("swiss", False): ("buchholz_cut1", "buchholz", "sonneborn_berger"),
    ("swiss", True): ("opponents_points", "game_score"),
    ("round-robin", False): ("sonneborn_berger", "wins"),
    ("round-robin", True): ("sonneborn_berger", "game_score"),
    ("arena", False): ("wins", "game_score"),
    ("arena", True): ("wins", "game_score"),
}
"""Per (format, more than two players): the tie-breaks in the order they apply."""


def default_tiebreaks(format: str, table_size: int) -> tuple[str, ...]:
    return DEFAULT_TIEBREAKS[(format, table_size > 2)]


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: EntrantId
    points: float
    tiebreaks: tuple[float, ...]
    games: int
    byes: int

    def to_json(self, keys: Sequence[str]) -> dict[str, Any]:
        return {
            "rank": self.rank, "entrant": self.entrant, "points": self.points,
            "tiebreaks": dict(zip(keys, self.tiebreaks, strict=True)),
            "games": self.games, "byes": self.byes,
        }


@dataclass(frozen=True)
class Standings:
    """The table: rows best first, and the tie-breaks' keys in the order they apply."""

    tiebreaks: tuple[str, ...]
    rows: tuple[Standing, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "tiebreaks": [
                {"key": k, "name": TIEBREAKS[k].name, "rule": TIEBREAKS[k].rule}
                for k in self.tiebreaks
            ],
            "rows": [row.to_json(self.tiebreaks) for row in self.rows],
        }

    def points(self) -> dict[EntrantId, float]:
        return {row.entrant: row.points for row in self.rows}


def ledger(
    entrants: Iterable[EntrantId], results: Iterable[GameResult], byes: Iterable[Bye],
    scorer: Scorer,
) -> Ledger:
    """Points, games and byes per entrant; OptionError for a result naming a stranger."""
    ids = list(entrants)
    book = Ledger(points=dict.fromkeys(ids, 0.0), games={e: [] for e in ids},
                  byes=dict.fromkeys(ids, 0))
    ordered = check_results(results)
    for result, earned in zip(ordered, scorer.points(ordered), strict=True):
        places = effective_places(result)
        for seat, entrant in enumerate(result.seats):
            if entrant not in book.points:
                raise OptionError(
                    msgid=N_("round {round} has a result for {entrant}, who is not entered"),
                    round=result.round, entrant=entrant,
                )
            others = [s for s in range(len(result.seats)) if s != seat]
            mine = places[seat]
            book.points[entrant] += earned[seat]
            book.games[entrant].append(Played(
                opponents=tuple(result.seats[s] for s in others),
                against=tuple(
                    1.0 if mine < places[s] else 0.5 if mine == places[s] else 0.0
                    for s in others
                ),
                points=earned[seat],
                score=result.scores[seat] if result.scores else 0.0,
                win=won(places, seat),
            ))
    for bye in sorted(set(byes), key=lambda b: (b.round, b.entrant)):
        if bye.entrant not in book.points:
            raise OptionError(
                msgid=N_("round {round} has a result for {entrant}, who is not entered"),
                round=bye.round, entrant=bye.entrant,
            )
        book.points[bye.entrant] += scorer.bye
        book.byes[bye.entrant] += 1
    return book


def standings(
    entrants: Sequence[Entrant],
    results: Iterable[GameResult],
    byes: Iterable[Bye],
    scorer: Scorer,
    tiebreaks: Sequence[str],
) -> Standings:
    """Everyone in order: points, then each tie-break in turn (all higher is better)."""
    unknown = [k for k in tiebreaks if k not in TIEBREAKS]
    if unknown:
        raise OptionError(
            msgid=N_("unknown tie-break {name!r}; known: {known}"),
            name=unknown[0], known=", ".join(TIEBREAKS),
        )
    book = ledger((e.id for e in entrants), results, byes, scorer)
    rating = {e.id: e.rating for e in entrants}
    values = {
        e.id: tuple(TIEBREAKS[k].compute(book, e.id) for k in tiebreaks) for e in entrants
    }
    order = sorted(
        rating, key=lambda e: (-book.points[e], tuple(-v for v in values[e]), -rating[e], e)
    )
    rows: list[Standing] = []
    for i, e in enumerate(order):
        tied = rows and (rows[-1].points, rows[-1].tiebreaks) == (book.points[e], values[e])
        rows.append(Standing(
            rank=rows[-1].rank if tied else i + 1, entrant=e, points=book.points[e],
            tiebreaks=values[e], games=len(book.games[e]), byes=book.byes[e],
        ))
    return Standings(tuple(tiebreaks), tuple(rows))


def points_of(
    entrants: Iterable[EntrantId], results: Iterable[GameResult], byes: Iterable[Bye],
    scorer: Scorer,
) -> Mapping[EntrantId, float]:
    """Just the points (what pairing needs)."""
    return ledger(entrants, results, byes, scorer).points
