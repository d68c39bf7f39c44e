"""Playing a tournament: settings, one picklable task per game, and the processes that play them.

A game is a ``Match`` of the engine's driver with a bot at every seat: ``Match.new`` +
``run_bots`` + ``end``, the same checked path a person's moves take (DESIGN.md §2). There is no
other loop. Each task carries only names and seeds, and bots are built where the game runs, so
``jobs > 1`` plays them in worker processes and gives exactly the results of ``jobs = 1``: records
are gathered in task order, whatever order they finish in.

Search bots (``medium``, ``hard``) with ``workers > 1`` borrow processes from the one
``SearchPool`` of the process playing the game: created on first need, reused for all its games,
closed when it is done (the main process with ``jobs = 1``, each worker otherwise).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from ludoteca.bots import SEARCH_SECONDS, Bot, SearchPool, check_bot, level_name, make_bot
from ludoteca.bots.external import ExternalBot, check_command, is_external
from ludoteca.bots.pool import start_method
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game, Outcome, Seat
from ludoteca.engine.match import Match, Step
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game
from ludoteca.tournament.stats import (
    GameRecord,
    RoundRobinResult,
    TournamentResult,
    tally_list,
    tally_round_robin,
)

DEFAULT_TIME_MS = 2000
"""Move budget sent to external bots (levels have their own fixed budgets)."""

Progress = Callable[[int], None]
Planned = Callable[[Sequence["GameTask"]], None]
"""Told every game to play, once they are checked (the CLI costs the time left from them)."""
Finished = Callable[["GameRecord"], None]
"""Told each game's record as the game finishes."""


@dataclass(frozen=True)
class TournamentSettings:
    """What to play. ``entrants`` take the seats in turn (list mode) or meet in every pairing
    (round-robin); ``players`` None means one seat per entrant in list mode (at least the game's
    minimum) and the smallest table in a round-robin. ``games`` counts per pairing in a
    round-robin. ``workers`` is the processes each search bot uses per move (0: the CPUs divided
    by ``jobs``); ``time_ms`` the move budget of external bots; with ``save_dir`` every game's
    match record is saved there as ``<game>-<index>.json``."""

    game: str
    entrants: Sequence[str]
    players: int | None = None
    games: int = 100
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    jobs: int = 1
    workers: int = 1
    time_ms: int = DEFAULT_TIME_MS
    save_dir: Path | None = None


@dataclass(frozen=True)
class GameTask:
    """One game to play, small and picklable so it can cross to a worker process."""

    index: int
    game: str
    options: dict[str, Any]
    seed: int
    seating: tuple[str, ...]
    time_ms: int = DEFAULT_TIME_MS
    tag: int = 0
    """Which pairing of a round-robin the game belongs to."""
    workers: int = 1
    """Processes each search bot may use per move (root parallelism)."""
    save: str | None = None
    """Where to save the game's match record, if anywhere."""


# ---- entrants ----------------------------------------------------------------------------
def parse_entrants(text: str) -> list[str]:
    """``"random, Easy, cmd:python bot.py"`` -> ``["random", "easy", "cmd:python bot.py"]``.

    Level names are lower-cased but kept as typed (``easy`` stays ``easy``: it is the name
    people know); they are checked against a game by :func:`check_entrants`."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise OptionError("name at least one bot, e.g. easy,random")
    return [n if is_external(n) else n.lower() for n in names]


def check_entrants(names: Sequence[str], game_name: str) -> None:
    """OptionError for the first entrant that cannot play ``game_name``."""
    for name in names:
        if is_external(name):
            check_command(name)
            continue
        try:
            check_bot(name, game_name)
        except OptionError as exc:
            if "unknown bot" in str(exc):
                raise OptionError(f"{exc}; or cmd:<command> for an external bot") from None
            raise


def searches(name: str) -> bool:
    """Whether entrant ``name`` is a search level (the bots that use search processes)."""
    return not is_external(name) and level_name(name) in SEARCH_SECONDS


def make_entrant(
    name: str,
    game_name: str,
    seat: Seat,
    players: int,
    options: dict[str, Any],
    seed: int,
    time_ms: int = DEFAULT_TIME_MS,
    workers: int = 1,
    pool: SearchPool | None = None,
) -> Bot:
    """The controller for one seat of one game: a level's bot or an external program."""
    if is_external(name):
        return ExternalBot(name, game_name, seat, players, options, seed, time_ms)
    return make_bot(name, game_name, seed, workers=workers, pool=pool)


