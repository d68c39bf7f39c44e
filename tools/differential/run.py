"""``python -m tools.differential``: seeded matches of every game, player count and option set
the native core plays (``families.all_cases``), each stepped on both cores by its family's
comparison, in worker processes; stops at the first disagreement with the command that replays
it, and writes a JSON summary. docs/engine.md, "The native core", says how long a full run
takes."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
import traceback
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from importlib import metadata
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tools.differential.core import POLICIES, Case
from tools.differential.families import all_cases, family_of, gaps, native_games

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = ROOT / "docs" / "results" / "differential.json"


@dataclass(frozen=True)
class Chunk:
    """Seeds ``first`` to ``first + count - 1`` of one configuration; seed ``s`` plays
    ``policies[s % len(policies)]``, so a seed names its match alone."""

    label: str
    first: int
    count: int
    policies: tuple[str, ...]
    observe: bool
    fault_at: int | None = None


@dataclass
class Done:
    """What a chunk compared, or the disagreement that stopped it."""

    label: str
    matches: int = 0
    states: int = 0
    seconds: float = 0.0
    failure: dict[str, object] | None = None


@dataclass
class Tally:
    case: Case
    matches: int = 0
    states: int = 0
    seconds: float = 0.0
    policies: dict[str, int] = field(default_factory=dict)


def case_of(label: str) -> Case:
    for case in all_cases():
        if case.label == label:
            return case
    raise KeyError(f"no configuration {label!r}")


def repro(label: str, seed: int, policy: str, observe: bool) -> str:
    """The command that replays one match alone."""
    flags = "" if observe else " --no-observe"
    return (f"python -m tools.differential --config '{label}' --policy {policy} --seed {seed} "
            f"--matches 1 --jobs 1{flags}")


def run_chunk(chunk: Chunk) -> Done:
    """Play a chunk's matches on both cores (in a worker process, or in this one)."""
    case = case_of(chunk.label)
    family = family_of(case.game)
    done = Done(chunk.label)
    start = time.process_time()
    for seed in range(chunk.first, chunk.first + chunk.count):
        policy = chunk.policies[seed % len(chunk.policies)]
        try:
            done.states += family.play(case, seed, policy, observe=chunk.observe,
                                       fault_at=chunk.fault_at)
        except Exception as exc:  # a Disagreement, or a core refusing what the other took
            done.failure = {
                "label": chunk.label, "config": case.to_json(), "seed": seed, "policy": policy,
                "error": type(exc).__name__, "message": str(exc),
                "traceback": traceback.format_exc(limit=-3),
                "repro": repro(chunk.label, seed, policy, chunk.observe),
            }
            break
        done.matches += 1
    done.seconds = time.process_time() - start
    return done


def chunks(cases: Sequence[Case], matches: int, first_seed: int, size: int,
           policies: tuple[str, ...], observe: bool, fault_at: int | None) -> list[Chunk]:
    """Every configuration's seeds in chunks of ``size``, the configurations interleaved (the
    bar then moves through all of them at once)."""
    out = []
    for start in range(0, matches, size):
        count = min(size, matches - start)
        out += [Chunk(c.label, first_seed + start, count, policies, observe, fault_at)
                for c in cases]
    return out


