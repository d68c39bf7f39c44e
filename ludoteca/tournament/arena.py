"""Arena pairing: whoever is free is seated as soon as a table can be filled.

The director calls :func:`arena_tables` whenever entrants are free (a game ended, someone
joined), with a new ``wave`` number each time; ``(wave, board)`` then names each game, and
arena points (scoring.ArenaScoring) count games in that order. Free entrants are taken by arena
points (then rating and the seed's order) and seated by :func:`fill_tables`: each table starts
with the best-placed free entrant and takes the free entrants nearest in points, avoiding the
opponents of one's latest game where another choice exists. Those who do not fill a table wait
for the next call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ludoteca.tournament.history import History, ranked, seat_order
from ludoteca.tournament.model import Entrant, EntrantId, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.multiplayer import fill_tables
from ludoteca.tournament.scoring import ArenaScoring, Scorer

WINDOW = 8
"""How many free entrants below a table's first one it considers for each seat."""


def arena_tables(
    free: Sequence[Entrant], results: Iterable[GameResult], wave: int, table_size: int = 2,
    seed: int = 0, scorer: Scorer | None = None,
) -> tuple[RoundDraw, list[EntrantId]]:
    """This wave's tables, and who is left waiting."""
    results = sorted(results, key=lambda r: r.key)
    history = History.build(results, (), scorer or ArenaScoring())
    latest: dict[EntrantId, set[EntrantId]] = {}
    for result in results:
        for e in result.seats:
            latest[e] = set(result.seats) - {e}

    def met_last(a: EntrantId, b: EntrantId) -> int:
        return int(b in latest.get(a, ()))

    order = ranked(free, history, seed)
    scores = sorted({history.points.get(e, 0.0) for e in order}, reverse=True)
    group = {e: scores.index(history.points.get(e, 0.0)) for e in order}
    count = len(order) // table_size
    tables = fill_tables(order, [table_size] * count, met_last, group, WINDOW + table_size)
    seated = {e for t in tables for e in t}
    draw = RoundDraw(wave, tuple(
        TableDraw(wave, board, seat_order(t, history, table_size, board))
        for board, t in enumerate(tables, start=1)
    ))
    return draw, [e for e in order if e not in seated]
