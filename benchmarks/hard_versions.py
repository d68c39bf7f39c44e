"""Issue 37's figure: a ``hard`` on the native core against the ``hard`` before it
(``bot:hard@1``: 1.5 s a move, its playouts in Python), 2-player Kingdomino.

    python benchmarks/hard_versions.py [--new seconds|tree|playouts] [--clock wall|cpu]
                                       [--games 200] [--minutes 25] [--seed 37] [--shard K/N]
                                       [--results FILE.jsonl] [--out FILE.json]

Game g is deal g and the two bots swap seats every game. The old bot is ``SearchBot`` with the
1.5 s budget and the game's search profile, choosing with ``LUDOTECA_CORE=python`` (the Python
playouts it had before the native core). ``--new seconds`` (the issue's wording, "at the same
seconds per move") pits the same 1.5 s bot on the native core against it, where the whole flat
search runs natively (``games/kingdomino/native_search.py``), and ``--new tree`` the same bot
searching a tree (``mode="uct"``, native too); ``--new playouts`` pits today's
``make_bot("hard", "kingdomino")`` (a fixed playout budget). With ``--clock wall`` (the old
bot as it shipped) the budgets in seconds are on the clock, so the figure depends on how busy
the machine is while they think; ``--clock cpu`` gives each 1.5 s bot 1.5 s of this process's
CPU a move instead (``SearchBot(cpu_seconds=1.5)``, early stops on the CPU clock): the compute
each has on a quiet machine, whatever the load, at the price of longer games on a busy one.
Each game records the playouts each bot searched a move, its seconds and CPU seconds a move,
and the load.

``--results`` accumulates: every finished game is appended to the file as one JSON line, a rerun
with the same ``--new``, ``--clock`` and ``--seed`` skips the games already there and plays the
next ones, and the summary (the new bot's score, a shared win counting half, with its 95% Wilson
interval) is over every line of them. So runs on different days can add up to the
issue's 200 games, and ``--shard K/N`` lets N processes share one file (each plays the games
g with g % N == K, and its summary is over every game in the file when it ends). A move with
one legal action is played at once by both bots (no search), so it costs no time: about 6 of a
game's 48 decisions.
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
from ludoteca.engine.native import using_core, which_core
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
        with using_core(self.core):
            return self.bot.choose(game, view, seat, deadline)


def old_hard(seed: int, core: str = "python", clock: str = "wall",
             mode: str | None = None) -> OnCore:
    """``bot:hard@1``: 1.5 s a move on the clock, or with ``clock="cpu"`` of CPU; ``mode``
    another search than the profile's (``"uct"``: the tree)."""
    profile = entry("kingdomino").search_profile()
    budget = SEARCH_SECONDS["hard"]
    bot = (SearchBot(seconds=budget, seed=seed, name="hard@1", profile=profile, mode=mode)
           if clock == "wall" else
           SearchBot(seconds=None, cpu_seconds=budget, seed=seed, name="hard@1",
                     profile=profile, mode=mode))
    return OnCore(bot, core)


def new_bot(new: str, seed: int, clock: str = "wall") -> Bot:
    """``seconds``: the 1.5 s bot on the native core; ``tree``: the same with the tree search
    (``mode="uct"``, whole in C++ too); ``playouts``: today's ``hard``."""
    if new == "playouts":
        return make_bot("hard", "kingdomino", seed)
    return old_hard(seed, "native", clock, mode="uct" if new == "tree" else None)


def searched(bot: Bot) -> int:
    """The playouts the bot's last search ran (0 when it played a forced move)."""
    inner = bot.bot if isinstance(bot, OnCore) else bot
    stats = getattr(inner, "last_stats", None)
    return stats.iterations if stats is not None else 0


