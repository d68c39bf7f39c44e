"""Does the analysis's win chance mean what it says? Calibration, consistency and the exact tail.

    python benchmarks/analysis_calibration.py [--game kingdomino] [--players 2] [--matches 200]
                                              [--levels random,greedy] [--budget N]
                                              [--out docs/results/calibration.json]

Plays ``--matches`` matches of bots of ``--levels`` (every way of seating them, in turn),
analyses each at the game's budget (or ``--budget``) and prints:

- the **reliability table**: every judged decision's reported win chance for the deciding seat
  after its move, in buckets of 10 points, against the share of those seats that won; the
  **Brier score** (0.25 for always saying 50%) and the **expected calibration error**;
- a **fitted mapping** (logistic on the log-odds, fitted on the even matches and measured on
  the odd ones) and what it would make of the Brier score and the calibration error, so a
  mapping is shipped only when the measurement says it helps;
- the **consistency** of consecutive values: how far the value of a move played lies from the
  value of the same seat's next decision's best move when nothing is drawn between (a
  placement and its claim: the estimator's own disagreement with itself; the reported values
  are one number by construction);
- the **identity**: the largest gap, over every seat, between start + luck + skill + others
  and the result (zero to the rounding by construction);
- for 2-player Kingdomino, the **perfect-information tail** against the exact solver: where
  the choice matters, how often the best move found keeps the exact result and how far its
  win chance lies from the exact one.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.analysis.analyse import Analyst
from ludoteca.bots import make_bot
from ludoteca.engine.game import JSON
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, get_game

BUCKETS = 10


def play(game_name: str, players: int, levels: list[str], seed: int) -> MatchRecord:
    bots = [make_bot(level, game_name, seed + k) for k, level in enumerate(levels)]
    match = Match.new(get_game(game_name), {}, players, seed, names=levels, controllers=bots,
                      narrate=False)
    match.run_bots()
    match.close()
    return match.record


def reliability(points: list[tuple[float, float]]) -> tuple[list[JSON], float, float]:
    """(buckets, Brier score, expected calibration error) of (predicted 0-1, observed 0-1)."""
    rows: list[JSON] = []
    n = len(points)
    ece = 0.0
    for b in range(BUCKETS):
        inside = [(p, o) for p, o in points
                  if b / BUCKETS <= p < (b + 1) / BUCKETS or (b == BUCKETS - 1 and p == 1.0)]
        if not inside:
            continue
        said = sum(p for p, _ in inside) / len(inside)
        won = sum(o for _, o in inside) / len(inside)
        ece += len(inside) / n * abs(said - won)
        rows.append({"bucket": f"{10 * b}-{10 * (b + 1)}", "decisions": len(inside),
                     "said": round(100 * said, 1), "won": round(100 * won, 1)})
    brier = sum((p - o) ** 2 for p, o in points) / max(n, 1)
    return rows, brier, ece


def _logit(p: float) -> float:
    p = min(max(p, 0.005), 0.995)
    return math.log(p / (1 - p))


def fit_logistic(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(a, b) of ``sigmoid(a * logit(p) + b)`` minimising the log loss (Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for p, o in points:
            x = _logit(p)
            q = 1 / (1 + math.exp(-(a * x + b)))
            ga += (q - o) * x
            gb += q - o
            w = q * (1 - q)
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        a -= (hbb * ga - hab * gb) / det
        b -= (haa * gb - hab * ga) / det
    return a, b


def mapped(points: list[tuple[float, float]], a: float, b: float) -> list[tuple[float, float]]:
    return [(1 / (1 + math.exp(-(a * _logit(p) + b))), o) for p, o in points]


def tail_check(record: MatchRecord, moves: list[JSON]) -> tuple[int, int, float]:
    """2-player Kingdomino from the last line turned up: (decisions where the choice
    matters, of them where the best move found keeps the exact result, summed win-chance
    error of the best move found against the exact value)."""
    from ludoteca.games.kingdomino import endgame

    game = get_game(record.game)
    match = Match.unplayed(game, record, narrate=False)
    matters = kept = 0
    error = 0.0
    for m in moves:
        state = match.state
        if endgame.solvable(state) and not m["forced"]:
            shares = endgame.exact_shares(game, state, m["seat"])
            if len(set(shares.values())) > 1:
                best = max(shares.values())
                matters += 1
                kept += shares[json.dumps(m["best"], sort_keys=True)] == best
                error += abs(m["candidates"][0]["win"] - 100 * best)
        match.step(m["seat"], game.action_from_json(m["action"]))
    return matters, kept, error


def _won(seat: int, analysis: JSON) -> float:
    """The seat's share of the win, 0-1 (a win shared by the winning sides)."""
    ranks = [s["result"]["rank"] for s in analysis["seats"]]
    return 1.0 / ranks.count(1) if ranks[seat] == 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--levels", default="random,greedy")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    budget = args.budget or entry(args.game).search_profile().analysis_budget
    levels = args.levels.split(",")
    mixes = list(product(levels, repeat=args.players))
    """Every way of seating the levels, in turn."""
    per_match: list[list[tuple[float, float]]] = []
    gaps: list[float] = []
    identity = 0.0
    matters = kept = 0
    error = 0.0
    started = time.perf_counter()
    for k in range(args.matches):
        seats = list(mixes[k % len(mixes)])
        record = play(args.game, args.players, seats, 3000 + k)
        analyst = Analyst(record, budget, seed=0)
        part = analyst.part(0, len(record.actions))
        analysis = analyst.report(part["moves"], part["luck"], analyst.finished())
        result = [_won(s, analysis) for s in range(args.players)]
        per_match.append([(m["after"]["win"][m["seat"]] / 100, result[m["seat"]])
                          for m in analysis["moves"] if not m["forced"]])
        raw = part["moves"]
        for t in range(len(raw) - 1 if hasattr(analyst, "linked") else 0):
            if analyst.linked[t] and "played" in raw[t] and "candidates" in raw[t + 1]:
                seat = raw[t]["seat"]
                nxt = raw[t + 1]
                best = nxt["candidates"][0]["win"] if nxt["seat"] == seat else None
                if best is not None:
                    gaps.append(abs(raw[t]["played"]["win"][seat] - best))
        for s in analysis["seats"] if "others" in analysis["seats"][0] else []:
            total = sum(s[term]["win"] for term in ("start", "luck", "skill", "others"))
            identity = max(identity, abs(total - s["result"]["win"]))
        if args.game == "kingdomino" and args.players == 2:
            a, b, c = tail_check(record, analysis["moves"])
            matters, kept, error = matters + a, kept + b, error + c
        print(f"match {k + 1}/{args.matches} ({', '.join(seats)}): "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    points = [p for match in per_match for p in match]
    rows, brier, ece = reliability(points)
    print(f"{args.game}, {args.players} players, {args.matches} matches of {args.levels}, "
          f"budget {budget}: {len(points)} judged decisions")
    print(f"{'said':>8}{'decisions':>11}{'said %':>8}{'won %':>8}")
    for row in rows:
        print(f"{row['bucket']:>8}{row['decisions']:>11}{row['said']:>8}{row['won']:>8}")
    print(f"Brier {brier:.3f} (always 50%: 0.250), expected calibration error "
          f"{100 * ece:.1f} points")
    train = [p for k, match in enumerate(per_match) if k % 2 == 0 for p in match]
    test = [p for k, match in enumerate(per_match) if k % 2 == 1 for p in match]
    fitted: JSON = {}
    if train and test:
        a, b = fit_logistic(train)
        _, raw_brier, raw_ece = reliability(test)
        _, map_brier, map_ece = reliability(mapped(test, a, b))
        fitted = {"a": round(a, 3), "b": round(b, 3), "raw": [round(raw_brier, 4),
                  round(100 * raw_ece, 2)], "mapped": [round(map_brier, 4),
                                                       round(100 * map_ece, 2)]}
        print(f"fitted sigmoid({a:.2f}·logit(p) {b:+.2f}) on the even matches; on the odd: "
              f"Brier {raw_brier:.3f} -> {map_brier:.3f}, calibration error "
              f"{100 * raw_ece:.1f} -> {100 * map_ece:.1f} points")
    over2 = sum(1 for g in gaps if g > 2) / max(len(gaps), 1)
    over10 = sum(1 for g in gaps if g > 10) / max(len(gaps), 1)
    print(f"consistency: the played move's value against the next decision's best, same seat, "
          f"nothing drawn between ({len(gaps)} pairs): over 2 points {100 * over2:.1f}%, over 10 "
          f"{100 * over10:.1f}% (the reported values are one number)")
    print(f"identity: start + luck + skill + others against the result, largest gap "
          f"{identity:.2f} points")
    if matters:
        print(f"exact tail: {matters} decisions where the choice matters; the best move found "
              f"keeps the exact result in {kept} ({100 * kept / matters:.1f}%), win-chance "
              f"error {error / matters:.1f} points on average")
    if args.out is not None:
        figures: dict[str, Any] = {
            "game": args.game, "players": args.players, "matches": args.matches,
            "levels": levels, "budget": budget, "decisions": len(points), "buckets": rows,
            "brier": round(brier, 4), "ece": round(100 * ece, 2), "fitted": fitted,
            "consistency": {"pairs": len(gaps), "over_2": round(over2, 4),
                            "over_10": round(over10, 4)},
            "identity_gap": round(identity, 3),
            "tail": {"matters": matters, "kept": kept,
                     "error": round(error / matters, 2) if matters else None},
        }
        args.out.write_text(json.dumps(figures, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