# ---- one game ----------------------------------------------------------------------------
def winners_after_forfeits(outcome: Outcome, forfeited: Sequence[bool]) -> tuple[Seat, ...]:
    """The game's winners, except that a seat that forfeited is ranked below every other."""
    live = [s for s in range(len(outcome.ranks)) if not forfeited[s]]
    if not live:
        return ()
    best = min(outcome.ranks[s] for s in live)
    return tuple(s for s in live if outcome.ranks[s] == best)


def play_task(task: GameTask, pool: SearchPool | None = None) -> GameRecord:
    """Play one task through the match driver; search bots borrow ``pool`` if given (else they
    search in this process alone). Saves the match record when the task says where."""
    game: Game[Any, Any] = get_game(task.game)
    players = len(task.seating)
    moves = [0] * players
    think = [0.0] * players

    def count(step: Step) -> None:
        moves[step.seat] += 1
        think[step.seat] += step.seconds

    bots: list[Bot] = []
    try:
        for seat, name in enumerate(task.seating):
            bots.append(
                make_entrant(
                    name, task.game, seat, players, task.options, task.seed + 7919 * seat,
                    task.time_ms, task.workers, pool,
                )
            )
        match = Match.new(
            game, task.options, players, task.seed,
            names=task.seating, controllers=bots, narrate=False,
        )
        match.run_bots(on_step=count)
        outcome = match.outcome
        if outcome is None:
            raise RuntimeError(f"a {task.game} game stopped before its end")
        match.end()
        if task.save is not None:
            match.record.save(task.save)
    finally:
        for bot in bots:
            bot.close()
    forfeits = tuple(bot.forfeit if isinstance(bot, ExternalBot) else None for bot in bots)
    return GameRecord(
        index=task.index,
        tag=task.tag,
        seed=task.seed,
        seating=task.seating,
        scores=tuple(outcome.scores),
        winners=winners_after_forfeits(outcome, [f is not None for f in forfeits]),
        moves=tuple(moves),
        think=tuple(think),
        forfeits=forfeits,
    )


# ---- search processes --------------------------------------------------------------------
class SearchPools:
    """The one search pool of a process that plays games, made when a task first needs it."""

    def __init__(self) -> None:
        self.pool: SearchPool | None = None

    def for_task(self, task: GameTask) -> SearchPool | None:
        """The pool for ``task``'s search bots: ``workers - 1`` processes (the bot searches in
        this one too), or None when no search bot of the task uses more than one."""
        if task.workers <= 1 or not any(searches(name) for name in task.seating):
            return None
        if self.pool is not None and self.pool.processes != task.workers - 1:
            self.close()
        if self.pool is None:
            self.pool = SearchPool(task.workers - 1)
        return self.pool

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.close()


_WORKER_POOLS = SearchPools()
"""The search pool of a worker process (``jobs > 1``); closed when the worker exits."""