def core_version() -> dict[str, object]:
    """The native distribution's version and the commits: the checkout's and ``native/``'s."""

    def git(*args: str) -> str | None:
        try:
            res = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                                 timeout=10, check=False)
        except OSError:
            return None
        return res.stdout.strip() or None

    try:
        version: str | None = metadata.version("ludoteca-native")
    except metadata.PackageNotFoundError:
        version = None
    return {"distribution": "ludoteca-native", "version": version,
            "commit": git("rev-parse", "HEAD"),
            "native_commit": git("log", "-1", "--format=%H", "--", "native"),
            "dirty": bool(git("status", "--porcelain", "--", "native", "ludoteca"))}


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.differential",
        description="Play seeded matches of every game, player count and option set on the "
                    "native core and the Python engine, comparing every state.")
    parser.add_argument("--matches", type=int, default=10_000,
                        help="seeded matches per configuration (default 10000)")
    parser.add_argument("--game", action="append", default=[],
                        help="only this game (repeatable; default: every native game)")
    parser.add_argument("--config", action="append", default=[],
                        help="only this configuration, by label (repeatable; --list shows them)")
    parser.add_argument("--policy", action="append", default=[], choices=POLICIES,
                        help="only this policy (repeatable; default: random, greedy, mixed, "
                             "seed s playing the (s mod 3)th)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: the CPUs; 1 plays in this process)")
    parser.add_argument("--chunk", type=int, default=25, help="matches per worker task")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="the JSON summary (default docs/results/differential.json)")
    parser.add_argument("--no-observe", dest="observe", action="store_false",
                        help="skip the RL observation bytes (the slowest comparison)")
    parser.add_argument("--list", action="store_true", help="list the configurations and stop")
    parser.add_argument("--fault-at-ply", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.matches < 1 or args.jobs < 1 or args.chunk < 1:
        parser.error("--matches, --jobs and --chunk must be at least 1")
    return args


def selected(args: argparse.Namespace) -> list[Case]:
    known = native_games()
    bad = [g for g in args.game if g not in known]
    if bad:
        raise SystemExit(f"not on the native core: {', '.join(bad)} (games: {', '.join(known)})")
    cases = [c for c in all_cases() if not args.game or c.game in args.game]
    if args.config:
        labels = {c.label for c in cases}
        bad = [c for c in args.config if c not in labels]
        if bad:
            raise SystemExit(f"no configuration {', '.join(bad)} (see --list)")
        cases = [c for c in cases if c.label in args.config]
    return cases


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison; 0 when the cores agree, 1 at a disagreement, 2 when the cases
    forget a game, a player count or an option value."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    args = parse(argv)
    console = Console(stderr=True)
    missing = gaps()
    if missing:
        console.print("[red]The differential cases forget:[/red]\n  " +
                      escape("\n  ".join(missing)))
        return 2
    cases = selected(args)
    if args.list:
        for case in cases:
            print(case.label)
        return 0
    policies = tuple(args.policy) or POLICIES
    todo = chunks(cases, args.matches, args.seed, args.chunk, policies, args.observe,
                  args.fault_at_ply)
    tallies = {c.label: Tally(c) for c in cases}
    failure: dict[str, object] | None = None
    start = time.monotonic()
    progress = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), console=console, transient=True)

    def record(done: Done) -> None:
        nonlocal failure
        tally = tallies[done.label]
        tally.matches += done.matches
        tally.states += done.states
        tally.seconds += done.seconds
        failure = failure or done.failure
        progress.advance(bar, done.matches + (done.failure is not None))

    with progress:
        bar = progress.add_task(f"{len(cases)} configurations", total=len(todo) and sum(
            c.count for c in todo))
        if args.jobs == 1:
            for chunk in todo:
                record(run_chunk(chunk))
                if failure:
                    break
        else:
            pool = ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn"))
            pending: set[Future[Done]] = set()
            queue = iter(todo)
            try:
                while True:
                    while failure is None and len(pending) < 2 * args.jobs:
                        nxt = next(queue, None)
                        if nxt is None:
                            break
                        pending.add(pool.submit(run_chunk, nxt))
                    if not pending:
                        break
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in finished:
                        record(future.result())
                    if failure:
                        break
            finally:
                for future in pending:
                    future.cancel()
                pool.shutdown(wait=True, cancel_futures=True)
    seconds = time.monotonic() - start
    summary = summarize(tallies, policies, args, seconds, failure)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=1) + "\n")
    matches, states = summary["matches"], summary["states_compared"]
    if failure:
        console.print(f"[red bold]DISAGREEMENT[/red bold] in {escape(str(failure['label']))}, "
                      f"seed {failure['seed']}, policy {failure['policy']}:\n"
                      f"  {escape(str(failure['error']))}: {escape(str(failure['message']))}\n"
                      f"  replay: {escape(str(failure['repro']))}")
        return 1
    console.print(f"The cores agree: {matches} matches, {states} states compared, "
                  f"{len(cases)} configurations, {seconds:.1f} s.")
    return 0


def summarize(tallies: dict[str, Tally], policies: tuple[str, ...], args: argparse.Namespace,
              seconds: float, failure: dict[str, object] | None) -> dict[str, Any]:
    configs = [{**t.case.to_json(), "matches": t.matches, "states_compared": t.states,
                "cpu_seconds": round(t.seconds, 3)} for t in tallies.values()]
    matches = sum(t.matches for t in tallies.values())
    states = sum(t.states for t in tallies.values())
    cpu = sum(t.seconds for t in tallies.values())
    return {
        "result": "disagreement" if failure else "agree",
        "matches_per_config": args.matches, "first_seed": args.seed,
        "policies": list(policies), "observations": args.observe, "jobs": args.jobs,
        "configs": configs, "matches": matches, "states_compared": states,
        "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3),
        "matches_per_cpu_second": round(matches / cpu, 2) if cpu else None,
        "core": core_version(), "python": platform.python_version(),
        "disagreement": failure,
        "command": shlex.join(["python", "-m", "tools.differential", *args.argv]),
    }
