"""Knockout: seeded by rating; at two players the standard bracket, above it tables of N whose
top ``advance`` go through.

Two players: the bracket has P slots, P the power of two at or above the field; seed s meets
seed P + 1 − s in the first round (1 v 16, 8 v 9, ...), placed so that seeds 1 and 2 can meet
only in the final. Seeds above the field are byes, so the top seeds get them. Winners keep their
place in the bracket; the upper slot sits first. A tied game sends the better seed through
(the director may replay it instead and report the replay's result).

More players: every round seats the field at tables as even as ``min_table`` allows, seeds
spread snake-wise (table 1 takes seeds 1, 2t, 2t + 1 ...; with t tables), and the top
``advance`` of each table go through (ties: the better seed). Byes, when no split fits, go to
the top seeds. Entrants go into the next round ordered by their place, then seed. When the field
fits one table, that table is the final.

Every round is derived again from the entrants and the results, so nothing but results needs
storing; :func:`knockout_round` is None once the tournament is won.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ludoteca.engine.errors import OptionError
from ludoteca.engine.i18n import N_
from ludoteca.tournament.history import History, check_entrants, ranked, table_sizes
from ludoteca.tournament.model import Bye, Entrant, EntrantId, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.scoring import effective_places


def bracket_order(size: int) -> list[int]:
    """Seed numbers (from 1) in bracket slot order for a power of two ``size``."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def _finish(
    table: TableDraw, results: dict[tuple[int, int], GameResult], seed: dict[EntrantId, int]
) -> list[EntrantId]:
    """The table's seats from first to last (ties: better seed); OptionError if unplayed."""
    result = results.get((table.round, table.board))
    if result is None or set(result.seats) != set(table.seats):
        raise OptionError(
            msgid=N_("round {round}, board {board} has no result yet"),
            round=table.round, board=table.board,
        )
    places = dict(zip(result.seats, effective_places(result), strict=True))
    return sorted(table.seats, key=lambda e: (places[e], seed[e]))


def knockout_draws(
    entrants: Sequence[Entrant], results: Iterable[GameResult], seed: int = 0,
    table_size: int = 2, advance: int = 1, min_table: int | None = None,
) -> list[RoundDraw]:
    """Every round drawn so far: those whose results are in, then the next one (if any)."""
    check_entrants(entrants, 2)
    low = min_table or table_size
    if not 1 <= advance < low:
        raise OptionError(
            msgid=N_("the top {advance} of each table cannot go through when a table can "
                     "have {min} seats"),
            advance=advance, min=low,
        )
    order = ranked(entrants, History(), seed)
    seeds = {e: i for i, e in enumerate(order)}
    played = {r.key: r for r in results}
    draws: list[RoundDraw] = []
    if table_size == 2:
        size = 1 << (len(order) - 1).bit_length()
        slots: list[EntrantId | None] = [
            order[s - 1] if s <= len(order) else None for s in bracket_order(size)
        ]
        while len(slots) > 1:
            number = len(draws) + 1
            tables: list[TableDraw] = []
            byes: list[Bye] = []
            matches: list[EntrantId | TableDraw] = []
            for a, b in zip(slots[::2], slots[1::2], strict=True):
                if a is None or b is None:
                    alone = a or b or ""  # bracket_order never sets two byes side by side
                    byes.append(Bye(number, alone))
                    matches.append(alone)
                else:
                    tables.append(TableDraw(number, len(tables) + 1, (a, b)))
                    matches.append(tables[-1])
            draws.append(RoundDraw(number, tuple(tables), tuple(byes)))
            if any(t.key not in played for t in tables):
                return draws
            slots = [m if isinstance(m, str) else _finish(m, played, seeds)[0] for m in matches]
        return draws
    alive = list(order)
    while len(alive) > 1:
        number = len(draws) + 1
        final = len(alive) <= table_size
        sizes, bye_count = ([len(alive)], 0) if final else table_sizes(len(alive), table_size, low)
        ahead, seated = alive[:bye_count], alive[bye_count:]
        groups: list[list[EntrantId]] = [[] for _ in sizes]
        t = len(sizes)
        for i, e in enumerate(seated):
            row, col = divmod(i, t)
            groups[col if row % 2 == 0 else t - 1 - col].append(e)
        tables = [TableDraw(number, k + 1, tuple(g)) for k, g in enumerate(groups)]
        draws.append(RoundDraw(number, tuple(tables), tuple(Bye(number, e) for e in ahead)))
        if final or any(t.key not in played for t in tables):
            return draws
        place = dict.fromkeys(ahead, 0)
        for table in tables:
            for p, e in enumerate(_finish(table, played, seeds)[:advance]):
                place[e] = p
        alive = sorted(place, key=lambda e: (place[e], seeds[e]))
    return draws


def knockout_round(
    entrants: Sequence[Entrant], results: Iterable[GameResult], round: int, seed: int = 0,
    table_size: int = 2, advance: int = 1, min_table: int | None = None,
) -> RoundDraw | None:
    """Round ``round``'s draw, or None when the knockout ended before it; OptionError when the
    round before it still lacks a result."""
    results = list(results)
    draws = knockout_draws(entrants, results, seed, table_size, advance, min_table)
    if round <= len(draws):
        return draws[round - 1]
    played = {r.key for r in results}
    last = draws[-1] if draws else None
    if last is None or all(t.key in played for t in last.tables):
        return None
    missing = next(t for t in last.tables if t.key not in played)
    raise OptionError(
        msgid=N_("round {round}, board {board} has no result yet"),
        round=missing.round, board=missing.board,
    )
