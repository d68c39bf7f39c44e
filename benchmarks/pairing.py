"""Swiss pairing speed and quality: ``python benchmarks/pairing.py [--entrants N] [--rounds R]``.

Plays a simulated Swiss (the higher-rated entrant wins with the Elo chance, draws 10%) and
prints, per round, the milliseconds ``pair_swiss`` took (history, ranking and pairing included)
and the repeat pairings it made; then, on a small field, the fast path beside the exact one
(maximum-weight matching over every pair) and a naive pairing (adjacent entrants in the
standings, no repeat check), to show what the fast path gives up. The issue's bar: 10,000
entrants paired in under a second.

``--table-size N`` (3 or more) does the same for a multiplayer Swiss (tables of N, random places):
the milliseconds per round over the large field, then, over ``--swisses`` Swisses of ``--small``
entrants (one seed each), how many had some pair seated together twice by each round and the most
such repeated pairs in one Swiss.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ludoteca.tournament.history import History, ranked
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw, TableDraw
from ludoteca.tournament.multiplayer import pair_swiss_tables
from ludoteca.tournament.scoring import Scoring
from ludoteca.tournament.swiss import pair_swiss


def play(draw: RoundDraw, rating: dict[str, float], rng: random.Random) -> list[GameResult]:
    out = []
    for table in draw.tables:
        a, b = table.seats
        expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
        roll = rng.random()
        places = (1, 1) if roll < 0.1 else (1, 2) if roll < 0.1 + 0.9 * expected else (2, 1)
        out.append(GameResult(table.round, table.board, table.seats, places))
    return out


def naive(entrants: list[Entrant], results: list[GameResult], byes: list[Bye],
          round: int) -> RoundDraw:
    """Adjacent entrants in the standings, the last one on a bye: no repeat check at all."""
    order = ranked(entrants, History.build(results, byes, Scoring(2)), 0)
    bye = [Bye(round, order.pop())] if len(order) % 2 else []
    tables = tuple(TableDraw(round, k + 1, (order[2 * k], order[2 * k + 1]))
                   for k in range(len(order) // 2))
    return RoundDraw(round, tables, tuple(bye))


def run(entrants: int, rounds: int, method: str, seed: int = 1, quiet: bool = False
        ) -> tuple[list[float], int]:
    rng = random.Random(seed)
    field = [Entrant(f"e{i}", round(rng.gauss(1500, 300))) for i in range(entrants)]
    rating = {e.id: e.rating for e in field}
    results: list[GameResult] = []
    byes: list[Bye] = []
    met: set[frozenset[str]] = set()
    times, repeats = [], 0
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        if method == "naive":
            draw = naive(field, results, byes, r)
        else:
            draw = pair_swiss(field, results, byes, r, seed, method=method)
        times.append(1000 * (time.perf_counter() - start))
        new = sum(frozenset(t.seats) in met for t in draw.tables)
        repeats += new
        met |= {frozenset(t.seats) for t in draw.tables}
        if not quiet:
            print(f"  round {r:2d}: {times[-1]:7.1f} ms, {new} repeats")
        results += play(draw, rating, rng)
        byes += draw.byes
    return times, repeats


def play_tables(draw: RoundDraw, rng: random.Random) -> list[GameResult]:
    """Random places, no ties."""
    out = []
    for table in draw.tables:
        places = list(range(1, len(table.seats) + 1))
        rng.shuffle(places)
        out.append(GameResult(table.round, table.board, table.seats, tuple(places)))
    return out


def run_tables(entrants: int, rounds: int, size: int, seed: int = 1, quiet: bool = False
               ) -> tuple[list[float], list[int]]:
    """A multiplayer Swiss: ms per round, and the pairs seated together twice or more so far,
    after each round."""
    rng = random.Random(seed)
    field = [Entrant(f"e{i}", round(rng.gauss(1500, 300))) for i in range(entrants)]
    results: list[GameResult] = []
    byes: list[Bye] = []
    met: dict[frozenset[str], int] = {}
    times, repeated = [], []
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        draw = pair_swiss_tables(field, results, byes, r, size, seed=seed)
        times.append(1000 * (time.perf_counter() - start))
        for table in draw.tables:
            for i, a in enumerate(table.seats):
                for b in table.seats[i + 1 :]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        repeated.append(sum(v > 1 for v in met.values()))
        if not quiet:
            print(f"  round {r:2d}: {times[-1]:7.1f} ms, pairs met twice or more {repeated[-1]}")
        results += play_tables(draw, rng)
        byes += draw.byes
    return times, repeated


def main_tables(args: argparse.Namespace) -> None:
    size = args.table_size
    print(f"Swiss at tables of {size}, {args.entrants} entrants, {args.rounds} rounds:")
    times, repeated = run_tables(args.entrants, args.rounds, size)
    mean = sum(times) / len(times)
    print(f"entrants {args.entrants}, rounds {args.rounds}, ms/round mean {mean:.0f}"
          f" max {max(times):.0f}, pairs met twice or more {repeated[-1]}")
    rounds = args.small_rounds
    print(f"\n{args.small} entrants at tables of {size}, {args.swisses} Swisses of {rounds}"
          " rounds: Swisses with a pair met twice (most such pairs in one), ms/round")
    runs = [run_tables(args.small, rounds, size, seed, quiet=True) for seed in range(args.swisses)]
    for r in range(rounds):
        hit = [rep[r] for _, rep in runs if rep[r]]
        most = max(hit, default=0)
        print(f"  by round {r + 1}: {len(hit):3d} of {args.swisses} (at most {most})")
    ms = [t for times, _ in runs for t in times]
    print(f"  ms/round {sum(ms) / len(ms):.1f}, max {max(ms):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--small", type=int, default=40, help="the small field compared")
    parser.add_argument("--table-size", type=int, default=2)
    parser.add_argument("--swisses", type=int, default=150, help="small Swisses (tables of N)")
    parser.add_argument("--small-rounds", type=int, default=5, help="their rounds")
    args = parser.parse_args()
    if args.table_size > 2:
        main_tables(args)
        return
    print(f"Swiss, {args.entrants} entrants, {args.rounds} rounds (fast path):")
    times, repeats = run(args.entrants, args.rounds, "auto")
    mean = sum(times) / len(times)
    print(f"entrants {args.entrants}, rounds {args.rounds}, ms/round mean {mean:.0f}"
          f" max {max(times):.0f}, repeats {repeats}")
    rounds = min(args.rounds, args.small - 1)
    print(f"\n{args.small} entrants, {rounds} rounds, 5 seeds: repeats and ms/round")
    for method in ("exact", "fast", "naive"):
        total, ms = 0, []
        for seed in range(5):
            t, rep = run(args.small, rounds, method, seed, quiet=True)
            total += rep
            ms += t
        print(f"  {method:5s}: repeats {total:3d}, ms/round {sum(ms) / len(ms):6.1f}")


if __name__ == "__main__":
    main()
