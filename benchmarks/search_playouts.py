"""Playouts a CPU second of Kingdomino's search, three ways, at the decisions of one 2-player
game: the search loop on the Python core (``bot:hard@1``'s playouts), the loop with native
playouts (``bot:hard@2`` before the whole search was native), and the whole flat search on the
native core (``games/kingdomino/native_search.py``).

    python benchmarks/search_playouts.py [--cpu 0.5] [--seed 12345] [--every 4] [--out FILE]

Each position is searched for ``--cpu`` seconds of this process's CPU with no early stop, so
the rates hardly depend on the machine's load (a busy machine still slows a core's caches a
little); the figures printed are playouts per CPU second per position, their mean over the
game, and what each way reaches in ``SEARCH_SECONDS["hard"]`` (1.5 s) at the game's first
decision (the slowest: the longest playouts) and on average: the budget a ladder level of
"1.5 s of native search" could fix (docs/bots.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.bots import SEARCH_SECONDS, make_bot
from ludoteca.bots.search import search
from ludoteca.engine.native import which_core
from ludoteca.games import entry
from ludoteca.games.kingdomino import native_search
from ludoteca.games.kingdomino.rules import GAME

WAYS = ("python", "native playouts", "native search")


def positions(seed: int, every: int) -> list[tuple[Any, int, int]]:
    """(view, seat, ply) of every ``every``-th decision with a choice of a greedy game."""
    state = GAME.setup({}, 2, seed)
    bots = {s: make_bot("greedy", "kingdomino", s) for s in (0, 1)}
    found = []
    k = 0
    while seats := GAME.to_act(state):
        (seat,) = seats
        if len(GAME.legal_actions(state, seat)) > 1:
            if k % every == 0:
                found.append((GAME.view(state, seat), seat, state.ply))
            k += 1
        GAME.apply_legal(state, seat, bots[seat].choose(GAME, GAME.view(state, seat), seat))
    return found


def rate(way: str, view: Any, seat: int, cpu: float) -> float:
    """Playouts a CPU second searching ``view`` one ``way``."""
    profile = entry("kingdomino").search_profile()
    os.environ["LUDOTECA_CORE"] = "python" if way == "python" else "native"
    if way == "native playouts":
        profile = dataclasses.replace(profile, root_search=None)
    began = time.process_time()
    stats, _ = search(GAME, view, seat, cpu_seconds=cpu, early_stop=False, profile=profile)
    return stats.iterations / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu", type=float, default=0.5, help="CPU seconds per search")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--every", type=int, default=4, help="search every n-th decision")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    if which_core() != "native" or not native_search.available():
        sys.exit("the native core with kingdomino.flat_search is needed (rebuild ./native)")
    load_before = os.getloadavg()
    rows = []
    print(f"{'ply':>4} " + " ".join(f"{w:>16}" for w in WAYS) + "   (playouts a CPU second)")
    for view, seat, ply in positions(args.seed, args.every):
        rates = {w: rate(w, view, seat, args.cpu) for w in WAYS}
        rows.append({"ply": ply, **rates})
        print(f"{ply:>4} " + " ".join(f"{rates[w]:>16,.0f}" for w in WAYS), flush=True)
    budget = SEARCH_SECONDS["hard"]
    summary: dict[str, Any] = {"cpu_seconds_per_search": args.cpu, "seed": args.seed,
                               "positions": len(rows), "rows": rows}
    for w in WAYS:
        mean = sum(r[w] for r in rows) / len(rows)
        summary[w] = {"mean_per_cpu_second": mean, "first_decision_in_budget": rows[0][w] * budget,
                      "mean_in_budget": mean * budget}
        print(f"{w:>16}: mean {mean:,.0f} a CPU second; in {budget} s: {rows[0][w] * budget:,.0f} "
              f"at the first decision, {mean * budget:,.0f} on average")
    summary["load_before"] = list(load_before)
    summary["load_after"] = list(os.getloadavg())
    summary["cores"] = os.cpu_count()
    summary["nice"] = os.nice(0)
    print(f"load {load_before[0]:.1f} -> {summary['load_after'][0]:.1f}, nice {summary['nice']}")
    if args.out is not None:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