def play(g: int, seed: int, new: str, clock: str = "wall") -> dict[str, Any]:
    """Game g: deal g, the new bot in seat g % 2. Per-seat figures are listed new first."""
    new_seat = g % 2
    bots = {new_seat: new_bot(new, seed + 2 * g, clock),
            1 - new_seat: old_hard(seed + 2 * g + 1, clock=clock)}
    state = GAME.setup({}, 2, seed * 1000 + g)
    think = [0.0, 0.0]
    cpu = [0.0, 0.0]
    moves = [0, 0]
    searches = [0, 0]
    playouts = [0, 0]
    began_game = time.perf_counter()
    while seats := GAME.to_act(state):
        (seat,) = seats
        forced = len(GAME.legal_actions(state, seat)) == 1
        bot = bots[seat]
        began, began_cpu = time.perf_counter(), time.process_time()
        action = bot.choose(GAME, GAME.view(state, seat), seat)
        think[seat] += time.perf_counter() - began
        cpu[seat] += time.process_time() - began_cpu
        moves[seat] += 1
        if not forced:
            searches[seat] += 1
            playouts[seat] += searched(bot)
        GAME.apply_legal(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    mine, theirs = outcome.ranks[new_seat], outcome.ranks[1 - new_seat]
    score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    order = (new_seat, 1 - new_seat)
    return {"new": new, "clock": clock, "seed": seed, "game": g, "new_seat": new_seat,
            "score": score,
            "points": [outcome.scores[k] for k in order],
            "moves": [moves[k] for k in order],
            "searched_moves": [searches[k] for k in order],
            "seconds_per_move": [think[k] / moves[k] for k in order],
            "cpu_seconds_per_move": [cpu[k] / moves[k] for k in order],
            "playouts_per_search": [playouts[k] / max(1, searches[k]) for k in order],
            "game_seconds": time.perf_counter() - began_game,
            "load": list(os.getloadavg()), "nice": os.nice(0), "cores": os.cpu_count(),
            "bot_version": BOT_VERSION,
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def read_rows(path: Path | None, new: str, seed: int,
              clock: str = "wall") -> list[dict[str, Any]]:
    """The games of ``new``, ``clock`` and ``seed`` already in the results file (each game
    once)."""
    if path is None or not path.exists():
        return []
    rows: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if (row.get("new") == new and row.get("seed") == seed
                and row.get("clock", "wall") == clock):
            rows.setdefault(int(row["game"]), row)
    return [rows[g] for g in sorted(rows)]


def summarize(rows: list[dict[str, Any]], new: str, seed: int,
              clock: str = "wall") -> dict[str, Any]:
    """The new bot's score over ``rows`` with its 95% Wilson interval, and per-bot means."""
    n = len(rows)
    won = sum(r["score"] for r in rows)
    low, high = wilson_interval(won, n)

    def mean(key: str, k: int) -> float:
        values = [r[key][k] for r in rows if key in r]
        return sum(values) / len(values) if values else float("nan")

    keys = ("points", "seconds_per_move", "cpu_seconds_per_move", "playouts_per_search")
    return {
        "new": f"bot:hard@{BOT_VERSION}" if new == "playouts"
        else "hard 1.5 s a move, the whole tree search on the native core" if new == "tree"
        else "hard 1.5 s a move, whole search on the native core",
        "old": "bot:hard@1 (1.5 s a move, Python playouts)",
        "games": n, "new_score": won, "rate": won / n if n else float("nan"),
        "ci95": [low, high],
        **{f"mean_{key}": [mean(key, 0), mean(key, 1)] for key in keys},
        "clock": clock, "seed": seed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="the total to reach")
    parser.add_argument("--minutes", type=float, default=25.0,
                        help="begin no game after this many minutes")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--new", choices=("playouts", "seconds", "tree"), default="playouts")
    parser.add_argument("--shard", default="0/1",
                        help="K/N: play only the games g with g %% N == K (N processes, one file)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="the 1.5 s budgets on the clock or of CPU")
    parser.add_argument("--results", type=Path, default=None,
                        help="a JSON-lines file games are appended to and read back from")
    parser.add_argument("--out", type=Path, default=None, help="write the summary as JSON")
    args = parser.parse_args()
    if which_core() != "native":
        sys.exit("the native core is needed (LUDOTECA_CORE=auto or native, ludoteca_native)")
    start = time.perf_counter()
    rows = read_rows(args.results, args.new, args.seed, args.clock)
    have = {r["game"] for r in rows}
    if rows:
        print(f"{len(rows)} games already in {args.results}", flush=True)
    shard, shards = (int(x) for x in args.shard.split("/"))
    for g in range(args.games):
        if g in have or g % shards != shard:
            continue
        if time.perf_counter() - start > args.minutes * 60:
            break
        row = play(g, args.seed, args.new, args.clock)
        rows.append(row)
        if args.results is not None:
            with args.results.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
        won = sum(r["score"] for r in rows)
        print(f"game {g}: new {row['score']:g} ({won:g}/{len(rows)}), playouts a search "
              f"{row['playouts_per_search'][0]:.0f} vs {row['playouts_per_search'][1]:.0f}, "
              f"{row['game_seconds']:.0f} s", flush=True)
    if args.results is not None:  # other shards may have added games meanwhile
        rows = read_rows(args.results, args.new, args.seed, args.clock)
    summary = summarize(rows, args.new, args.seed, args.clock)
    summary["minutes_this_run"] = (time.perf_counter() - start) / 60
    print(json.dumps(summary, indent=1))
    if args.out is not None:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
