"""Bots against bots: many seeded games with rotated seats, and the statistics to judge them.

Two ways to seat bots (docs/bots.md, "Tournaments"):

- **List** (``--bots``): entrants take the seats in turn; in game g, entrant i sits at seat
  (i + g) mod players, so every entrant plays every seat equally often when the number of games
  is a multiple of the player count. When fewer bots than seats are named, the list repeats
  (``greedy,random`` with 4 players is greedy, random, greedy, random). Results are pooled per
  bot name.
- **Round-robin** (``--round-robin``): every pairing of entrants plays N games. A pairing (A, B)
  puts A in one seat and B in all the others; the lone seat rotates (game g: seat g mod players).
  At 2 players that is simply A against B with seats alternating, one pairing per unordered
  pair; at more players it is the published "one agent against three copies" setup, and both
  (A, B) and (B, A) are played. Game g of every pairing uses the same deal seed.

Every game is one picklable task (seed and seating; bots are built from their names where the
game runs), so ``jobs > 1`` plays them in worker processes and gives exactly the results of
``jobs = 1``: records are aggregated in task order, whatever order they finish in.
"""

from __future__ import annotations

import csv
import json
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludoteca.bots import check_bot, make_bot
from ludoteca.bots.external import ExternalBot, check_command, is_external
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game, Outcome, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game

Z95 = 1.959963984540054
DEFAULT_TIME_MS = 2000
"""Move budget sent to external bots (levels have their own fixed budgets)."""
MAX_NOTES = 5


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion; sound near 0 and 1, unlike the normal one."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass
class BotStats:
    """Everything one bot name earned, pooled over the seats it held."""

    name: str
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    moves: int = 0
    think_seconds: float = 0.0
    seat_games: dict[int, int] = field(default_factory=dict)
    forfeits: int = 0
    forfeit_notes: list[str] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def score_interval(self) -> tuple[float, float, float]:
        return mean_interval([float(s) for s in self.scores])

    @property
    def mean_move_ms(self) -> float:
        return 1000 * self.think_seconds / self.moves if self.moves else 0.0

    def add_time(self, record: GameRecord, seat: Seat) -> None:
        self.moves += record.moves[seat]
        self.think_seconds += record.think[seat]

    def add_result(self, record: GameRecord, seat: Seat) -> None:
        """Count one game played at ``seat``: its score and its (possibly shared) win."""
        self.games += 1
        self.seat_games[seat] = self.seat_games.get(seat, 0) + 1
        self.scores.append(record.scores[seat])
        self.wins += record.credit(seat)

    def add_forfeit(self, record: GameRecord, seat: Seat) -> None:
        reason = record.forfeits[seat]
        if reason is not None:
            self.forfeits += 1
            if len(self.forfeit_notes) < MAX_NOTES:
                self.forfeit_notes.append(f"game seed {record.seed}, seat {seat}: {reason}")

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.win_interval
        mean, slo, shi = self.score_interval
        return {
            "bot": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci95": [lo, hi],
            "mean_score": mean,
            "mean_score_ci95": [slo, shi],
            "moves": self.moves,
            "mean_move_ms": self.mean_move_ms,
            "games_per_seat": {str(k): v for k, v in sorted(self.seat_games.items())},
            "forfeits": self.forfeits,
            "forfeit_examples": self.forfeit_notes,
        }


# ---- entrants ----------------------------------------------------------------------------
def parse_entrants(text: str) -> list[str]:
    """``"random, Easy, cmd:python bot.py"`` -> ``["random", "easy", "cmd:python bot.py"]``.

    Level names are lower-cased but kept as typed (``easy`` stays ``easy``: it is the name
    people know); they are checked against a game by :func:`check_entrants`."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise OptionError("name at least one bot, e.g. easy,random")
    return [n if is_external(n) else n.lower() for n in names]


def check_entrants(names: Iterable[str], game_name: str) -> None:
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


def make_entrant(
    name: str,
    game_name: str,
    seat: Seat,
    players: int,
    options: Mapping[str, object],
    seed: int,
    time_ms: int = DEFAULT_TIME_MS,
    workers: int = 1,
) -> Any:
    """The controller for one seat of one game: a level's bot or an external program."""
    if is_external(name):
        return ExternalBot(name, game_name, seat, players, options, seed, time_ms)
    return make_bot(name, seed, workers)


