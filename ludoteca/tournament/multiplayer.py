"""Tables of N: a Swiss round at three players or more, and the rounds of a multiplayer
round-robin, both built by :func:`fill_tables`.

Boards are filled in order. Each board starts with the best-ranked entrant not yet seated and
takes, seat after seat, the candidate (among the next ``window`` in order) that adds the fewest
repeats (pairs already met, once per earlier meeting), then the one nearest in score group, then
the best-ranked. A swap step then exchanges one entrant between two tables at most
:data:`SWAP_REACH` boards apart whenever that lowers the two tables' repeats, or keeps them and
lowers their spread of score groups, until no swap helps (at most :data:`SWAP_PASSES` passes).

A Swiss then settles the repeats that greedy filling leaves (:func:`settle_repeats`): the cost of
a grouping is (repeats, spread), repeats above everything. A field of at most
:data:`EXACT_LIMIT` seated entrants with a repeat left is searched exhaustively
(:func:`fewest_repeats`), so its draw has the fewest repeats any grouping into the same table
sizes has ("no repeat where avoidable", made exact). A round the filling leaves without a repeat
is not touched. A larger field swaps one entrant of a table with a repeat against any other table,
nearest boards first, while that lowers the repeats; then re-seats exactly the boards around each
table still holding one, :data:`REPAIR_TABLES` either side and widening, the searches of a
round capped at :data:`REPAIR_BUDGET` steps in all so a round stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

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
EXACT_LIMIT = 12
"""Seated entrants up to this many are grouped exhaustively when a repeat is left."""
REPAIR_TABLES = 1
"""The boards either side of a repeat re-seated exactly at first (then twice as many)."""
REPAIR_WIDEST = 3
"""The most boards either side one exact repair reaches."""
REPAIR_BUDGET = 20_000
"""Search steps a round's exact repairs (:func:`best_grouping`) may take in all: at most
about 0.1 s."""
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
    """Make the one swap between two tables that lowers their cost most; whether one did.
    Each pair's meetings are looked up once and a swap's repeats counted from the movers'
    meetings with each table, not the whole tables again: these swaps are most of a large
    round's time."""
    both = (*ta, *tb)
    m = {(x, y): met(x, y) for k, x in enumerate(both) for y in both[k + 1 :]}
    m |= {(y, x): v for (x, y), v in m.items()}
    to_a = {x: sum(m.get((x, t), 0) for t in ta) for x in both}
    to_b = {x: sum(m.get((x, t), 0) for t in tb) for x in both}
    rep = (sum(to_a[t] for t in ta) + sum(to_b[t] for t in tb)) // 2
    ga, gb = [group[e] for e in ta], [group[e] for e in tb]
    now = (rep, max(ga) - min(ga) + max(gb) - min(gb))
    best, swap = now, None
    for i, a in enumerate(ta):
        rest_a = ga[:i] + ga[i + 1 :]
        for j, b in enumerate(tb):
            r = rep - to_a[a] - to_b[b] + to_a[b] - m[b, a] + to_b[a] - m[a, b]
            rest_b = gb[:j] + gb[j + 1 :]
            gx, gy = group[b], group[a]
            spread = (max(*rest_a, gx) - min(*rest_a, gx) if rest_a else 0) + (
                max(*rest_b, gy) - min(*rest_b, gy) if rest_b else 0)
            c = (r, spread)
            if c < best:
                best, swap = c, (i, j)
    if swap is None:
        return False
    i, j = swap
    ta[i], tb[j] = tb[j], ta[i]
    return True


def _cost(
    tables: Sequence[Sequence[EntrantId]], met: Met, group: Mapping[EntrantId, int]
) -> tuple[int, int]:
    costs = [_table_cost(t, met, group) for t in tables]
    return sum(c[0] for c in costs), sum(c[1] for c in costs)


@dataclass
class Budget:
    """Search steps left for a round's exact repairs."""

    left: int


def best_grouping(
    tables: Sequence[Sequence[EntrantId]], met: Met, group: Mapping[EntrantId, int],
    rank: Mapping[EntrantId, int], budget: Budget,
) -> list[list[EntrantId]] | None:
    """The grouping of the entrants of ``tables`` into tables of the same sizes (board by board)
    with the least (repeats, spread), or None when none beats ``tables``. Depth first, the
    best-ranked unseated entrant opening the next table, pruned by the best so far; the first
    found wins a tie, so the search is deterministic. Exhaustive unless ``budget`` runs out
    (then the best found so far)."""
    players = sorted((e for t in tables for e in t), key=rank.__getitem__)
    n = len(players)
    seen = [[met(a, b) for b in players] for a in players]
    grp = [group[e] for e in players]
    best = [_cost(tables, met, group)]
    found: list[list[list[int]]] = []
    left_sizes = sorted((len(t) for t in tables), reverse=True)
    seated = [False] * n
    chosen: list[list[int]] = []

    def table(open_: list[int], size: int, start: int, rep: int, spread: int, lo: int,
              hi: int) -> None:
        if budget.left <= 0:
            return
        budget.left -= 1
        if len(open_) == size:
            chosen.append(list(open_))
            grouping(rep, spread + hi - lo)
            chosen.pop()
            return
        need = size - len(open_)
        for i in range(start, n - need + 1):
            if seated[i]:
                continue
            r = rep + sum(seen[i][t] for t in open_)
            low, high = min(lo, grp[i]), max(hi, grp[i])
            if (r, spread + high - low) >= best[0]:
                continue
            seated[i] = True
            open_.append(i)
            table(open_, size, i + 1, r, spread, low, high)
            open_.pop()
            seated[i] = False

    def grouping(rep: int, spread: int) -> None:
        first = next((i for i in range(n) if not seated[i]), None)
        if first is None:
            best[0] = (rep, spread)
            found[:] = [[list(t) for t in chosen]]
            return
        for size in sorted(set(left_sizes), reverse=True):
            left_sizes.remove(size)
            seated[first] = True
            table([first], size, first + 1, rep, spread, grp[first], grp[first])
            seated[first] = False
            left_sizes.append(size)
            left_sizes.sort(reverse=True)

    grouping(0, 0)
    if not found:
        return None
    return _boards(tables, [[players[i] for i in t] for t in found[0]], rank)


