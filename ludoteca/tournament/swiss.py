"""Swiss pairing at two players.

Every pairing is judged by a cost in tiers, each tier weighing more than everything below it
added over the whole round (docs/tournaments.md says it in words):

1. a bye to someone who has had more byes than others could (so: one bye each at most, while
   anyone is left without one);
2. repeats: a pair that has met before, once per earlier meeting;
3. score groups: the square of how many score groups apart the two are (same score 0, the
   next group 1, two groups 4), and for a bye how far its taker is above the lowest group;
4. seats: both want to sit first next (or both second) by the seat balance;
5. order within a group: the top half meets the bottom half (1st with the (m/2+1)-th of a group
   of m); a pair across groups prefers the bottom of the upper group and the top of the lower;
   a bye prefers the lowest-ranked.

**Exact** (fields up to :data:`EXACT_LIMIT`): the cheapest pairing of all, by maximum-weight
matching over every possible pair (networkx's blossom algorithm, ``maxcardinality=True``) with a
"bye" vertex when the field is odd. **Fast** (larger fields; blossom over 10,000 entrants takes
minutes): the bye goes to the lowest-ranked entrant with the fewest byes; score groups are paired
top to bottom, the top half against the bottom half, each entrant taking the first opponent it
has not met among the next :data:`LOOKAHEAD` of the other half, and whoever is left floats down
into the next group. Then a repair step re-pairs each repeat's neighbourhood (the pairs around it
on the boards) exactly, widening it while repeats remain, up to :data:`REPAIR_LIMIT` entrants.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]  # no py.typed

from ludoteca.tournament.history import (
    History,
    bye_takers,
    check_entrants,
    ranked,
    seat_order,
)
from ludoteca.tournament.model import Bye, Entrant, EntrantId, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.scoring import Scorer, Scoring

EXACT_LIMIT = 64
"""Fields up to this size are paired exactly (about 0.1 s at 64)."""
LOOKAHEAD = 24
"""How far down the other half the fast path looks for an opponent not met yet."""
REPAIR_LIMIT = 64
"""The most entrants one exact repair re-pairs."""
BYE = "\0bye"
"""The bye's vertex in the matching (no entrant id starts with a NUL)."""


@dataclass
class Field:
    """The entrants to pair, in standings order, and what the costs need to know of them."""

    order: list[EntrantId]
    history: History
    group: dict[EntrantId, int]
    """Score group, 0 for the leaders."""
    position: dict[EntrantId, int]
    """Place within the score group."""
    size: dict[int, int]
    """Entrants per score group."""
    rank: dict[EntrantId, int]
    least_byes: int

    @classmethod
    def of(cls, order: list[EntrantId], history: History) -> Field:
        scores = sorted({history.points.get(e, 0.0) for e in order}, reverse=True)
        index = {s: g for g, s in enumerate(scores)}
        group = {e: index[history.points.get(e, 0.0)] for e in order}
        size: dict[int, int] = {}
        position: dict[EntrantId, int] = {}
        for e in order:
            position[e] = size.get(group[e], 0)
            size[group[e]] = position[e] + 1
        least = min((history.byes.get(e, 0) for e in order), default=0)
        rank = {e: i for i, e in enumerate(order)}
        return cls(order, history, group, position, size, rank, least)

    @property
    def groups(self) -> int:
        return len(self.size)

    def wants_first(self, e: EntrantId) -> int:
        """+1 owed the first seat, -1 owed the second, 0 even."""
        debt = self.history.first_debt(e, 2)
        return (debt < 0) - (debt > 0)

    def cost(self, a: EntrantId, b: EntrantId) -> tuple[int, int, int, int, int]:
        """The tiers of the module docstring for pairing a with b (b may be :data:`BYE`)."""
        if b == BYE:
            a, b = b, a
        if a == BYE:
            extra = self.history.byes.get(b, 0) - self.least_byes
            return (extra, 0, (self.groups - 1 - self.group[b]) ** 2, 0,
                    len(self.order) - 1 - self.rank[b])
        ga, gb = self.group[a], self.group[b]
        if ga > gb or (ga == gb and self.position[a] > self.position[b]):
            a, b, ga, gb = b, a, gb, ga
        clash = int(self.wants_first(a) == self.wants_first(b) != 0)
        if ga == gb:
            half = self.size[ga] // 2
            order = abs(self.position[b] - self.position[a] - half)
        else:
            order = (self.size[ga] - 1 - self.position[a]) + self.position[b]
        return (0, self.history.met(a, b), (gb - ga) ** 2, clash, order)