# ---- one game ----------------------------------------------------------------------------
def play_game(
    game: Game[Any, Any],
    bots: list[Any],
    options: Mapping[str, object],
    seed: int,
    on_move: Callable[[Seat, float], None] | None = None,
) -> tuple[Outcome, Any]:
    """One game, ``bots[seat]`` at each seat. Simultaneous seats all choose from the views before
    any of them is applied. Returns the outcome and the final state."""
    state = game.setup(options, len(bots), seed)
    limit = 4 * game.spec.max_length + 100
    while True:
        seats = sorted(game.to_act(state))
        if not seats:
            break
        choices = []
        for seat in seats:
            view = game.view(state, seat)
            start = time.perf_counter()
            action = bots[seat].choose(game, view, seat)
            if on_move is not None:
                on_move(seat, time.perf_counter() - start)
            choices.append((seat, action))
        for seat, action in choices:
            game.apply(state, seat, action)
        if state.ply > limit:
            raise RuntimeError(f"{game.spec.name} did not end within {limit} actions")
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome, state


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


@dataclass(frozen=True)
class GameRecord:
    """What one game left: per-seat scores, moves, thinking time and forfeits, and the winners
    (a forfeiting seat never wins; the best of the others do)."""

    index: int
    tag: int
    seed: int
    seating: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    moves: tuple[int, ...]
    think: tuple[float, ...]
    forfeits: tuple[str | None, ...]

    def credit(self, seat: Seat) -> float:
        """This seat's share of the win: 1 alone, 1/k shared by k winners, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


def winners_after_forfeits(outcome: Outcome, forfeited: list[bool]) -> tuple[Seat, ...]:
    """The game's winners, except that a seat that forfeited is ranked below every other."""
    live = [s for s in range(len(outcome.ranks)) if not forfeited[s]]
    if not live:
        return ()
    best = min(outcome.ranks[s] for s in live)
    return tuple(s for s in live if outcome.ranks[s] == best)


def play_task(task: GameTask) -> GameRecord:
    """Play one task; the function a worker process runs."""
    game = get_game(task.game)
    players = len(task.seating)
    moves = [0] * players
    think = [0.0] * players

    def on_move(seat: Seat, seconds: float) -> None:
        moves[seat] += 1
        think[seat] += seconds

    bots: list[Any] = []
    try:
        for seat, name in enumerate(task.seating):
            bots.append(
                make_entrant(
                    name, task.game, seat, players, task.options, task.seed + 7919 * seat,
                    task.time_ms, task.workers,
                )
            )
        outcome, _ = play_game(game, bots, task.options, task.seed, on_move)
        for bot in bots:
            if hasattr(bot, "end"):
                bot.end(outcome)
    finally:
        for bot in bots:
            if hasattr(bot, "close"):
                bot.close()
    forfeits = tuple(getattr(bot, "forfeit", None) for bot in bots)
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


# ---- many games --------------------------------------------------------------------------
def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them; no traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    tasks: list[GameTask], jobs: int = 1, on_game: Callable[[int], None] | None = None
) -> list[GameRecord]:
    """Play every task, in ``jobs`` processes when more than one, and return the records in
    task order. ``on_game(done)`` is called as each game finishes."""
    jobs = min(resolve_jobs(jobs), len(tasks))
    records: list[GameRecord] = []
    if jobs <= 1:
        for task in tasks:
            records.append(play_task(task))
            if on_game is not None:
                on_game(len(records))
        return records
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_quiet_worker)
    futures: list[Future[GameRecord]] = []
    try:
        futures = [pool.submit(play_task, task) for task in tasks]
        for future in as_completed(futures):
            records.append(future.result())
            if on_game is not None:
                on_game(len(records))
    except BaseException:
        for future in futures:
            future.cancel()
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()  # a running game may take minutes; do not wait for it
        pool.shutdown(wait=True, cancel_futures=True)  # quick now; no noise at exit
        raise
    pool.shutdown()
    return sorted(records, key=lambda r: r.index)


def game_seeds(seed: int, n: int) -> list[int]:
    seeds = Rng(seed)
    return [seeds.next64() >> 1 for _ in range(n)]


