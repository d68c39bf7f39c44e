"""Does the analysis's win chance mean what it says? Calibration, consistency and the exact tail.

    python benchmarks/analysis_calibration.py [--game kingdomino] [--players 2] [--matches 200]
                                              [--levels random,greedy] [--budget N]
                                              [--points FILE] [--first-seed 3000]
                                              [--out docs/results/calibration.json]

Plays ``--matches`` matches of bots of ``--levels`` (every way of seating them, in turn; match
``k`` has seed ``--first-seed + k``), analyses each at the game's budget (or ``--budget``) with
the playouts' own win chances (no calibration), and appends one line per match to
``--points``: every judged decision's raw win chance for the deciding seat after its move,
whether the exact solver gave it, and what the seat won. A run that stops keeps what it did,
and a run with the same ``--points`` goes on from there. ``benchmarks/fit_calibration.py``
fits the shipped mapping on one half of those matches and measures it on the other.

It prints, over every match in the file:

- the **reliability table**: the raw win chances in buckets of 10 points against the share of
  those seats that won; the **Brier score** (0.25 for always saying 50%) and the **expected
  calibration error**; then the same for the shipped mapping (``ludoteca/analysis/
  calibration.py``) on the held-out matches (the odd rounds of seatings; it is fitted on the
  even ones);
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
from ludoteca.analysis.calibration import IDENTITY, Calibration, calibration_for
from ludoteca.bots import make_bot
from ludoteca.engine.game import JSON
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, get_game

BUCKETS = 10

Point = tuple[float, float, str]
"""(reported win chance 0-1, the seat's share of the result 0-1, the match and seat: a seat's
decisions of one match share one result, so they are not independent)."""


def play(game_name: str, players: int, levels: list[str], seed: int,
         options: dict[str, Any]) -> MatchRecord:
    bots = [make_bot(level, game_name, seed + k) for k, level in enumerate(levels)]
    match = Match.new(get_game(game_name), options, players, seed, names=levels,
                      controllers=bots, narrate=False)
    match.run_bots()
    match.close()
    return match.record


def reliability(points: list[Point]) -> tuple[list[JSON], float, float]:
    """(buckets, Brier score, expected calibration error) of (predicted 0-1, observed 0-1).
    Each bucket also says how many seats' matches its decisions come from and the 95% margin
    of its gap between said and won, counted by seat and match (a seat's decisions of one
    match share one result: the margin is that of a cluster sample, not of independent
    decisions)."""
    rows: list[JSON] = []
    n = len(points)
    ece = 0.0
    for b in range(BUCKETS):
        inside = [(p, o, c) for p, o, c in points
                  if b / BUCKETS <= p < (b + 1) / BUCKETS or (b == BUCKETS - 1 and p == 1.0)]
        if not inside:
            continue
        said = sum(p for p, _, _ in inside) / len(inside)
        won = sum(o for _, o, _ in inside) / len(inside)
        ece += len(inside) / n * abs(said - won)
        gap = won - said
        clusters: dict[str, float] = {}
        for p, o, c in inside:
            clusters[c] = clusters.get(c, 0.0) + (o - p) - gap
        margin = 1.96 * math.sqrt(sum(v * v for v in clusters.values())) / len(inside)
        rows.append({"bucket": f"{10 * b}-{10 * (b + 1)}", "decisions": len(inside),
                     "seats": len(clusters), "said": round(100 * said, 1),
                     "won": round(100 * won, 1), "margin": round(100 * margin, 1)})
    brier = sum((p - o) ** 2 for p, o, _ in points) / max(n, 1)
    return rows, brier, ece


def worst_bucket(rows: list[JSON], least: int = 50) -> tuple[str, float]:
    """The bucket of at least ``least`` decisions whose mean said lies furthest from what was
    won, and by how many points (``("-", 0)`` when none has that many)."""
    big = [r for r in rows if r["decisions"] >= least]
    if not big:
        return "-", 0.0
    row = max(big, key=lambda r: abs(r["said"] - r["won"]))
    return str(row["bucket"]), round(abs(row["said"] - row["won"]), 1)


def print_table(title: str, points: list[Point]) -> tuple[list[JSON], float, float]:
    rows, brier, ece = reliability(points)
    print(f"{title}: {len(points)} decisions")
    print(f"{'said':>8}{'decisions':>11}{'seats':>7}{'said %':>8}{'won %':>8}{'± 95%':>8}")
    for row in rows:
        flag = "  off by more than 5" if (row["decisions"] >= 50
                                         and abs(row["said"] - row["won"]) > 5) else ""
        print(f"{row['bucket']:>8}{row['decisions']:>11}{row['seats']:>7}{row['said']:>8}"
              f"{row['won']:>8}{row['margin']:>8}{flag}")
    bucket, off = worst_bucket(rows)
    print(f"Brier {brier:.4f} (always 50%: 0.250), expected calibration error "
          f"{100 * ece:.2f} points; worst bucket of 50 or more: {bucket} off by {off}")
    return rows, brier, ece


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


def analyse_one(record: MatchRecord, budget: int, calibration: Calibration
                ) -> tuple[JSON, list[bool], Analyst]:
    """The analysis (with ``calibration``) and, per move, whether its values were exact."""
    analyst = Analyst(record, budget, seed=0, calibration=calibration)
    moves: list[JSON] = []
    luck: list[JSON] = []
    exact: list[bool] = []
    for ply in range(len(record.actions)):
        before = analyst.evaluator.solved
        part = analyst.part(ply, ply + 1)
        moves += part["moves"]
        luck += part["luck"]
        exact.append(analyst.evaluator.solved > before)
    return analyst.report(moves, luck, analyst.finished()), exact, analyst


def measure(game: str, players: int, k: int, seats: list[str], seed: int, budget: int,
            options: dict[str, Any]) -> JSON:
    """One match's line of the points file."""
    started = time.perf_counter()
    record = play(game, players, seats, seed, options)
    analysis, exact, analyst = analyse_one(record, budget, IDENTITY)
    result = [s["result"]["win"] / 100 for s in analysis["seats"]]
    decisions = [[m["ply"], m["seat"], round(m["after"]["win"][m["seat"]] / 100, 5),
                  int(exact[m["ply"]])] for m in analysis["moves"] if not m["forced"]]
    gaps: list[float] = []
    raw = [m for m in analysis["moves"]]
    for t in range(len(raw) - 1):
        if analyst.linked[t] and not raw[t + 1]["forced"] and raw[t + 1]["seat"] == raw[t]["seat"]:
            best = raw[t + 1]["candidates"][0]["win"]
            gaps.append(round(abs(raw[t]["after"]["win"][raw[t]["seat"]] - best), 2))
    identity = 0.0
    for s in analysis["seats"]:
        total = sum(s[term]["win"] for term in ("start", "luck", "skill", "others"))
        identity = max(identity, abs(total - s["result"]["win"]))
    tail = [0, 0, 0.0]
    if game == "kingdomino" and players == 2:
        tail = list(tail_check(record, analysis["moves"]))
    return {"k": k, "seed": seed, "levels": seats, "sides": analyst.sides, "result": result,
            "decisions": decisions, "gaps": gaps, "identity": round(identity, 3),
            "tail": tail, "seconds": round(time.perf_counter() - started, 2)}