def _start_worker() -> None:
    """Workers leave Ctrl-C to the parent, which terminates them. Where process groups exist a
    worker leads its own, so terminating it takes its search processes along, even one still
    being started; a worker that exits normally closes its pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(os, "setpgid"):
        os.setpgid(0, 0)
        signal.signal(signal.SIGTERM, _stop_worker)
    # before the queues' own exit finalizers (priority 10) stop the threads that feed them
    multiprocessing.util.Finalize(_WORKER_POOLS, _WORKER_POOLS.close, exitpriority=100)


def _stop_worker(signum: int, frame: FrameType | None) -> NoReturn:
    os.killpg(0, signal.SIGKILL)  # this worker's group: itself and its search processes
    os._exit(128 + signum)


def _play_in_worker(task: GameTask) -> GameRecord:
    return play_task(task, _WORKER_POOLS.for_task(task))


# ---- many games --------------------------------------------------------------------------
def resolve_jobs(jobs: int) -> int:
    """``jobs`` as given, or one per CPU for 0."""
    if jobs < 0:
        raise OptionError(f"--jobs must be 0 (one per CPU) or more, not {jobs}")
    return jobs or os.cpu_count() or 1


def resolve_workers(workers: int, jobs: int) -> int:
    """``workers`` as given, or for 0 the CPUs left to each of ``jobs`` games (at least 1), so
    that games and their searches together use the machine without crowding it."""
    if workers < 0:
        raise OptionError(f"--workers must be 0 (share the CPUs) or more, not {workers}")
    return workers or max(1, (os.cpu_count() or 1) // resolve_jobs(jobs))


def run_games(
    tasks: list[GameTask],
    jobs: int = 1,
    on_game: Progress | None = None,
    on_record: Finished | None = None,
) -> list[GameRecord]:
    """Play every task, in ``jobs`` processes when more than one, and return the records in
    task order. ``on_record(record)`` then ``on_game(done)`` are called as each game
    finishes."""
    jobs = min(resolve_jobs(jobs), len(tasks))
    records: list[GameRecord] = []
    if jobs <= 1:
        pools = SearchPools()
        try:
            for task in tasks:
                records.append(play_task(task, pools.for_task(task)))
                if on_record is not None:
                    on_record(records[-1])
                if on_game is not None:
                    on_game(len(records))
        finally:
            pools.close()
        return records
    context = multiprocessing.get_context(start_method())
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_worker)
    futures: list[Future[GameRecord]] = []
    try:
        futures = [executor.submit(_play_in_worker, task) for task in tasks]
        for future in as_completed(futures):
            records.append(future.result())
            if on_record is not None:
                on_record(records[-1])
            if on_game is not None:
                on_game(len(records))
    except BaseException:
        for future in futures:
            future.cancel()
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            process.terminate()  # a running game may take minutes; do not wait for it
        executor.shutdown(wait=True, cancel_futures=True)  # quick now; no noise at exit
        raise
    executor.shutdown()
    return sorted(records, key=lambda r: r.index)


def game_seeds(seed: int, n: int) -> list[int]:
    seeds = Rng(seed)
    return [seeds.next64() >> 1 for _ in range(n)]


def resolve_players(game: Game[Any, Any], bots: Sequence[str], players: int | None) -> int:
    """The player count: as given, else one seat per bot named (at least the game's minimum)."""
    spec = game.spec
    if players is None:
        players = max(len(bots), spec.min_players)
    if not spec.min_players <= players <= spec.max_players:
        raise OptionError(
            f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {players}"
        )
    if len(bots) > players:
        raise OptionError(f"{len(bots)} bots named but only {players} seats")
    return players


@dataclass(frozen=True)
class _Plan:
    """Checked settings: the game, its table and options, and where records go."""

    game: Game[Any, Any]
    players: int
    options: dict[str, Any]
    workers: int
    save_dir: Path | None

    def save(self, index: int, total: int) -> str | None:
        if self.save_dir is None:
            return None
        width = len(str(total - 1))
        return str(self.save_dir / f"{self.game.spec.name}-{index:0{width}d}.json")


def _plan(settings: TournamentSettings, round_robin: bool) -> _Plan:
    """Check the settings before any game; OptionError names the first problem."""
    if settings.games < 1:
        raise OptionError("the number of games must be at least 1")
    workers = resolve_workers(settings.workers, settings.jobs)
    game = get_game(settings.game)
    players = settings.players
    if round_robin and players is None:
        players = max(2, game.spec.min_players)
    players = resolve_players(game, [] if round_robin else settings.entrants, players)
    options = game.validate(settings.options, players)
    check_entrants(settings.entrants, settings.game)
    save_dir = settings.save_dir
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"cannot save match records in {save_dir}: {exc}") from None
    return _Plan(game, players, options, workers, save_dir)