@dataclass
class TournamentResult:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    entrants: list[str]
    games: int
    stats: dict[str, BotStats]
    seconds: float
    workers: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": "bots",
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "entrants": self.entrants,
            "games": self.games,
            "seconds": self.seconds,
            "workers": self.workers,
            "bots": [s.to_json() for s in self.stats.values()],
        }


def resolve_players(game: Game[Any, Any], bots: list[str], players: int | None) -> int:
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


def run_tournament(
    game_name: str,
    bots: list[str],
    players: int | None = None,
    games: int = 100,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[int], None] | None = None,
    jobs: int = 1,
    time_ms: int = DEFAULT_TIME_MS,
    on_start: Callable[[int], None] | None = None,
    workers: int = 1,
) -> TournamentResult:
    """Play ``games`` seeded games with the list's bots in rotating seats; pool per bot name.

    ``on_start(total)`` is called once everything is checked, before the first game."""
    if not bots:
        raise OptionError("name at least one bot, e.g. --bots greedy,random")
    if games < 1:
        raise OptionError("the number of games must be at least 1")
    workers = resolve_workers(workers, jobs)
    game = get_game(game_name)
    players = resolve_players(game, bots, players)
    opts = game.validate(options, players)
    check_entrants(bots, game_name)
    entrants = [bots[i % len(bots)] for i in range(players)]
    tasks = [
        GameTask(
            g, game_name, dict(opts), game_seed,
            tuple(entrants[(seat - g) % players] for seat in range(players)), time_ms,
            workers=workers,
        )
        for g, game_seed in enumerate(game_seeds(seed, games))
    ]
    if on_start is not None:
        on_start(len(tasks))
    start = time.perf_counter()
    records = run_games(tasks, jobs, on_game)
    stats = {name: BotStats(name) for name in entrants}
    for record in records:
        for seat, name in enumerate(record.seating):
            s = stats[name]
            s.add_result(record, seat)
            s.add_time(record, seat)
            s.add_forfeit(record, seat)
    return TournamentResult(
        game=game_name,
        players=players,
        options=dict(opts),
        seed=seed,
        entrants=entrants,
        games=games,
        stats=stats,
        seconds=time.perf_counter() - start,
        workers=workers,
    )


# ---- round-robin -------------------------------------------------------------------------
@dataclass
class PairingStats:
    """A in one seat against B in all the others. B's wins add up over its copies (the chance
    that one of them wins); B's score is the mean over its copies, one value per game."""

    a: str
    b: str
    players: int
    a_stats: BotStats
    b_stats: BotStats

    @property
    def games(self) -> int:
        return self.a_stats.games

    @property
    def label(self) -> str:
        return f"{self.a} vs {self.b_label}"

    @property
    def b_label(self) -> str:
        return self.b if self.players == 2 else f"{self.players - 1}× {self.b}"

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "b_seats": self.players - 1,
            "games": self.games,
            "a_stats": self.a_stats.to_json(),
            "b_stats": self.b_stats.to_json(),
        }


@dataclass
class RoundRobinResult:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    entrants: list[str]
    games_per_pairing: int
    pairings: list[PairingStats]
    overall: dict[str, BotStats]
    seconds: float
    workers: int = 1

    @property
    def games(self) -> int:
        return self.games_per_pairing * len(self.pairings)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": "round-robin",
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "entrants": self.entrants,
            "games_per_pairing": self.games_per_pairing,
            "games": self.games,
            "seconds": self.seconds,
            "workers": self.workers,
            "pairings": [p.to_json() for p in self.pairings],
            "overall": [s.to_json() for s in self.overall.values()],
        }


def round_robin_pairings(entrants: list[str], players: int) -> list[tuple[str, str]]:
    """(lone, others) pairs: unordered at 2 players (the seats alternate anyway), ordered above."""
    n = len(entrants)
    if players == 2:
        return [(entrants[i], entrants[j]) for i in range(n) for j in range(i + 1, n)]
    return [(a, b) for a in entrants for b in entrants if a != b]


