"""This tree against another checkout, measured in one run: engine games/s and search
iterations/s per game, alternating the two trees so that machine load hits both alike.

    git worktree add /tmp/old <commit>
    python benchmarks/side_by_side.py /tmp/old [--rounds 3] [--seconds 2] [--search 0]

Each measurement runs in a fresh process with ``PYTHONPATH`` set to one tree, through that
tree's own code (``ludoteca.bench.games_per_second``; its ``bots.search.search`` with the game's
own profile). The best of ``--rounds`` is kept per tree (the least disturbed run), and the
ratio new/old printed: ``ludoteca bench`` must stay at or above 0.95x the old engine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

ENGINE = """
import json, sys
from ludoteca.bench import bench_players, games_per_second
from ludoteca.games import get_game
game = get_game(sys.argv[1])
played, elapsed = games_per_second(game, bench_players(game), float(sys.argv[2]))
print(json.dumps(played / elapsed))
"""

SEARCH = """
import inspect, json, sys, time
from ludoteca.bots import search as s
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
game = get_game(sys.argv[1])
kw = {}
if "profile" in inspect.signature(s.search).parameters:
    from ludoteca.games import entry
    kw["profile"] = entry(sys.argv[1]).search_profile()
views = []
for g in range(4):
    players = 2 if sys.argv[1] != "goita" else 4
    state = game.setup({}, players, 500 + g)
    rng = Rng(g)
    for ply in range(1000):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        if ply >= 12 and len(legal) > 1 and len(views) < 4 * (g + 1):
            views.append((game.view(state, seat), seat))
        game.apply_legal(state, seat, legal[rng.below(len(legal))])
done = 0
spent = 0.0
for view, seat in views:
    start = time.perf_counter()
    stats, _ = s.search(game, view, seat, seconds=float(sys.argv[2]), seed=1, early_stop=False,
                        **kw)
    spent += time.perf_counter() - start
    done += stats.iterations
print(json.dumps(done / spent))
"""


def measure(tree: Path, code: str, game: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", code, game, str(seconds)],
        env=env, cwd=tree, capture_output=True, text=True, check=True,
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", type=Path, help="checkout of the commit to compare against")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="engine seconds per run")
    parser.add_argument("--search", type=float, default=0.0,
                        help="seconds per searched view (0: skip the search comparison)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    from ludoteca.games import game_names  # this tree's registry names the games

    games = args.game or game_names()
    kinds = [("engine games/s", ENGINE, args.seconds)]
    if args.search > 0:
        kinds.append(("search iterations/s", SEARCH, args.search))
    console = Console()
    results = []
    for title, code, seconds in kinds:
        table = Table(title=f"{title}: best of {args.rounds}, new vs {args.old}")
        for col in ("game", "old", "new", "new/old"):
            table.add_column(col, justify="left" if col == "game" else "right")
        for game in games:
            old: list[float] = []
            new: list[float] = []
            with console.status(f"{title}: {game}"):
                for _ in range(args.rounds):
                    old.append(measure(args.old, code, game, seconds))
                    new.append(measure(HERE, code, game, seconds))
            ratio = max(new) / max(old)
            results.append({"kind": title, "game": game, "old": old, "new": new,
                            "ratio": ratio})
            style = "green" if ratio >= 0.95 else "red"
            table.add_row(game, f"{max(old):,.0f}", f"{max(new):,.0f}",
                          f"[{style}]{ratio:.2f}x[/]")
        console.print(table)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
