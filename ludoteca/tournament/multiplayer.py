"""Tables of N: a Swiss round at three players or more, and the rounds of a multiplayer
round-robin, both built by :func:`fill_tables`.

Boards are filled in order. Each board starts with the best-ranked entrant not yet seated and
takes, seat after seat, the candidate (among the next ``window`` in order) that adds the fewest
repeats (pairs already met, once per earlier meeting), then the one nearest in score group, then
the best-ranked. A swap step then exchanges one entrant between two tables at most
:data:`SWAP_REACH` boards apart whenever that lowers the two tables' repeats, or keeps them and
lowers their spread of score groups, until no swap helps (at most :data:`SWAP_PASSES` passes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from ludoteca.tournament.history import (
    History,
    bye_takers,
    check_entrants,
    ranked,
    seat_order,
    table_sizes,
)
from ludoteca.tournament.model import Bye, Entrant, EntrantId, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.scoring import Scorer, Scoring

SWAP_REACH = 2
SWAP_PASSES = 8
Met = Callable[[EntrantId, EntrantId], int]


def _table_cost(table: Sequence[EntrantId], met: Met, group: Mapping[EntrantId, int]) -> tuple[
        int, int]:
    repeats = sum(met(a, b) for i, a in enumerate(table) for b in table[i + 1 :])
    groups = [group[e] for e in table]
    return repeats, max(groups) - min(groups)


def fill_tables(
    order: Sequence[EntrantId], sizes: Sequence[int], met: Met,
    group: Mapping[EntrantId, int], window: int,
) -> list[list[EntrantId]]:
    """Seat ``order`` (best first) at tables of ``sizes`` (see the module docstring)."""
    position = {e: i for i, e in enumerate(order)}
    left = list(order)
    tables: list[list[EntrantId]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(
                range(min(window, len(left))),
                key=lambda i: (sum(met(left[i], t) for t in table),
                               abs(group[left[i]] - group[table[0]]), i),
            )
            table.append(left.pop(best))
        tables.append(table)
    improved, passes = True, 0
    while improved and passes < SWAP_PASSES:
        improved, passes = False, passes + 1
        for a in range(len(tables)):
            for b in range(a + 1, min(len(tables), a + SWAP_REACH + 1)):
                improved |= _best_swap(tables[a], tables[b], met, group)
    for table in tables:
        table.sort(key=position.__getitem__)
    return tables


def _best_swap(
    ta: list[EntrantId], tb: list[EntrantId], met: Met, group: Mapping[EntrantId, int]
) -> bool:
    """Make the one swap between two tables that lowers their cost most; whether one did."""
    def cost(x: Sequence[EntrantId], y: Sequence[EntrantId]) -> tuple[int, int]:
        cx, cy = _table_cost(x, met, group), _table_cost(y, met, group)
        return (cx[0] + cy[0], cx[1] + cy[1])

    now = cost(ta, tb)
    best, swap = now, None
    for i, a in enumerate(ta):
        for j, b in enumerate(tb):
            x, y = [*ta[:i], b, *ta[i + 1 :]], [*tb[:j], a, *tb[j + 1 :]]
            c = cost(x, y)
            if c < best:
                best, swap = c, (i, j)
    if swap is None:
        return False
    i, j = swap
    ta[i], tb[j] = tb[j], ta[i]
    return True


def pair_swiss_tables(
    entrants: Sequence[Entrant],
    results: Iterable[GameResult],
    byes: Iterable[Bye],
    round: int,
    table_size: int,
    min_table: int | None = None,
    seed: int = 0,
    scorer: Scorer | None = None,
) -> RoundDraw:
    """Round ``round`` of a Swiss with tables of ``table_size``: the leaders on board 1, tables
    as even as ``min_table`` allows (default: full tables only) and byes for the rest, to the
    lowest-ranked of those with fewest byes. Team games are the caller's: a table's seats are
    its seat order, and which seats form a team is the game's rule."""
    check_entrants(entrants, 2)
    history = History.build(results, byes, scorer or Scoring(table_size))
    order = ranked(entrants, history, seed)
    sizes, bye_count = table_sizes(len(order), table_size, min_table or table_size)
    bye = bye_takers(order, history, bye_count)
    playing = [e for e in order if e not in bye]
    scores = sorted({history.points.get(e, 0.0) for e in order}, reverse=True)
    group = {e: scores.index(history.points.get(e, 0.0)) for e in order}
    tables = fill_tables(playing, sizes, history.met, group, window=4 * table_size)
    return _draw(round, tables, bye, history, table_size)


def _draw(
    round: int, tables: Sequence[Sequence[EntrantId]], bye: Sequence[EntrantId],
    history: History, table_size: int,
) -> RoundDraw:
    return RoundDraw(
        round,
        tuple(
            TableDraw(round, board, seat_order(t, history, table_size, board))
            for board, t in enumerate(tables, start=1)
        ),
        tuple(Bye(round, e) for e in bye),
    )


def round_robin_tables(
    entrants: Sequence[Entrant], table_size: int, rounds: int | None = None,
    min_table: int | None = None, seed: int = 0,
) -> list[RoundDraw]:
    """A whole multiplayer round-robin: by default the fewest rounds in which everyone could
    meet everyone, ceil((n - 1) / (N - 1)). Each round seats everyone by :func:`fill_tables`
    over the meetings so far (no standings: the order is the seed's, rotated every round), so
    pairs that have met least meet next; byes, when the count does not divide, go to those
    with the fewest."""
    check_entrants(entrants, 2)
    ids = [e.id for e in entrants]
    n = len(ids)
    rounds = rounds or max(1, -(-(n - 1) // (table_size - 1)))
    sizes, bye_count = table_sizes(n, table_size, min_table or table_size)
    history = History()
    base = ranked(entrants, history, seed)
    draws = []
    for r in range(1, rounds + 1):
        shift = (r - 1) % n
        order = base[shift:] + base[:shift]
        bye = bye_takers(order, history, bye_count)
        playing = [e for e in order if e not in bye]
        tables = fill_tables(playing, sizes, history.met, dict.fromkeys(ids, 0), window=n)
        draw = _draw(r, tables, bye, history, table_size)
        for table in draw.tables:
            history.seat(table.seats)
        for b in draw.byes:
            history.bye(b.entrant, 0.0)
        draws.append(draw)
    return draws