def run_tournament(
    settings: TournamentSettings,
    *,
    on_start: Progress | None = None,
    on_game: Progress | None = None,
    on_tasks: Planned | None = None,
    on_record: Finished | None = None,
) -> TournamentResult:
    """Play ``settings.games`` seeded games with the entrants in rotating seats: entrant i sits
    at seat (i + g) mod players in game g, so every entrant plays every seat equally often when
    the number of games is a multiple of the player count; a list shorter than the table repeats
    (``greedy,random`` at 4 players is greedy, random, greedy, random). Results pool per name.

    ``on_start(total)`` is called once everything is checked, before the first game."""
    bots = list(settings.entrants)
    if not bots:
        raise OptionError("name at least one bot, e.g. --bots greedy,random")
    plan = _plan(settings, round_robin=False)
    players = plan.players
    name = settings.game
    entrants = [bots[i % len(bots)] for i in range(players)]
    tasks = [
        GameTask(
            g, name, dict(plan.options), game_seed,
            tuple(entrants[(seat - g) % players] for seat in range(players)), settings.time_ms,
            workers=plan.workers, save=plan.save(g, settings.games),
        )
        for g, game_seed in enumerate(game_seeds(settings.seed, settings.games))
    ]
    if on_start is not None:
        on_start(len(tasks))
    if on_tasks is not None:
        on_tasks(tasks)
    start = time.perf_counter()
    records = run_games(tasks, settings.jobs, on_game, on_record)
    return TournamentResult(
        game=name,
        players=players,
        options=dict(plan.options),
        seed=settings.seed,
        entrants=entrants,
        games=settings.games,
        stats=tally_list(records, entrants),
        seconds=time.perf_counter() - start,
        workers=plan.workers,
    )


def round_robin_pairings(entrants: Sequence[str], players: int) -> list[tuple[str, str]]:
    """(lone, others) pairs: unordered at 2 players (the seats alternate anyway), ordered above."""
    n = len(entrants)
    if players == 2:
        return [(entrants[i], entrants[j]) for i in range(n) for j in range(i + 1, n)]
    return [(a, b) for a in entrants for b in entrants if a != b]


def run_round_robin(
    settings: TournamentSettings,
    *,
    on_start: Progress | None = None,
    on_game: Progress | None = None,
    on_tasks: Planned | None = None,
    on_record: Finished | None = None,
) -> RoundRobinResult:
    """Every pairing (A, B) plays ``settings.games`` games: A in one seat, B in all the others,
    the lone seat rotating (game g: seat g mod players). At 2 players that is A against B with
    seats alternating, one pairing per unordered pair; above, both (A, B) and (B, A) are played
    (the published "one agent against three copies" setup). Game g of every pairing uses the
    same deal seed, so pairings meet the same deals."""
    entrants = list(settings.entrants)
    if len(entrants) < 2:
        raise OptionError("a round-robin needs at least two entrants, e.g. random,easy")
    repeated = sorted({e for e in entrants if entrants.count(e) > 1})
    if repeated:
        raise OptionError(f"entrant {repeated[0]!r} is named twice")
    plan = _plan(settings, round_robin=True)
    players = plan.players
    pairs = round_robin_pairings(entrants, players)
    seeds = game_seeds(settings.seed, settings.games)
    total = len(pairs) * len(seeds)
    tasks: list[GameTask] = []
    for tag, (a, b) in enumerate(pairs):
        for g, game_seed in enumerate(seeds):
            seating = tuple(a if seat == g % players else b for seat in range(players))
            tasks.append(
                GameTask(
                    len(tasks), settings.game, dict(plan.options), game_seed, seating,
                    settings.time_ms, tag, plan.workers, plan.save(len(tasks), total),
                )
            )
    if on_start is not None:
        on_start(len(tasks))
    if on_tasks is not None:
        on_tasks(tasks)
    start = time.perf_counter()
    records = run_games(tasks, settings.jobs, on_game, on_record)
    pairings, overall = tally_round_robin(records, pairs, entrants, players)
    return RoundRobinResult(
        game=settings.game,
        players=players,
        options=dict(plan.options),
        seed=settings.seed,
        entrants=entrants,
        games_per_pairing=settings.games,
        pairings=pairings,
        overall=overall,
        seconds=time.perf_counter() - start,
        workers=plan.workers,
    )
