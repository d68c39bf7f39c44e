"""Two Kingdomino searches against each other, 2 players, on the native core: the quick screen
for a stronger ``hard`` (issue 37) before the slow run of ``benchmarks/hard_versions.py``.

    python benchmarks/search_variants.py --a uct:20000 --b flat:3000 [--games 100]
                                         [--workers 2] [--results FILE.jsonl]

A bot is ``MODE:BUDGET[:SCORE_WEIGHT]``: ``flat`` or ``uct`` (``bots/search.py``; both run
whole in C++ on the native core), a budget of playouts (``3000``) or of CPU seconds a move
(``1.5s``), and optionally the reward's points share instead of the profile's 0.4. With
playout budgets a game is the same on any machine and under any load (early stops count
playouts), so ``flat:3000`` stands in for ``bot:hard@1``: the same flat search and playouts as
its 1.5 s of Python bought on a quiet machine (about 2,300 to 3,100 playouts a move;
docs/bots.md). Game g is deal 1000 + g, bot A in seat g % 2 with seed 7g + 1, bot B seed 7g + 2.

``--results`` accumulates as ``hard_versions.py`` does: each game is appended as one JSON line,
a rerun skips the games of the same pair already there, and the summary (A's score, a shared
win counting half, with its 95% Wilson interval) is over all of them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.progress import Progress

from ludoteca.bots.search import SearchBot
from ludoteca.engine.native import which_core
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.games.kingdomino.search import PROFILE
from ludoteca.tournament.stats import wilson_interval


def bot(spec: str, seed: int) -> SearchBot:
    """``MODE:BUDGET[:SCORE_WEIGHT]`` as a search bot."""
    mode, budget, *rest = spec.split(":")
    if mode not in ("flat", "uct") or len(rest) > 1:
        raise ValueError(f"not a bot: {spec!r} (MODE:BUDGET[:SCORE_WEIGHT])")
    weight = float(rest[0]) if rest else None
    if budget.endswith("s"):
        return SearchBot(seconds=None, cpu_seconds=float(budget[:-1]), seed=seed, mode=mode,
                         profile=PROFILE, score_weight=weight)
    return SearchBot(seconds=None, iterations=int(budget), seed=seed, mode=mode,
                     profile=PROFILE, score_weight=weight)


def play(g: int, a: str, b: str) -> dict[str, Any]:
    """Game g: deal 1000 + g, A in seat g % 2."""
    seat_a = g % 2
    bots = {seat_a: bot(a, 7 * g + 1), 1 - seat_a: bot(b, 7 * g + 2)}
    state = GAME.setup({}, 2, 1000 + g)
    began = time.process_time()
    while seats := GAME.to_act(state):
        (seat,) = seats
        GAME.apply_legal(state, seat, bots[seat].choose(GAME, GAME.view(state, seat), seat))
    outcome = GAME.outcome(state)
    assert outcome is not None
    mine, theirs = outcome.ranks[seat_a], outcome.ranks[1 - seat_a]
    return {"a": a, "b": b, "game": g, "seat_a": seat_a,
            "score": 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0,
            "points": [outcome.scores[seat_a], outcome.scores[1 - seat_a]],
            "cpu_seconds": time.process_time() - began}


def read_rows(path: Path | None, a: str, b: str) -> dict[int, dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    rows: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if row.get("a") == a and row.get("b") == b:
            rows.setdefault(int(row["game"]), row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="the candidate, MODE:BUDGET[:SCORE_WEIGHT]")
    parser.add_argument("--b", default="flat:3000", help="its opponent (hard@1's stand-in)")
    parser.add_argument("--games", type=int, default=100, help="the total to reach")
    parser.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    parser.add_argument("--results", type=Path, default=None,
                        help="a JSON-lines file games are appended to and read back from")
    args = parser.parse_args()
    for spec in (args.a, args.b):
        bot(spec, 0)  # refuse a bad spec before any game
    if which_core() != "native":
        sys.exit("the native core is needed (LUDOTECA_CORE=auto or native, ludoteca_native)")
    rows = read_rows(args.results, args.a, args.b)
    todo = [g for g in range(args.games) if g not in rows]
    with Progress() as progress, ProcessPoolExecutor(args.workers) as pool:
        task = progress.add_task(f"{args.a} against {args.b}", total=args.games,
                                 completed=args.games - len(todo))
        for future in as_completed([pool.submit(play, g, args.a, args.b) for g in todo]):
            row = future.result()
            rows[row["game"]] = row
            if args.results is not None:
                with args.results.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
            progress.advance(task)
    n = len(rows)
    won = sum(r["score"] for r in rows.values())
    low, high = wilson_interval(won, n)
    points = [sum(r["points"][k] for r in rows.values()) / n for k in (0, 1)]
    cpu = sum(r["cpu_seconds"] for r in rows.values()) / n
    print(f"{args.a} against {args.b}: {won:g} of {n} ({100 * won / n:.1f}%, 95% interval "
          f"{100 * low:.1f}-{100 * high:.1f}%), mean points {points[0]:.1f} vs {points[1]:.1f}, "
          f"{cpu:.1f} s of CPU a game")


if __name__ == "__main__":
    main()
