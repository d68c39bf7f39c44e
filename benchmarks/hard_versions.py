"""Issue 37's figure: today's ``hard`` (``bot:hard@2``: native playouts, a fixed playout budget)
against the ``hard`` before it (``bot:hard@1``: 1.5 s a move, its playouts in Python), 2-player
Kingdomino.

    python benchmarks/hard_versions.py [--games 200] [--minutes 25] [--seed 37]
                                       [--new seconds] [--out docs/results/hard-versions.json]

Game g is deal g and the two bots swap seats every game. The old bot is ``SearchBot`` with the
1.5 s budget and the game's search profile, choosing with ``LUDOTECA_CORE=python`` (the Python
playouts it had before the native core); the new one is ``make_bot("hard", "kingdomino")``.
``--new seconds`` instead pits the same 1.5 s bot on the native core against it: the issue's
wording, "at the same seconds per move". The old bot's strength depends on how fast the
machine is while it thinks (its budget is seconds), so the figure does too: it is measured on
the machine it ran on, load included. Prints the new bot's score (a shared win counts half) with
its 95% Wilson interval, and the mean points and seconds per move (on the clock and of CPU)
of each, new first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludoteca.bots import BOT_VERSION, SEARCH_SECONDS, Bot, make_bot
from ludoteca.bots.search import SearchBot
from ludoteca.engine.game import JSON, Game, Seat
from ludoteca.engine.native import which_core
from ludoteca.games import entry
from ludoteca.games.kingdomino.rules import GAME
from ludoteca.tournament.stats import wilson_interval


class OnCore(Bot):
    """A bot that chooses with ``LUDOTECA_CORE`` set to ``core`` (read at every playout)."""

    def __init__(self, bot: Bot, core: str) -> None:
        self.bot = bot
        self.core = core

    def choose(self, game: Game[Any, Any], view: JSON, seat: Seat,
               deadline: float | None = None) -> Any:
        was = os.environ.get("LUDOTECA_CORE")
        os.environ["LUDOTECA_CORE"] = self.core
        try:
            return self.bot.choose(game, view, seat, deadline)
        finally:
            if was is None:
                del os.environ["LUDOTECA_CORE"]
            else:
                os.environ["LUDOTECA_CORE"] = was


def old_hard(seed: int, core: str = "python") -> Bot:
    profile = entry("kingdomino").search_profile()
    return OnCore(SearchBot(seconds=SEARCH_SECONDS["hard"], seed=seed, name="hard@1",
                            profile=profile), core)


def play(g: int, seed: int, new: str) -> dict[str, Any]:
    """Game g: deal g, the new bot in seat g % 2."""
    new_seat = g % 2
    fresh = (make_bot("hard", "kingdomino", seed + 2 * g) if new == "playouts"
             else old_hard(seed + 2 * g, "native"))
    bots = {new_seat: fresh, 1 - new_seat: old_hard(seed + 2 * g + 1)}
    state = GAME.setup({}, 2, seed * 1000 + g)
    think = [0.0, 0.0]
    cpu = [0.0, 0.0]
    moves = [0, 0]
    while seats := GAME.to_act(state):
        (seat,) = seats
        began, began_cpu = time.perf_counter(), time.process_time()
        action = bots[seat].choose(GAME, GAME.view(state, seat), seat)
        think[seat] += time.perf_counter() - began
        cpu[seat] += time.process_time() - began_cpu
        moves[seat] += 1
        GAME.apply_legal(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    mine, theirs = outcome.ranks[new_seat], outcome.ranks[1 - new_seat]
    score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    return {"game": g, "new_seat": new_seat, "score": score,
            "points": [outcome.scores[new_seat], outcome.scores[1 - new_seat]],
            "seconds_per_move": [think[new_seat] / moves[new_seat],
                                 think[1 - new_seat] / moves[1 - new_seat]],
            "cpu_seconds_per_move": [cpu[new_seat] / moves[new_seat],
                                     cpu[1 - new_seat] / moves[1 - new_seat]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--minutes", type=float, default=25.0,
                        help="begin no game after this many minutes")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--new", choices=("playouts", "seconds"), default="playouts")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args()
    if which_core() != "native":
        sys.exit("the native core is needed (LUDOTECA_CORE=auto or native, ludoteca_native)")
    start = time.perf_counter()
    rows = []
    for g in range(args.games):
        if time.perf_counter() - start > args.minutes * 60:
            break
        rows.append(play(g, args.seed, args.new))
        won = sum(r["score"] for r in rows)
        print(f"game {g}: new {rows[-1]['score']:g} ({won:g}/{len(rows)})", flush=True)
    n = len(rows)
    won = sum(r["score"] for r in rows)
    low, high = wilson_interval(won, n)
    summary = {
        "new": f"bot:hard@{BOT_VERSION}" if args.new == "playouts" else "hard 1.5 s, native",
        "old": "bot:hard@1 (1.5 s, Python playouts)",
        "games": n, "new_score": won, "rate": won / n, "ci95": [low, high],
        "mean_points": [sum(r["points"][k] for r in rows) / n for k in (0, 1)],
        "seconds_per_move": [sum(r["seconds_per_move"][k] for r in rows) / n for k in (0, 1)],
        "cpu_seconds_per_move": [sum(r["cpu_seconds_per_move"][k] for r in rows) / n
                                 for k in (0, 1)],
        "minutes": (time.perf_counter() - start) / 60, "cores": os.cpu_count(),
        "load": os.getloadavg(), "seed": args.seed,
    }
    print(json.dumps(summary, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps({**summary, "rows": rows}, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
