"""What a post-game analysis costs at each game's default budget, per game and player count.

    python benchmarks/analysis_speed.py [--jobs N] [--seed S] [--only kingdomino:2] [--budget B]

One match of ``greedy`` bots per case, analysed as ``ludoteca analyse`` does (``--jobs``
processes, default one per core). Printed per case: the decisions, the wall-clock seconds of
the analysis, the CPU seconds it took in all its processes (what to read on a loaded machine,
where the wall-clock seconds depend on the other work), the playouts run in all and per decision
(the budget is in playouts, so these are the same on any machine; the seconds are this
machine's). Issue 25's targets on a 2-core
machine: a 2-player Kingdomino match in at most 60 s, a 4-player one in at most 120 s; issue
37's: Kami and Goita at a budget of at least 128 within 60 s (``--budget 128``). The core is
``LUDOTECA_CORE``'s (docs/engine.md, "The native core"), printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.analysis.parallel import analyse_parallel, default_jobs
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.native import chosen_core
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, get_game

CASES = [("kingdomino", 2, 60.0), ("kingdomino", 4, 120.0), ("queendomino", 2, None),
         ("buttons", 2, None), ("kami", 2, None), ("goita", 4, None)]


def play(game_name: str, players: int, seed: int) -> MatchRecord:
    bots = [make_bot("greedy", game_name, seed + k) for k in range(players)]
    match = Match.new(get_game(game_name), {}, players, seed, controllers=bots, narrate=False)
    match.run_bots()
    match.close()
    return match.record


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the analysis's pool)."""
    mine = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one case, as game:players")
    parser.add_argument("--budget", type=int, default=None,
                        help="playouts per candidate move (default: each game's own)")
    args = parser.parse_args()
    cases = [c for c in CASES if args.only in (None, f"{c[0]}:{c[1]}")]
    print(f"{'game':<12}{'players':>8}{'budget':>8}{'decisions':>10}{'seconds':>9}{'cpu s':>8}"
          f"{'playouts':>10}{'per decision':>14}  target")
    for game, players, target in cases:
        record = play(game, players, args.seed)
        stats: dict[str, int] = {}
        started, cpu = time.perf_counter(), cpu_seconds()
        result = analyse_parallel(record, args.budget, 0, args.jobs, stats=stats)
        seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
        decisions = len(result["moves"])
        verdict = "" if target is None else (
            f"<= {target:.0f} s: {'met' if seconds <= target else 'missed'}")
        budget = args.budget or entry(game).search_profile().budget_for(players)
        print(f"{game:<12}{players:>8}{budget:>8}"
              f"{decisions:>10}{seconds:>9.1f}{cpu:>8.1f}{stats['playouts']:>10}"
              f"{stats['playouts'] / max(decisions, 1):>14.0f}  {verdict}", flush=True)
    print(f"({args.jobs} processes, the {chosen_core()} core; wall-clock and CPU seconds on this "
          f"machine)")


if __name__ == "__main__":
    main()
