"""Arena pairing: whoever is free is seated as soon as a table can be filled.

The director calls :func:`arena_tables` whenever entrants are free (a game ended, someone
joined), with a new ``wave`` number each time; ``(wave, board)`` then names each game, and
arena points (scoring.ArenaScoring) count games in that order. Free entrants are taken by arena
points (then rating and the seed's order) and seated by :func:`fill_tables`: each table starts
with the best-placed free entrant and takes the free entrants nearest in points, avoiding the
opponents of one's latest game where another choice exists. Those who do not fill a table wait
for the next call. With ``hold_rematches`` (someone else is still at a table, so another choice
will exist soon) a table that would still seat two entrants who met in their latest game is not
made: they wait for the others. :func:`free_entrants` says who is free, :func:`win_streaks` who
is on a streak (the standings show it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ludoteca.tournament.history import History, ranked, seat_order
from ludoteca.tournament.model import Entrant, EntrantId, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.multiplayer import fill_tables
from ludoteca.tournament.scoring import ArenaScoring, Scorer, effective_places, won

WINDOW = 8
"""How many free entrants below a table's first one it considers for each seat."""


def latest_opponents(results: Iterable[GameResult]) -> dict[EntrantId, set[EntrantId]]:
    """Whom each entrant met in their latest game (games in (wave, board) order)."""
    latest: dict[EntrantId, set[EntrantId]] = {}
    for result in sorted(results, key=lambda r: r.key):
        for e in result.seats:
            latest[e] = set(result.seats) - {e}
    return latest


def free_entrants(entrants: Sequence[Entrant], seated: Iterable[EntrantId]) -> list[Entrant]:
    """The entrants not at a table now (``seated``: everyone at an undecided table)."""
    busy = set(seated)
    return [e for e in entrants if e.id not in busy]


def win_streaks(results: Iterable[GameResult]) -> dict[EntrantId, int]:
    """Each entrant's wins in a row up to their latest game (0 after a game not won); two or
    more: on fire, the next game scores double."""
    streak: dict[EntrantId, int] = {}
    for result in sorted(results, key=lambda r: r.key):
        places = effective_places(result)
        for seat, entrant in enumerate(result.seats):
            streak[entrant] = streak.get(entrant, 0) + 1 if won(places, seat) else 0
    return streak


def arena_tables(
    free: Sequence[Entrant], results: Iterable[GameResult], wave: int, table_size: int = 2,
    seed: int = 0, scorer: Scorer | None = None, hold_rematches: bool = False,
) -> tuple[RoundDraw, list[EntrantId]]:
    """This wave's tables, and who is left waiting (module docstring)."""
    results = sorted(results, key=lambda r: r.key)
    history = History.build(results, (), scorer or ArenaScoring())
    latest = latest_opponents(results)

    def met_last(a: EntrantId, b: EntrantId) -> int:
        """Either one's latest game was against the other (e3 last met e4, though e4 has
        played e0 since: still an immediate rematch for e3)."""
        return int(b in latest.get(a, ()) or a in latest.get(b, ()))

    order = ranked(free, history, seed)
    scores = sorted({history.points.get(e, 0.0) for e in order}, reverse=True)
    group = {e: scores.index(history.points.get(e, 0.0)) for e in order}
    count = len(order) // table_size
    tables = fill_tables(order, [table_size] * count, met_last, group, WINDOW + table_size)
    if hold_rematches:
        tables = [t for t in tables
                  if not any(met_last(a, b) for i, a in enumerate(t) for b in t[i + 1:])]
    seated = {e for t in tables for e in t}
    draw = RoundDraw(wave, tuple(
        TableDraw(wave, board, seat_order(t, history, table_size, board))
        for board, t in enumerate(tables, start=1)
    ))
    return draw, [e for e in order if e not in seated]
