"""A live arena tournament beside the 300-table load (issue 35): one ``ludoteca serve`` process
on SQLite runs an arena of ``--bots`` random-bot entrants and ``--people`` simulated people
while ``benchmarks/server.py``'s simulated people play ``--tables`` two-player tables, and the
tables' round trip is measured as ``benchmarks/scale.py`` and ``server.py`` measure it (their
``Plan``, ``Clients`` and ``Tally``: a think time, a random legal action, the time from sending
it to the update answering it).

    python benchmarks/arena.py --quick        # 20 tables, 40 entrants: a smoke run
    python benchmarks/arena.py [--tables 300] [--bots 150] [--people 50] [--minutes 1]
                               [--seconds 40] [--warmup 5] [--think 1.0] [--bot-delay 0.2]

A simulated person of the arena is a guest who registers, listens to the event stream
(``/api/events``; on opening it, it asks for its table once, in case it was opened before)
for its ``tournament_table`` event, opens that table's WebSocket and answers
each of its decisions with a random legal action after ``--arena-think`` seconds, until the
match ends; then waits for the next. The arena starts when every entrant has registered (its
``min_entrants``), at about the time the tables' clients have set up, and lasts ``--minutes``;
the measured window (``--warmup`` then ``--seconds``) falls inside it. Bots answer after
``--bot-delay`` seconds (``LUDOTECA_BOT_DELAY``; the server's default is 0.8), so bot tables end
and are paired again often. After the window the script waits for the arena to finish (its last
tables end) and reads its rows: waves paired, games paired per second of the arena, tables
played, and that nobody was seated twice.

The target (issue 35): with a 200-entrant arena live, the 300-table p99 round trip stays under
100 ms on SQLite, on this machine with every client on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))

import httpx  # noqa: E402
from arena_process import ServerProcess  # noqa: E402
from server import (  # noqa: E402  (it puts the repository on sys.path too)
    COOKIE,
    Clients,
    Plan,
    Tally,
    bucket_quantile,
    cpu_seconds,
    load_options,
    machine_ticks,
    merged_errors,
    parsed,
    quantile,
    scrape,
    shares,
    timeline,
)

JSON = dict[str, Any]
CLIENT = {"X-Ludoteca-Client": "benchmarks/arena.py"}
"""Writes without it are refused (the server's cross-site guard)."""


# ---- the arena's simulated people ----------------------------------------------------------
async def _person(base: str, token: str, tournament: str, think: float, stop_at: float,
                  seed: int, counts: Counter[str]) -> None:
    """One entrant: each table the arena gives it, played at random to its end."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    headers = {"cookie": f"{COOKIE}={token}", **CLIENT}
    played: set[str] = set()
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=None) as http:
        while time.monotonic() < stop_at:
            table = None
            async with http.stream("GET", "/api/events") as stream:
                event = ""
                async for line in stream.aiter_lines():
                    if line == ": ludoteca":  # listening: a table opened before is asked for
                        found = (await http.get(f"/api/tournaments/{tournament}")).json()
                        if found["status"] == "finished":
                            return
                        if found["your_table"] not in (None, *played):
                            table = found["your_table"]
                            break
                    elif line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: ") and event == "tournament_table":
                        data = json.loads(line[6:])
                        if data["tournament"] == tournament and data["table"] not in played:
                            table = data["table"]
                            break
                    elif line.startswith("data: ") and event == "tournament":
                        data = json.loads(line[6:])["tournament"]
                        if data["id"] == tournament and data["status"] == "finished":
                            return
                    if time.monotonic() >= stop_at:
                        return
            if table is None:
                continue
            played.add(table)
            url = base.replace("http", "ws", 1) + f"/ws/tables/{table}"
            async with connect(url, additional_headers=headers, max_size=None,
                               proxy=None) as ws:
                answered = -1
                async for text in ws:
                    message = json.loads(text)
                    if message["type"] not in ("full", "update"):
                        continue
                    if message.get("status") == "finished":
                        counts["tables"] += 1
                        break
                    legal = message.get("legal") or []
                    if legal and message["seq"] != answered:
                        answered = message["seq"]
                        await asyncio.sleep(think)
                        await ws.send(json.dumps({"type": "act", "seq": answered,
                                                  "action": rng.choice(legal)}))
                        counts["actions"] += 1


def people_process(base: str, tokens: list[str], tournament: str, think: float,
                   stop_at_wall: float, results: Any) -> None:
    """The arena's people, in a process of their own (asyncio)."""
    stop_at = time.monotonic() + (stop_at_wall - time.time())
    counts: Counter[str] = Counter()

    async def everyone() -> None:
        tasks = [asyncio.create_task(_person(base, token, tournament, think, stop_at, i, counts))
                 for i, token in enumerate(tokens)]
        done = await asyncio.gather(*tasks, return_exceptions=True)
        for found in done:
            if isinstance(found, BaseException):
                counts[f"error: {type(found).__name__}"] += 1

    asyncio.run(everyone())
    results.put(dict(counts))


# ---- the arena -----------------------------------------------------------------------------
def make_arena(base: str, args: argparse.Namespace) -> tuple[str, str, list[str]]:
    """The host's arena with its bots (all but the last), the host's session token, and the
    people's session tokens, each registered."""
    entrants = args.bots + args.people
    with httpx.Client(base_url=base, timeout=60, headers=CLIENT) as host:
        host.post("/api/signup", json={"name": "arenabench", "password": "correct horse"}
                  ).raise_for_status()
        made = host.post("/api/tournaments", json={
            "name": "Benchmark arena", "game": "kingdomino", "players": 2, "format": "arena",
            "minutes": args.minutes, "min_entrants": entrants, "max_entrants": entrants,
            "bank_seconds": 1800, "increment_seconds": 10})
        made.raise_for_status()
        tournament = str(made.json()["id"])
        tokens = []
        for _ in range(args.people):
            with httpx.Client(base_url=base, timeout=60, headers=CLIENT) as person:
                joined = person.post("/api/guest")
                joined.raise_for_status()
                person.post(f"/api/tournaments/{tournament}/register", json={}
                            ).raise_for_status()
                tokens.append(joined.cookies[COOKIE])
        for _ in range(args.bots - 1):
            host.post(f"/api/tournaments/{tournament}/bots", json={"level": "random"}
                      ).raise_for_status()
        return tournament, str(host.cookies[COOKIE]), tokens


def last_bot(base: str, host: str, tournament: str) -> None:
    """The last entry: the arena starts."""
    with httpx.Client(base_url=base, timeout=60, cookies={COOKIE: host}, headers=CLIENT) as http:
        http.post(f"/api/tournaments/{tournament}/bots", json={"level": "random"}
                  ).raise_for_status()


def arena_figures(url: str, tournament: str) -> JSON:
    """What the arena's rows say: waves, games, their times, and whether anyone sat at a table
    before their previous one was decided."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from ludoteca.server.db import Tournament, TournamentGame, TournamentRound, sync_url

    engine = create_engine(sync_url(url))
    try:
        with Session(engine) as db:
            t = db.get(Tournament, tournament)
            assert t is not None
            waves = {r.round: r.paired_at for r in db.scalars(select(TournamentRound).where(
                TournamentRound.tournament_id == tournament))}
            games = list(db.scalars(select(TournamentGame).where(
                TournamentGame.tournament_id == tournament).order_by(
                TournamentGame.round, TournamentGame.board)))
            db.expunge_all()
    finally:
        engine.dispose()
    last: dict[str, Any] = {}
    twice = 0
    for g in games:
        for s in g.seats:
            before = last.get(s)
            if before is not None and (before.decided_at is None
                                       or before.decided_at > waves[g.round]):
                twice += 1
            last[s] = g
    span = ((t.ends_at - t.started_at).total_seconds()
            if t.ends_at is not None and t.started_at is not None else 0.0)
    return {
        "status": t.status, "waves": len(waves), "games": len(games),
        "decided": sum(g.result is not None for g in games),
        "by_deadline": sum(g.decided_by == "deadline" for g in games),
        "after_end": sum(at > t.ends_at for at in waves.values()) if t.ends_at else 0,
        "seated_twice": twice, "seconds": span,
        "per_second": len(games) / span if span else 0.0,
    }


def wait_finished(base: str, tournament: str, timeout: float) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = str(httpx.get(f"{base}/api/tournaments/{tournament}", timeout=60).json()[
            "status"])
        if status == "finished":
            return status
        time.sleep(1)
    return "still running"


def long_collections(log_text: str, window: tuple[float, float]) -> str:
    """The server's cycle collections of 50 ms or more and its whole walks
    (``cycle_collector.py`` logs those): the generation, how long each stopped the event
    loop, those inside the measured window marked. One such stop delays every action in
    flight, so it can set the p99 on its own."""
    from datetime import datetime

    walks = []
    for line in log_text.splitlines():
        if '"long cycle collection"' not in line:
            continue
        with contextlib.suppress(ValueError, KeyError):
            found = json.loads(line)
            at = datetime.fromisoformat(found["time"]).timestamp()
            inside = window[0] <= at <= window[1]
            kind = "whole" if found.get("whole") else f"g{found['generation']}"
            walks.append(f"{kind} {found['ms']:.0f}{' (in window)' if inside else ''}")
    return (", ".join(walks) + " ms") if walks else "none"


# ---- the run -------------------------------------------------------------------------------
def run(args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite:///{folder / 'arena.sqlite3'}"
    server = ServerProcess(url, folder, "ludoteca.cli", LUDOTECA_BOT_DELAY=f"{args.bot_delay:g}",
                           LUDOTECA_AUTH_RATE="100000", LUDOTECA_CREATE_RATE="100000",
                           LUDOTECA_BOT_PROCESSES=str(args.bot_processes))
    server.start()
    people: Any = None
    clients: Clients | None = None
    try:
        print(f"   server on :{server.port} (pid {server.pid}); entering {args.bots} bots and "
              f"{args.people} people…", flush=True)
        tournament, host, tokens = make_arena(server.base, args)
        plans = [Plan(server.base, share, args.think, args.jitter, args.warmup, args.seconds,
                      args.setup_concurrency, args.compression, args.seed * 31 + i, True,
                      i == 0)
                 for i, share in enumerate(shares(args.tables, args.client_processes))]
        clients = Clients(plans)
        print(f"   setting up {args.tables} tables…", flush=True)
        clients.wait_set_up()
        setup_done = time.monotonic()
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        stop_wall = time.time() + args.minutes * 60 + args.drain
        people = context.Process(target=people_process, args=(
            server.base, tokens, tournament, args.arena_think, stop_wall, results))
        people.start()
        time.sleep(1.0)  # the people listen before their first table
        last_bot(server.base, host, tournament)
        began = time.monotonic()
        print(f"   the arena starts ({args.bots + args.people} entrants, {args.minutes:g} min);"
              f" {args.warmup:g} s warm-up, then {args.seconds:g} s measured", flush=True)
        time.sleep(max(0.0, setup_done + args.warmup - time.monotonic()))
        window_wall = time.time()
        scraped = scrape(server.base)
        cpu_before, loop_before = (cpu_seconds(server.pid),
                                   cpu_seconds(f"{server.pid}/task/{server.pid}"))
        machine_before = machine_ticks()
        time.sleep(max(0.0, setup_done + args.warmup + args.seconds - time.monotonic()))
        cpu = (cpu_seconds(server.pid) - cpu_before) / args.seconds
        loop = (cpu_seconds(f"{server.pid}/task/{server.pid}") - loop_before) / args.seconds
        machine_after = machine_ticks()
        window_wall = (window_wall, time.time())
        after = scrape(server.base)
        buckets = {b: v - scraped["buckets"].get(b, 0.0) for b, v in after["buckets"].items()}
        tallies: list[Tally] = clients.tallies()
        clients.stop()
        clients = None
        print(f"   window over at {time.monotonic() - began:.0f} s into the arena; waiting "
              "for it to finish…", flush=True)
        status = wait_finished(server.base, tournament,
                               args.minutes * 60 + args.drain - (time.monotonic() - began))
        people.join(args.drain + 60)
        person_counts = results.get(timeout=30) if not people.is_alive() else {}
        figures = arena_figures(url, tournament)
    finally:
        if clients is not None:
            clients.stop()
        if people is not None and people.is_alive():
            people.terminate()
            people.join(10)
        server.stop()
        log_text = server.log_text()
        if args.log:
            Path(args.log).write_text(log_text)

    ms = [x * 1000 for t in tallies for x in t.latencies]
    lag = [x * 1000 for t in tallies for x in t.lag]
    p99 = quantile(ms, 0.99)
    busy = machine_after[0] - machine_before[0]
    total = machine_after[1] - machine_before[1]
    errors = merged_errors(tallies)
    print("\n".join([
        f"-- tables ({sum(t.pairs for t in tallies)} set up, {len(ms)} actions answered in the "
        f"window, {sum(t.games for t in tallies)} matches finished)",
        f"   round trip          p50 {quantile(ms, 0.5):.1f} ms, p95 {quantile(ms, 0.95):.1f} ms,"
        f" p99 {p99:.1f} ms, max {max(ms, default=float('nan')):.1f} ms",
        "   errors              "
        + (", ".join(f"{k} ×{v}" for k, v in sorted(errors.items())) or "none"),
        f"   server CPU          {cpu:.2f} cores (event-loop thread {loop:.2f}); whole machine "
        f"{busy / total * (os.cpu_count() or 1) if total else 0.0:.2f} of {os.cpu_count()}",
        f"   clients' own loop   lag p99 {quantile(lag, 0.99):.1f} ms, max "
        f"{max(lag, default=float('nan')):.1f} ms (a late client adds to its round trips)",
"   server-side actions " + f"p50 {bucket_quantile(buckets, 0.5)}, p99 "
        f"{bucket_quantile(buckets, 0.99)} (every table's, the arena's too: from the message "
        "to its write and the updates queued)",
        "   collections ≥ 50 ms " + long_collections(log_text, window_wall),
        "   timeline", *timeline(tallies, args.seconds),
        f"-- arena ({args.bots} bots + {args.people} people, {args.minutes:g} min): {status}",
        f"   pairings            {figures['games']} games in {figures['waves']} waves over "
        f"{figures['seconds']:.0f} s: {figures['per_second']:.2f} games paired/s, "
        f"{figures['waves'] / figures['seconds'] if figures['seconds'] else 0:.2f} waves/s",
        f"   tables played       {figures['decided']} decided ({figures['by_deadline']} at the "
        f"deadline); the people played {person_counts.get('tables', 0)} tables, "
        f"{person_counts.get('actions', 0)} actions"
        + "".join(f"; {k} ×{v}" for k, v in person_counts.items() if k.startswith("error")),
        f"   checks              waves after the end {figures['after_end']}, seated before "
        f"their last table was decided {figures['seated_twice']}",
        "",
        f"Verdict: p99 {p99:.1f} ms with a {args.bots + args.people}-entrant arena live: "
        + ("under 100 ms (met)" if p99 < 100 else "NOT under 100 ms"),
    ]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    load_options(parser, tables=300, seconds=40.0, warmup=5.0,
                 tables_help="live tables (2 people each) measured beside the arena")
    parser.add_argument("--bots", type=int, default=150, help="random-bot entrants")
    parser.add_argument("--people", type=int, default=50, help="simulated people entrants")
    parser.add_argument("--minutes", type=float, default=1.0, help="the arena's length")
    parser.add_argument("--arena-think", type=float, default=0.5,
                        help="seconds an arena person thinks before each action")
    parser.add_argument("--bot-delay", type=float, default=0.2,
                        help="LUDOTECA_BOT_DELAY: least seconds before a bot answers")
    parser.add_argument("--bot-processes", type=int, default=1,
                        help="LUDOTECA_BOT_PROCESSES: the server's bot pool")
    parser.add_argument("--log", metavar="FILE",
                        help="keep the server's log (its JSON lines: collections, directors)")
    parser.add_argument("--drain", type=float, default=120.0,
                        help="seconds after the arena's end for its last tables to finish")
    args = parsed(parser)
    if args.quick:
        args.bots, args.people = 30, 10
    if args.bots < 1 or args.people < 0 or args.bots + args.people < 2:
        parser.error("an arena needs at least one bot and two entrants")
    if args.warmup + args.seconds > args.minutes * 60:
        parser.error("--warmup + --seconds must fall inside the arena's --minutes")
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    print(f"Arena beside {args.tables} tables on SQLite: {args.bots} bots + {args.people} people "
          f"for {args.minutes:g} min (bot delay {args.bot_delay:g} s, people think "
          f"{args.arena_think:g} s); tables think {args.think:g} s ± {args.jitter:g}; "
          f"{os.cpu_count()} cores; load average before {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="ludoteca-arena-") as tmp:
        run(args, Path(tmp))


if __name__ == "__main__":
    main()