def exact_pairs(field: Field, players: Sequence[EntrantId]) -> list[tuple[EntrantId, EntrantId]]:
    """The cheapest pairing of ``players`` (with :data:`BYE` among them when odd), by
    maximum-weight matching: tier k's weight is more than all lower tiers can add up to."""
    vertices = list(players)
    edges = [(a, b, field.cost(a, b)) for i, a in enumerate(vertices) for b in vertices[i + 1 :]]
    if not edges:
        return []
    pairs_in_round = len(vertices) // 2 + 1
    tops = [max(c[k] for _, _, c in edges) for k in range(5)]
    scale = [1] * 5
    for k in range(3, -1, -1):
        scale[k] = scale[k + 1] * (pairs_in_round * tops[k + 1] + 1)
    costs = [(a, b, sum(c * s for c, s in zip(cost, scale, strict=True))) for a, b, cost in edges]
    top = max(c for _, _, c in costs) + 1
    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from((a, b, top - c) for a, b, c in costs)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {e: i for i, e in enumerate(vertices)}
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda p: rank[p[0]])


def fast_pairs(field: Field, players: Sequence[EntrantId]) -> list[tuple[EntrantId, EntrantId]]:
    """Score group by score group, top half against bottom half; leftovers float down."""
    met = field.history.met
    pairs: list[tuple[EntrantId, EntrantId]] = []
    carry: list[EntrantId] = []
    start = 0
    while start < len(players):
        end = start
        while end < len(players) and field.group[players[end]] == field.group[players[start]]:
            end += 1
        pool = carry + list(players[start:end])
        start = end
        half = len(pool) // 2
        top, bottom = pool[:half], pool[half:]
        taken = [False] * len(bottom)
        carry = []
        for i, a in enumerate(top):
            for j in range(i, min(len(bottom), i + LOOKAHEAD)):
                if not taken[j] and not met(a, bottom[j]):
                    taken[j] = True
                    pairs.append((a, bottom[j]))
                    break
            else:
                carry.append(a)
        carry += [b for b, t in zip(bottom, taken, strict=True) if not t]
        carry.sort(key=field.rank.__getitem__)
    while carry:  # the last leftovers meet whoever is left, a repeat if it must be
        a = carry.pop(0)
        j = next((j for j, b in enumerate(carry) if not met(a, b)), 0)
        pairs.append((a, carry.pop(j)))
    return pairs


def repeats(field: Field, pairs: Iterable[tuple[EntrantId, EntrantId]]) -> int:
    return sum(field.history.met(a, b) for a, b in pairs if BYE not in (a, b))


def repair(
    field: Field, pairs: list[tuple[EntrantId, EntrantId]]
) -> list[tuple[EntrantId, EntrantId]]:
    """Re-pair exactly the pairs around each repeat, the window doubling while it helps."""
    reach = 2
    while reach < REPAIR_LIMIT:
        bad = [k for k, (a, b) in enumerate(pairs) if field.history.met(a, b)]
        if not bad:
            break
        spans: list[list[int]] = []
        for k in bad:
            lo, hi = max(0, k - reach), min(len(pairs), k + reach + 1)
            if spans and lo <= spans[-1][1]:
                spans[-1][1] = hi
            else:
                spans.append([lo, hi])
        for lo, hi in reversed(spans):
            old = pairs[lo:hi]
            players = sorted((e for p in old for e in p), key=field.rank.__getitem__)
            if len(players) > REPAIR_LIMIT:
                continue
            new = exact_pairs(field, players)
            if repeats(field, new) < repeats(field, old):
                pairs[lo:hi] = new
        reach *= 2
    return pairs


def pair_swiss(
    entrants: Sequence[Entrant],
    results: Iterable[GameResult],
    byes: Iterable[Bye],
    round: int,
    seed: int = 0,
    scorer: Scorer | None = None,
    method: str = "auto",
) -> RoundDraw:
    """Round ``round`` of a 2-player Swiss for the ``entrants`` still playing; the same
    arguments always give the same draw. ``method`` is "exact", "fast" or "auto" (exact up to
    :data:`EXACT_LIMIT` entrants)."""
    check_entrants(entrants, 2)
    history = History.build(results, byes, scorer or Scoring(2))
    order = ranked(entrants, history, seed)
    field = Field.of(order, history)
    exact = method == "exact" or (method == "auto" and len(order) <= EXACT_LIMIT)
    bye: list[EntrantId] = []
    if exact:
        pairs = exact_pairs(field, order + [BYE] * (len(order) % 2))
        bye = [a if b == BYE else b for a, b in pairs if BYE in (a, b)]
        pairs = [p for p in pairs if BYE not in p]
    else:
        if len(order) % 2:
            bye = bye_takers(order, history, 1)
        pairs = repair(field, fast_pairs(field, [e for e in order if e not in bye]))
    pairs.sort(key=lambda p: min(field.rank[p[0]], field.rank[p[1]]))
    tables = tuple(
        TableDraw(round, board, seat_order(sorted(p, key=field.rank.__getitem__),
                                           history, 2, board))
        for board, p in enumerate(pairs, start=1)
    )
    return RoundDraw(round, tables, tuple(Bye(round, e) for e in bye))