def run_round_robin(
    game_name: str,
    entrants: list[str],
    players: int | None = None,
    games: int = 100,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[int], None] | None = None,
    jobs: int = 1,
    time_ms: int = DEFAULT_TIME_MS,
    on_start: Callable[[int], None] | None = None,
    workers: int = 1,
) -> RoundRobinResult:
    """Every pairing plays ``games`` games (see the module docstring for the seating).

    The overall table pools each entrant's games in which it held a single seat: all of them at
    2 players, its lone-seat games above (so its win rate compares with 1/players). Thinking
    time pools every move it made."""
    if len(entrants) < 2:
        raise OptionError("a round-robin needs at least two entrants, e.g. random,easy")
    repeated = sorted({e for e in entrants if entrants.count(e) > 1})
    if repeated:
        raise OptionError(f"entrant {repeated[0]!r} is named twice")
    if games < 1:
        raise OptionError("the number of games must be at least 1")
    workers = resolve_workers(workers, jobs)
    game = get_game(game_name)
    spec = game.spec
    players = max(2, spec.min_players) if players is None else players
    resolve_players(game, [], players)
    opts = game.validate(options, players)
    check_entrants(entrants, game_name)
    pairs = round_robin_pairings(entrants, players)
    seeds = game_seeds(seed, games)
    tasks: list[GameTask] = []
    for tag, (a, b) in enumerate(pairs):
        for g, game_seed in enumerate(seeds):
            seating = tuple(a if seat == g % players else b for seat in range(players))
            tasks.append(
                GameTask(
                    len(tasks), game_name, dict(opts), game_seed, seating, time_ms, tag, workers
                )
            )
    if on_start is not None:
        on_start(len(tasks))
    start = time.perf_counter()
    records = run_games(tasks, jobs, on_game)
    pairings = [PairingStats(a, b, players, BotStats(a), BotStats(b)) for a, b in pairs]
    overall = {name: BotStats(name) for name in entrants}
    for record in records:
        p = pairings[record.tag]
        lone = record.seating.index(p.a)
        others = [seat for seat in range(players) if seat != lone]
        lone_stats, field_stats = p.a_stats, p.b_stats
        field_stats.games += 1
        lone_stats.add_result(record, lone)
        lone_stats.add_time(record, lone)
        lone_stats.add_forfeit(record, lone)
        field_stats.scores.append(sum(record.scores[s] for s in others) / len(others))
        for seat in others:
            field_stats.seat_games[seat] = field_stats.seat_games.get(seat, 0) + 1
            field_stats.wins += record.credit(seat)
            field_stats.add_time(record, seat)
            field_stats.add_forfeit(record, seat)
        for seat, name in enumerate(record.seating):
            o = overall[name]
            o.add_time(record, seat)
            o.add_forfeit(record, seat)
            if seat == lone or players == 2:
                o.add_result(record, seat)
    return RoundRobinResult(
        game=game_name,
        players=players,
        options=dict(opts),
        seed=seed,
        entrants=list(entrants),
        games_per_pairing=games,
        pairings=pairings,
        overall=overall,
        seconds=time.perf_counter() - start,
        workers=workers,
    )


# ---- tables and files --------------------------------------------------------------------
Table = tuple[list[str], list[list[str]]]


def _win(s: BotStats) -> str:
    lo, hi = s.win_interval
    return f"{s.win_rate:.1%} ({100 * lo:.1f}-{100 * hi:.1f})"


def _score(s: BotStats) -> str:
    mean, lo, hi = s.score_interval
    return f"{mean:.1f} ({lo:.1f}-{hi:.1f})"


def stats_table(stats: Iterable[BotStats], first: str = "bot") -> Table:
    """Headers and rows for a per-bot table (the terminal, results.md); intervals in brackets
    so the table fits a terminal."""
    stats = list(stats)
    headers = [first, "games", "win rate (95% CI)", "mean score (95% CI)", "ms/move"]
    forfeits = any(s.forfeits for s in stats)
    if forfeits:
        headers.append("forfeits")
    rows = []
    for s in stats:
        row = [s.name, str(s.games), _win(s), _score(s), f"{s.mean_move_ms:.2f}"]
        if forfeits:
            row.append(str(s.forfeits))
        rows.append(row)
    return headers, rows


