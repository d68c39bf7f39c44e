"""Round-robin schedules: Berger tables (the circle method) at two players; tables of N by
:func:`ludoteca.tournament.multiplayer.round_robin_tables` above.

Berger tables, for n entrants (a "bye" added when n is odd, so m is even): the last entrant
stays put while the other m − 1 turn round a circle. In round r (from 0) entrant
``(r + k) mod (m − 1)`` meets ``(r − k) mod (m − 1)`` for k = 1 … m/2 − 1, and entrant
``r mod (m − 1)`` meets the fixed one. Everyone meets everyone once in m − 1 rounds. Seats: on
board k the first of the two sits first when k is odd, the second when k is even; the fixed
entrant sits first in odd rounds. So every entrant sits first in half their games (one more or
less when the count is odd). ``cycles=2`` plays the schedule again with the seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from ludoteca.tournament.history import History, check_entrants, ranked
from ludoteca.tournament.model import Bye, Entrant, EntrantId, RoundDraw, TableDraw
from ludoteca.tournament.multiplayer import round_robin_tables


def berger_rounds(
    entrants: Sequence[Entrant], seed: int = 0, cycles: int = 1
) -> list[RoundDraw]:
    """Every round of a 2-player round-robin, entrants numbered by rating (module docstring)."""
    check_entrants(entrants, 2)
    players: list[EntrantId | None] = list(ranked(entrants, History(), seed))
    if len(players) % 2:
        players.append(None)
    m = len(players)
    circle, fixed = players[:-1], players[-1]
    c = m - 1
    first_cycle: list[list[tuple[EntrantId | None, EntrantId | None]]] = []
    for r in range(c):
        pairs = [(fixed, circle[r % c]) if r % 2 else (circle[r % c], fixed)]
        for k in range(1, m // 2):
            a, b = circle[(r + k) % c], circle[(r - k) % c]
            pairs.append((a, b) if k % 2 else (b, a))
        first_cycle.append(pairs)
    draws = []
    for cycle in range(cycles):
        for r, pairs in enumerate(first_cycle):
            number = cycle * c + r + 1
            seated = [p if cycle % 2 == 0 else (p[1], p[0]) for p in pairs]
            tables = [(a, b) for a, b in seated if a is not None and b is not None]
            byes = [a or b for a, b in seated if a is None or b is None]
            draws.append(RoundDraw(
                number,
                tuple(TableDraw(number, board, t) for board, t in enumerate(tables, start=1)),
                tuple(Bye(number, e) for e in byes if e is not None),
            ))
    return draws


def round_robin(
    entrants: Sequence[Entrant], table_size: int = 2, seed: int = 0, cycles: int = 1,
    rounds: int | None = None, min_table: int | None = None,
) -> list[RoundDraw]:
    """The whole schedule: Berger tables at two players, else tables of ``table_size`` where
    pairs meet as evenly as the greedy construction manages (``rounds`` by default the fewest
    in which everyone could meet everyone)."""
    if table_size == 2:
        return berger_rounds(entrants, seed, cycles)
    return round_robin_tables(entrants, table_size, rounds, min_table, seed)
