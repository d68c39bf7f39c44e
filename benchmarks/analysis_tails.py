"""The exact tails beyond 2-player Kingdomino: how the analysis did there before and after.

    python benchmarks/analysis_tails.py [--matches 30] [--budget N] [--games kami,goita]
                                        [--levels greedy,random] [--out tails.json]

For each case (Queendomino 2 players: its last two turns; Kingdomino 3 and 4 players: the
last round; Kami 2 and 4 players and Goita: where every hand is known to every seat and every
ending ends the match), plays ``--matches`` matches of bots of ``--levels`` (every way of
seating them, in turn), finds where the game's exact solver starts (``SearchProfile.exact``),
and analyses the decisions from there at the game's budget (or ``--budget``) twice: with the
solver (after) and with playouts only (before). Where the choice matters (the legal moves'
exact results for the deciding seat differ) it counts how often the best move found keeps the
exact result, and the mean distance between its win chance and the exact one. For Kami and
Goita it also counts the decisions where the deciding seat's view determines every hand, and
those in the solved tail.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.analysis.analyse import Analyst
from ludoteca.analysis.estimates import Evaluator
from ludoteca.bots import make_bot
from ludoteca.engine.game import JSON
from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import entry, get_game

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("queendomino", 2, {}), ("kingdomino", 3, {}), ("kingdomino", 4, {}),
    ("kami", 2, {"target": 10}), ("kami", 4, {"target": 10}), ("goita", 4, {})]


def play(game_name: str, players: int, options: dict[str, Any], seed: int,
         kinds: list[str]) -> MatchRecord:
    every = list(product(kinds, repeat=players))
    levels = every[seed % len(every)]
    bots = [make_bot(level, game_name, seed + s) for s, level in enumerate(levels)]
    match = Match.new(get_game(game_name), options, players, seed, controllers=bots,
                      narrate=False)
    match.run_bots()
    return match.record


def states(record: MatchRecord) -> list[Any]:
    game = get_game(record.game)
    match = Match.unplayed(game, record, narrate=False)
    out = []
    for seat, data in record.actions:
        out.append(game.clone(match.state))
        match.step(seat, game.action_from_json(data))
    return out


def exact_shares(game: Any, exact: Any, state: Any, seat: int) -> dict[str, float]:
    """Each legal action of ``seat`` (by its sorted JSON) and the share of the win it keeps."""
    shares = {}
    for action in game.legal_actions(state, seat):
        child = game.clone(state)
        game.apply_legal(child, seat, action)
        found = exact(game, child)
        assert found is not None
        shares[json.dumps(action.to_json(), sort_keys=True)] = found[0][seat]
    return shares


def judged(moves: list[JSON], before: list[Any], tail: int, game: Any, exact: Any
           ) -> tuple[int, int, float]:
    """(decisions where the choice matters, of them where the best move found keeps the exact
    result, summed win-chance error of the best move found)."""
    matters = kept = 0
    error = 0.0
    for m in moves:
        if "best" not in m or m["forced"]:
            continue
        shares = exact_shares(game, exact, before[m["ply"]], m["seat"])
        if len(set(shares.values())) > 1:
            best = max(shares.values())
            matters += 1
            kept += shares[json.dumps(m["best"], sort_keys=True)] == best
            error += abs(m["candidates"][0]["win"] - 100 * best)
    return matters, kept, error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--budget", type=int, default=None)
    parser.add_argument("--games", default=",".join(sorted({c[0] for c in CASES})))
    parser.add_argument("--levels", default="greedy,random")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    wanted = set(args.games.split(","))
    results = []
    for game_name, players, options in CASES:
        if game_name not in wanted:
            continue
        game = get_game(game_name)
        profile = entry(game_name).search_profile()
        exact = profile.exact
        assert exact is not None
        totals = {"after": [0, 0, 0.0], "before": [0, 0, 0.0]}
        decisions = tail_decisions = knows = 0
        started = time.perf_counter()
        seconds = {"after": 0.0, "before": 0.0}
        for seed in range(args.matches):
            record = play(game_name, players, options, seed, args.levels.split(","))
            before = states(record)
            firsts = [p for p, s in enumerate(before) if exact(game, s) is not None]
            tail = firsts[0] if firsts else len(before)
            decisions += len(before)
            tail_decisions += len(before) - tail
            if game_name in ("kami", "goita"):
                from ludoteca.games.kami.endgame import knows_every_hand
                from ludoteca.games.kami.state import PLAY as KAMI_PLAY
                knows += sum(knows_every_hand(s, seat) for s, (seat, _) in
                             zip(before, record.actions, strict=True) if s.phase == KAMI_PLAY)
            if tail == len(before):
                continue
            for label in ("after", "before"):
                analyst = Analyst(record, args.budget, seed)
                if label == "before":
                    analyst.evaluator = Evaluator(game, replace(profile, exact=None), seed)
                clock = time.perf_counter()
                moves = analyst.part(tail, len(before))["moves"]
                seconds[label] += time.perf_counter() - clock
                got = judged(moves, before, tail, game, exact)
                for i in range(3):
                    totals[label][i] += got[i]
        row: JSON = {"game": game_name, "players": players, "matches": args.matches,
                     "levels": args.levels,
                     "decisions": decisions, "in_tail": tail_decisions,
                     "seconds": round(time.perf_counter() - started, 1)}
        if game_name in ("kami", "goita"):
            row["deciding_seat_knows_every_hand"] = knows
        for label, (matters, kept, error) in totals.items():
            row[label] = {"matters": matters, "kept": kept,
                          "kept_pct": round(100 * kept / matters, 1) if matters else None,
                          "mean_error": round(error / matters, 1) if matters else None,
                          "analysis_seconds": round(seconds[label], 1)}
        print(json.dumps(row), flush=True)
        results.append(row)
    if args.out:
        args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