def pairing_table(result: RoundRobinResult) -> Table:
    """Headers and rows for the per-pairing table."""
    headers = [
        "A", "vs B", "games", "A win rate (95% CI)", "A score (95% CI)", "B score (95% CI)",
        "ms/move A / B",
    ]
    forfeits = any(p.a_stats.forfeits or p.b_stats.forfeits for p in result.pairings)
    if forfeits:
        headers.append("forfeits A / B")
    rows = []
    for p in result.pairings:
        a, b = p.a_stats, p.b_stats
        row = [
            p.a, p.b_label, str(p.games), _win(a), _score(a), _score(b),
            f"{a.mean_move_ms:.2f} / {b.mean_move_ms:.2f}",
        ]
        if forfeits:
            row.append(f"{a.forfeits} / {b.forfeits}")
        rows.append(row)
    return headers, rows


def forfeit_notes(result: TournamentResult | RoundRobinResult) -> list[str]:
    """One line per bot that forfeited games, with the first reason: what went wrong, plainly."""
    stats = result.stats if isinstance(result, TournamentResult) else result.overall
    return [
        f"{s.name} forfeited {s.forfeits} seat-game{'s' * (s.forfeits != 1)} "
        f"(first: {s.forfeit_notes[0]})"
        for s in stats.values()
        if s.forfeits
    ]


def _markdown(table: Table) -> str:
    headers, rows = table
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _csv_row(kind: str, s: BotStats, opponent: str, other: BotStats | None) -> dict[str, Any]:
    lo, hi = s.win_interval
    mean, slo, shi = s.score_interval
    om, olo, ohi = other.score_interval if other else ("", "", "")
    return {
        "kind": kind, "bot": s.name, "opponent": opponent, "games": s.games, "wins": s.wins,
        "win_rate": s.win_rate, "win_ci95_lo": lo, "win_ci95_hi": hi, "mean_score": mean,
        "score_ci95_lo": slo, "score_ci95_hi": shi, "opponent_mean_score": om,
        "opponent_score_ci95_lo": olo, "opponent_score_ci95_hi": ohi,
        "ms_per_move": s.mean_move_ms,
        "opponent_ms_per_move": other.mean_move_ms if other else "",
        "forfeits": s.forfeits, "opponent_forfeits": other.forfeits if other else "",
    }


def describe(result: TournamentResult | RoundRobinResult) -> str:
    """One line saying what was played."""
    if isinstance(result, RoundRobinResult):
        return (
            f"{result.game}: round-robin of {len(result.entrants)}, {result.players} players, "
            f"{result.games_per_pairing} games per pairing ({result.games} games, "
            f"{result.seconds:.1f} s{_workers_note(result.workers)})"
        )
    return (
        f"{result.game}: {result.games} games, {result.players} players, seats rotated "
        f"({result.seconds:.1f} s{_workers_note(result.workers)})"
    )


def _workers_note(workers: int) -> str:
    return f", {workers} search processes per bot" if workers > 1 else ""


def write_results(result: TournamentResult | RoundRobinResult, out_dir: Path) -> list[Path]:
    """results.json (everything), results.csv (one tidy row per pairing side and per entrant)
    and results.md (the tables as printed, ready to paste into docs). OSError if unwritable."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    sections = [f"# {describe(result)}", ""]
    if isinstance(result, RoundRobinResult):
        for p in result.pairings:
            rows.append(_csv_row("pairing", p.a_stats, p.b_label, p.b_stats))
        rows += [_csv_row("overall", s, "all", None) for s in result.overall.values()]
        sections += [
            "## Pairings", "", _markdown(pairing_table(result)), "",
            "## Overall", "", _markdown(stats_table(result.overall.values(), "entrant")),
        ]
    else:
        rows += [_csv_row("bot", s, "", None) for s in result.stats.values()]
        sections.append(_markdown(stats_table(result.stats.values())))
    sections += ["", "A shared win counts 1/k for each of k winners; intervals are 95%."]
    notes = forfeit_notes(result)
    if notes:
        sections += ["", "Forfeits (docs/bot-protocol.md):", ""] + [f"- {n}" for n in notes]
    paths = [out_dir / name for name in ("results.json", "results.csv", "results.md")]
    paths[0].write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    paths[2].write_text("\n".join(sections) + "\n", encoding="utf-8")
    return paths