def _boards(
    tables: Sequence[Sequence[EntrantId]], new: list[list[EntrantId]],
    rank: Mapping[EntrantId, int],
) -> list[list[EntrantId]]:
    """``new`` on the boards of ``tables``: each board keeps its size, and among tables of one
    size the best-ranked opener takes the lower board."""
    out: list[list[EntrantId]] = []
    for size in (len(t) for t in tables):
        nxt = min((t for t in new if len(t) == size), key=lambda t: rank[t[0]])
        new.remove(nxt)
        out.append(nxt)
    return out


def fewest_repeats(
    tables: Sequence[Sequence[EntrantId]], met: Met, group: Mapping[EntrantId, int],
    rank: Mapping[EntrantId, int],
) -> list[list[EntrantId]]:
    """The grouping of the entrants of ``tables`` into tables of the same sizes (board by board)
    with the least (repeats, spread), over every grouping: dynamic programming over the set
    seated so far, the best-ranked unseated entrant opening the next table. Ties go to the
    first grouping in rank order. For small fields (2^n states)."""
    players = sorted((e for t in tables for e in t), key=rank.__getitem__)
    n = len(players)
    seen = [[met(a, b) for b in players] for a in players]
    grp = [group[e] for e in players]
    Plan = tuple[tuple[int, int], tuple[tuple[int, ...], ...]]
    memo: dict[tuple[int, tuple[int, ...]], Plan] = {}

    def solve(mask: int, sizes: tuple[int, ...]) -> Plan:
        if not sizes:
            return (0, 0), ()
        if (mask, sizes) in memo:
            return memo[mask, sizes]
        free = [i for i in range(n) if not mask >> i & 1]
        first, rest = free[0], free[1:]
        best: Plan | None = None
        for size in sorted(set(sizes), reverse=True):
            left = list(sizes)
            left.remove(size)
            for others in combinations(rest, size - 1):
                members = (first, *others)
                rep = sum(seen[a][b] for a, b in combinations(members, 2))
                spread = max(grp[i] for i in members) - min(grp[i] for i in members)
                bits = sum(1 << i for i in members)
                (r, s), plan = solve(mask | bits, tuple(left))
                if best is None or (rep + r, spread + s) < best[0]:
                    best = (rep + r, spread + s), (members, *plan)
        assert best is not None
        memo[mask, sizes] = best
        return best

    _, plan = solve(0, tuple(sorted((len(t) for t in tables), reverse=True)))
    return _boards(tables, [[players[i] for i in members] for members in plan], rank)


def settle_repeats(
    tables: list[list[EntrantId]], met: Met, group: Mapping[EntrantId, int],
    rank: Mapping[EntrantId, int],
) -> None:
    """Lower the repeats :func:`fill_tables` left, in place (see the module docstring)."""
    def bad() -> list[int]:
        return [k for k, t in enumerate(tables) if _table_cost(t, met, group)[0]]

    if not bad():
        return
    if sum(map(len, tables)) <= EXACT_LIMIT:
        exact = fewest_repeats(tables, met, group, rank)
        if _cost(exact, met, group) < _cost(tables, met, group):
            tables[:] = exact
        return
    moved = True
    while moved:
        moved = False
        for k in bad():
            for reach in range(1, len(tables)):
                near = [u for u in (k - reach, k + reach) if 0 <= u < len(tables)]
                if not near:
                    break
                if any(_lower_repeats(tables[k], tables[u], met, group) for u in near):
                    moved = True
                    break
    budget = Budget(REPAIR_BUDGET)
    for k in bad():
        reach = REPAIR_TABLES
        while _table_cost(tables[k], met, group)[0] and reach <= REPAIR_WIDEST:
            lo, hi = max(0, k - reach), min(len(tables), k + reach + 1)
            better = best_grouping(tables[lo:hi], met, group, rank, budget)
            if better is not None:
                tables[lo:hi] = better
            reach *= 2


def _lower_repeats(
    ta: list[EntrantId], tb: list[EntrantId], met: Met, group: Mapping[EntrantId, int]
) -> bool:
    """Make the swap between two tables that lowers their repeats, the least spread among
    those; whether one did."""
    now = _cost((ta, tb), met, group)
    best, swap = (now[0], 0), None
    for i, a in enumerate(ta):
        for j, b in enumerate(tb):
            x, y = [*ta[:i], b, *ta[i + 1 :]], [*tb[:j], a, *tb[j + 1 :]]
            c = _cost((x, y), met, group)
            if c[0] < best[0] or (c[0] == best[0] < now[0] and c[1] < best[1]):
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
    rank = {e: i for i, e in enumerate(order)}
    settle_repeats(tables, history.met, group, rank)
    for table in tables:
        table.sort(key=rank.__getitem__)
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
