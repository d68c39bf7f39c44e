"""Post-game analysis measured: its cost, its noise floor, and its calibration.

    python benchmarks/analysis.py [--game kingdomino] [--players 2] [--matches 6]
                                  [--level hard] [--budget N] [--out docs/results/analysis.json]

Plays ``--matches`` matches of a ``--level`` bot against ``random`` seats (the level's seat
rotating), analyses each twice with two seeds at the game's budget (or ``--budget``), and
prints:

- the cost: seconds per analysis and per decision;
- the noise floor: how far the two seeds' values of the same move lie apart (win chance
  after the move, and the loss the judgement reads), median, 90th percentile and largest;
  the judgement thresholds (5/10/15 points) must stand above it;
- the calibration: accuracy and inaccuracies/mistakes/blunders per move for each level (the
  ``random`` seats must blunder at least five times as often as the ``--level`` ones).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.analysis.analyse import Analyst
from ludoteca.bots import make_bot
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, get_game


def play(game_name: str, levels: list[str], seed: int) -> MatchRecord:
    """A match of bots at ``levels`` (seat order), played by the match driver."""
    bots = [make_bot(level, game_name, seed + k) for k, level in enumerate(levels)]
    match = Match.new(get_game(game_name), {}, len(levels), seed, names=levels,
                      controllers=bots, narrate=False)
    match.run_bots()
    match.close()
    return match.record


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    budget = args.budget or entry(args.game).search_profile().budget_for(args.players)
    per_level: dict[str, dict[str, Any]] = {}
    after_gaps: list[float] = []
    loss_gaps: list[float] = []
    same = judged = decisions = 0
    seconds = 0.0
    for k in range(args.matches):
        levels = ["random"] * args.players
        levels[k % args.players] = args.level
        started = time.perf_counter()
        record = play(args.game, levels, 1000 + k)
        played = time.perf_counter() - started
        started = time.perf_counter()
        first = Analyst(record, budget, seed=0).run()
        seconds += time.perf_counter() - started
        second = Analyst(record, budget, seed=1).run()
        decisions += len(first["moves"])
        for a, b in zip(first["moves"], second["moves"], strict=True):
            after_gaps.append(abs(a["after"]["win"][a["seat"]] - b["after"]["win"][b["seat"]]))
            if not a["forced"]:
                judged += 1
                loss_gaps.append(abs(a["loss"]["win"] - b["loss"]["win"]))
                same += a["judgement"] == b["judgement"]
        for seat in first["seats"]:
            tally = per_level.setdefault(levels[seat["seat"]], {
                "moves": 0, "accuracy": [], "inaccuracy": 0, "mistake": 0, "blunder": 0})
            tally["moves"] += seat["moves"]
            if seat["accuracy"] is not None:
                tally["accuracy"].append(seat["accuracy"])
            for j in ("inaccuracy", "mistake", "blunder"):
                tally[j] += seat["judgements"][j]
        print(f"match {k + 1}/{args.matches}: {'-'.join(levels)} scores "
              f"{record.result and record.result.get('scores')}, played in {played:.0f} s, "
              f"analysed in {time.perf_counter() - started:.0f} s", flush=True)
    analyses = args.matches
    print(f"\n{args.game} {args.players}p, budget {budget}, {args.matches} matches "
          f"({args.level} against random)")
    print(f"cost: {seconds / analyses:.1f} s per analysis, "
          f"{1000 * seconds / max(decisions, 1):.0f} ms per decision")
    print(f"noise floor (seed 0 against seed 1): win chance after a move: median "
          f"{statistics.median(after_gaps):.1f}, p90 {quantile(after_gaps, 0.9):.1f}, max "
          f"{max(after_gaps):.1f} points; a move's loss: median {statistics.median(loss_gaps):.1f}"
          f", p90 {quantile(loss_gaps, 0.9):.1f}, max {max(loss_gaps):.1f}; same judgement "
          f"{same}/{judged}")
    rows = {}
    for level, t in per_level.items():
        moves = max(t["moves"], 1)
        rows[level] = {
            "accuracy": round(statistics.mean(t["accuracy"]), 1) if t["accuracy"] else None,
            "moves": t["moves"],
            **{f"{j}_per_100": round(100 * t[j] / moves, 1)
               for j in ("inaccuracy", "mistake", "blunder")},
        }
        print(f"{level:>8}: accuracy {rows[level]['accuracy']}, per 100 moves: inaccuracies "
              f"{rows[level]['inaccuracy_per_100']}, mistakes {rows[level]['mistake_per_100']}, "
              f"blunders {rows[level]['blunder_per_100']} ({t['moves']} judged moves)")
    strong, weak = rows.get(args.level), rows.get("random")
    if strong and weak:
        met = weak["blunder_per_100"] >= 5 * strong["blunder_per_100"] and weak["blunder_per_100"]
        ratio = (f"{weak['blunder_per_100'] / strong['blunder_per_100']:.1f}x"
                 if strong["blunder_per_100"] else f"{weak['blunder_per_100']} against none")
        print(f"blunders, random / {args.level}: {ratio} (target at least 5x: "
              f"{'met' if met else 'missed'})")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({
            "game": args.game, "players": args.players, "budget": budget,
            "matches": args.matches, "level": args.level,
            "seconds_per_analysis": round(seconds / analyses, 1),
            "noise": {"after_median": statistics.median(after_gaps),
                      "after_p90": quantile(after_gaps, 0.9),
                      "loss_median": statistics.median(loss_gaps),
                      "loss_p90": quantile(loss_gaps, 0.9), "loss_max": max(loss_gaps),
                      "same_judgement": [same, judged]},
            "levels": rows}, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