def load(path: Path) -> list[JSON]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def held_out(line: JSON, mixes: int) -> bool:
    """Whether a match is in the held-out half: the odd rounds of seatings, so both halves
    hold every seating equally."""
    return bool((line["k"] // mixes) % 2)


def points_of(lines: list[JSON], mapping: Calibration = IDENTITY,
              exact: bool | None = None) -> list[Point]:
    """Every judged decision's (win chance, result), mapped by ``mapping``; ``exact`` keeps
    only the solver's (True) or only the estimated ones (False)."""
    out: list[Point] = []
    for line in lines:
        for _, seat, q, ex in line["decisions"]:
            if exact is None or bool(ex) == exact:
                out.append((mapping.win(q, line["sides"], bool(ex)), line["result"][seat],
                            f"{line['k']}/{seat}"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--levels", default="random,greedy")
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--first-seed", type=int, default=3000)
    parser.add_argument("--option", action="append", default=[],
                        help="a game option, name=integer (Kami: target=10)")
    parser.add_argument("--points", type=Path, default=None,
                        help="the points file (default docs/results/calibration/GAME-Np.jsonl)")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    budget = args.budget or entry(args.game).search_profile().budget_for(args.players)
    levels = args.levels.split(",")
    options = {k: int(v) for k, v in (o.split("=", 1) for o in args.option)}
    mixes = list(product(levels, repeat=args.players))
    """Every way of seating the levels, in turn."""
    path = args.points or (Path(__file__).resolve().parent.parent / "docs" / "results"
                           / "calibration" / f"{args.game}-{args.players}p.jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    done = {line["k"] for line in load(path)}
    started = time.perf_counter()
    for k in range(args.matches):
        if k in done:
            continue
        seats = list(mixes[k % len(mixes)])
        line = measure(args.game, args.players, k, seats, args.first_seed + k, budget, options)
        with path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        print(f"match {k + 1}/{args.matches} ({', '.join(seats)}): {line['seconds']:.1f} s, "
              f"{time.perf_counter() - started:.0f} s in all", file=sys.stderr, flush=True)
    report(path, args.game, args.players, len(mixes), budget, args.out)


def report(path: Path, game: str, players: int, mixes: int, budget: int,
           out: Path | None) -> JSON:
    lines = load(path)
    seconds = sum(line["seconds"] for line in lines) / max(len(lines), 1)
    print(f"{game}, {players} players, {len(lines)} matches of "
          f"{sorted({lv for line in lines for lv in line['levels']})}, budget {budget}, "
          f"{seconds:.1f} s a match (playing and analysing)")
    rows, brier, ece = print_table("raw win chances, every match", points_of(lines))
    for exact in (False, True):
        subset = points_of(lines, exact=exact)
        if subset:
            print_table("  of them " + ("exact (the solver's)" if exact else "estimated"), subset)
    test = [line for line in lines if held_out(line, mixes)]
    mapping = calibration_for(game, players)
    figures: dict[str, Any] = {}
    if test:
        raw_rows, raw_brier, raw_ece = print_table(
            f"held-out matches ({len(test)}), raw", points_of(test))
        map_rows, map_brier, map_ece = print_table(
            f"held-out matches ({len(test)}), with the shipped mapping {mapping.to_json()}",
            points_of(test, mapping))
        figures["held_out"] = {
            "matches": len(test), "mapping": mapping.to_json(),
            "raw": {"buckets": raw_rows, "brier": round(raw_brier, 4),
                    "ece": round(100 * raw_ece, 2), "worst": worst_bucket(raw_rows)},
            "mapped": {"buckets": map_rows, "brier": round(map_brier, 4),
                       "ece": round(100 * map_ece, 2), "worst": worst_bucket(map_rows)}}
    gaps = [g for line in lines for g in line["gaps"]]
    over2 = sum(1 for g in gaps if g > 2) / max(len(gaps), 1)
    over10 = sum(1 for g in gaps if g > 10) / max(len(gaps), 1)
    print(f"consistency: the played move's value against the next decision's best, same seat, "
          f"nothing drawn between ({len(gaps)} pairs): over 2 points {100 * over2:.1f}%, over 10 "
          f"{100 * over10:.1f}% (the reported values are one number)")
    identity = max((line["identity"] for line in lines), default=0.0)
    print(f"identity: start + luck + skill + others against the result, largest gap "
          f"{identity:.2f} points")
    matters = sum(line["tail"][0] for line in lines)
    kept = sum(line["tail"][1] for line in lines)
    error = sum(line["tail"][2] for line in lines)
    if matters:
        print(f"exact tail: {matters} decisions where the choice matters; the best move found "
              f"keeps the exact result in {kept} ({100 * kept / matters:.1f}%), win-chance "
              f"error {error / matters:.1f} points on average")
    figures.update({
        "game": game, "players": players, "matches": len(lines), "budget": budget,
        "seconds_per_match": round(seconds, 1),
        "decisions": sum(len(line["decisions"]) for line in lines),
        "raw": {"buckets": rows, "brier": round(brier, 4), "ece": round(100 * ece, 2)},
        "consistency": {"pairs": len(gaps), "over_2": round(over2, 4),
                        "over_10": round(over10, 4)},
        "identity_gap": round(identity, 3),
        "tail": {"matters": matters, "kept": kept,
                 "error": round(error / matters, 2) if matters else None}})
    if out is not None:
        out.write_text(json.dumps(figures, indent=1) + "\n", "utf-8")
    return figures


if __name__ == "__main__":
    main()
