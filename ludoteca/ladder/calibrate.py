"""Calibrating the ladder: the bot levels play each other, and their ratings are fitted.

Games are the tournament runner's (``run_games``: seeded tasks, worker processes, the engine's
match driver). The schedule is over pairs of levels: first every pair plays ``games`` games,
then, while some two levels next to each other on the ladder have 95% intervals that overlap and
the ``extra`` games allow, each such pair plays ``step`` more (the intervals are widest there,
and there more games help most). Game g of every pair is deal g and seats alternate with g; at
more than two players the pair's two levels alternate round the table.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import combinations, pairwise
from typing import Any

from ludoteca.bots import BOT_VERSION, LEVELS, check_bot, identity, level_budget, level_name
from ludoteca.engine.errors import OptionError
from ludoteca.games import get_game
from ludoteca.ladder.fit import PRIOR_DRAWS, C, Fit, PairScore, fit
from ludoteca.rating_scale import MU, plus_minus, shown
from ludoteca.tournament.runner import GameTask, game_seeds, resolve_players, run_games
from ludoteca.tournament.stats import GameRecord

ANCHOR = "random"
ANCHOR_MU = 0.0
"""The random mover is the fixed point of every ladder (its strength has no version): mu 0,
shown as ``shown(0)``. Without it in a calibration the levels' mean is put at ``MU``."""

Batch = Callable[[str, Sequence[GameTask]], None]
"""Told each batch of games before it is played: what it is for, and its tasks."""


@dataclass(frozen=True)
class CalibrationSettings:
    game: str
    levels: Sequence[str] = LEVELS
    players: int | None = None
    games: int = 20
    """Games per pair of levels in the first pass."""
    extra: int = 0
    """Most games added after the first pass, where neighbouring intervals overlap."""
    step: int | None = None
    """Games added to an overlapping pair per round (default: ``games``)."""
    seed: int = 0
    jobs: int = 1
    minutes: float = 0.0
    """No round is begun that would end past this many minutes (0: no limit)."""


@dataclass
class Calibration:
    settings: CalibrationSettings
    players: int
    levels: tuple[str, ...]
    records: list[GameRecord] = field(default_factory=list)
    rounds: int = 0
    stopped: str = ""
    seconds: float = 0.0
    result: Fit | None = None
    busy: float = 0.0
    """Seconds spent playing games so far."""

    @property
    def fitted(self) -> Fit:
        if self.result is None:
            raise RuntimeError("no games fitted yet")
        return self.result


def parse_levels(text: str | None) -> tuple[str, ...]:
    """``"greedy,random"`` -> ``("random", "greedy")``: known levels, weakest first."""
    if text is None:
        return LEVELS
    names = {level_name(part) for part in text.split(",") if part.strip()}
    if len(names) < 2:
        raise OptionError("a ladder needs at least two levels, e.g. --levels random,greedy")
    return tuple(level for level in LEVELS if level in names)


def pair_results(record: GameRecord) -> list[PairScore]:
    """One head-to-head result for every two seats of different levels: the one ranked higher
    (a winner, else the higher score) scores 1, an equal rank 1/2 each."""
    def place(seat: int) -> tuple[int, int]:
        return (0 if seat in record.winners else 1, -record.scores[seat])

    results = []
    for i, j in combinations(range(len(record.seating)), 2):
        a, b = record.seating[i], record.seating[j]
        if a == b:
            continue
        score = 1.0 if place(i) < place(j) else 0.5 if place(i) == place(j) else 0.0
        results.append(PairScore(a, b, 1.0, score))
    return results


def seating(a: str, b: str, g: int, players: int) -> tuple[str, ...]:
    """Game g of pair (a, b): the two alternate round the table, starting with a in even games."""
    return tuple(a if (seat + g) % 2 == 0 else b for seat in range(players))


class _Schedule:
    """The tasks of a calibration: game numbers per pair, deal g for game g of every pair."""

    def __init__(self, settings: CalibrationSettings, players: int, options: dict[str, Any]):
        self.settings = settings
        self.players = players
        self.options = options
        self.played: dict[tuple[str, str], int] = {}
        self.index = 0
        self.seeds: list[int] = []

    def tasks(self, pair: tuple[str, str], games: int) -> list[GameTask]:
        start = self.played.get(pair, 0)
        if len(self.seeds) < start + games:
            self.seeds = game_seeds(self.settings.seed, max(start + games, 2 * len(self.seeds)))
        tag = list(combinations(self.levels, 2)).index(pair)
        made = []
        for g in range(start, start + games):
            made.append(GameTask(self.index, self.settings.game, dict(self.options),
                                 self.seeds[g], seating(*pair, g, self.players), tag=tag))
            self.index += 1
        self.played[pair] = start + games
        return made

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(self.settings.levels)


def fit_records(levels: Sequence[str], records: Sequence[GameRecord]) -> Fit:
    """The ladder's fit of these games: random anchored at ``ANCHOR_MU`` when it played, else
    the levels' mean at ``MU``."""
    scores = [result for record in records for result in pair_results(record)]
    if ANCHOR in levels:
        return fit(levels, scores, ANCHOR, ANCHOR_MU)
    found = fit(levels, scores, levels[0], 0.0)
    shift = MU - sum(found.mu.values()) / len(levels)
    return Fit(found.levels, {k: v + shift for k, v in found.mu.items()}, found.sigma,
               found.games, found.covariance)


def overlapping(result: Fit) -> list[tuple[str, str]]:
    """Neighbours on the fitted ladder whose shown 95% intervals overlap, weakest first."""
    order = sorted(result.levels, key=lambda level: result.mu[level])
    return [
        (low, high)
        for low, high in pairwise(order)
        if shown(result.mu[high]) - plus_minus(result.sigma[high])
        <= shown(result.mu[low]) + plus_minus(result.sigma[low])
    ]


def check_settings(settings: CalibrationSettings) -> tuple[int, dict[str, Any]]:
    """The table's players and options, or OptionError naming the first problem."""
    if len(settings.levels) < 2:
        raise OptionError("a ladder needs at least two levels, e.g. --levels random,greedy")
    if settings.games < 1:
        raise OptionError("--games must be at least 1")
    if settings.extra < 0 or (settings.step is not None and settings.step < 1):
        raise OptionError("--extra must be 0 or more and --step at least 1")
    game = get_game(settings.game)
    for level in settings.levels:
        check_bot(level, settings.game)
    players = resolve_players(game, [], settings.players or game.spec.min_players)
    return players, game.validate({}, players)


def calibrate(
    settings: CalibrationSettings,
    *,
    on_batch: Batch | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> Calibration:
    """Play the schedule and fit it; OptionError for settings that cannot be played."""
    players, options = check_settings(settings)
    levels = tuple(settings.levels)
    schedule = _Schedule(settings, players, options)
    done = Calibration(settings, players, levels)
    start = time.perf_counter()

    def play(what: str, tasks: list[GameTask]) -> None:
        if on_batch is not None:
            on_batch(what, tasks)
        done.records.extend(run_games(tasks, settings.jobs, on_game, on_record))

    first = [t for pair in combinations(levels, 2) for t in schedule.tasks(pair, settings.games)]
    play(f"{settings.game}: every pair, {settings.games} games", first)
    done.result = fit_records(levels, done.records)
    done.busy = time.perf_counter() - start
    left = settings.extra
    tasks: list[GameTask] = []
    step = settings.step or settings.games
    while True:
        close = overlapping(done.fitted)
        if not close:
            done.stopped = "every neighbour's interval apart"
            break
        if left <= 0:
            done.stopped = ("no extra games asked for" if settings.extra == 0
                            else "extra games spent with intervals still overlapping")
            break
        tasks = []
        for low, high in close:
            pair = (low, high) if levels.index(low) < levels.index(high) else (high, low)
            count = min(step, left)
            if count > 0:
                tasks += schedule.tasks(pair, count)
                left -= count
        if settings.minutes and (time.perf_counter() - start + _cost(done, tasks)
                                 > settings.minutes * 60):
            done.stopped = "the time limit came with intervals still overlapping"
            break
        done.rounds += 1
        names = ", ".join(f"{a}-{b}" for a, b in close)
        began = time.perf_counter()
        play(f"round {done.rounds + 1}: {names}", tasks)
        done.busy += time.perf_counter() - began
        done.result = fit_records(levels, done.records)
    done.seconds = time.perf_counter() - start
    return done


def _cost(done: Calibration, tasks: Sequence[GameTask]) -> float:
    """The expected seconds of ``tasks``: each one's pair's mean thinking time per game so far,
    scaled by the ratio of the time spent playing to the thinking in it."""
    think: dict[tuple[str, ...], list[float]] = {}
    for record in done.records:
        think.setdefault(tuple(sorted(set(record.seating))), []).append(sum(record.think))
    total = sum(sum(v) for v in think.values())
    scale = done.busy / total if total > 0 else 1.0
    expected = 0.0
    for task in tasks:
        seen = think.get(tuple(sorted(set(task.seating))), [0.0])
        expected += sum(seen) / len(seen) * scale
    return expected


def pair_summary(calibration: Calibration) -> list[dict[str, Any]]:
    """Per pair of levels: results, wins each way, draws and the first's score."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for record in calibration.records:
        for result in pair_results(record):
            key = (result.a, result.b)
            if key not in rows and (result.b, result.a) in rows:
                key, result = (result.b, result.a), PairScore(result.b, result.a, 1.0,
                                                              1.0 - result.score)
            row = rows.setdefault(key, {"a": key[0], "b": key[1], "games": 0, "a_wins": 0,
                                        "draws": 0, "b_wins": 0})
            row["games"] += 1
            row["a_wins" if result.score == 1 else "b_wins" if result.score == 0 else "draws"] += 1
    for row in rows.values():
        row["a_score"] = (row["a_wins"] + row["draws"] / 2) / row["games"]
    order = list(combinations(calibration.levels, 2))
    return sorted(rows.values(), key=lambda r: order.index((r["a"], r["b"])))


def to_json(calibration: Calibration, command: str) -> dict[str, Any]:
    """The calibration in the shape ``ludoteca.ladder.from_json`` reads."""
    result = calibration.fitted
    settings = calibration.settings
    order = sorted(calibration.levels, key=lambda level: result.mu[level])
    check = [
        {"lower": low, "upper": high, "gap_mu": round(result.mu[high] - result.mu[low], 4),
         "gap_sigma": round(result.gap_sigma(low, high), 4)}
        for low, high in pairwise(order)
    ]
    games = len(calibration.records)
    return {
        "game": settings.game,
        "players": calibration.players,
        "rungs": [
            {"level": level, "identity": identity(level), "mu": round(result.mu[level], 4),
             "sigma": round(result.sigma[level], 4), "games": round(result.games[level])}
            for level in order
        ],
        "meta": {
            "command": command,
            "bot_version": BOT_VERSION,
            "seed": settings.seed,
            "games": games,
            "first_pass_games_per_pair": settings.games,
            "extra": settings.extra,
            "step": settings.step or settings.games,
            "rounds": calibration.rounds + 1,
            "stopped": calibration.stopped,
            "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seconds": round(calibration.seconds),
            "jobs": settings.jobs,
            "minutes": settings.minutes,
            "cores": os.cpu_count(),
            "budgets": {level: level_budget(level, settings.game)
                        for level in calibration.levels if level_budget(level, settings.game)},
            "method": method(calibration.levels),
            "pairs": pair_summary(calibration),
            "neighbours": check,
        },
    }


def method(levels: Sequence[str]) -> str:
    """How the numbers were made, in one sentence for ``ladder show``."""
    anchor = (f"{ANCHOR} anchored at mu {ANCHOR_MU:g}" if ANCHOR in levels
              else f"the levels' mean anchored at mu {MU:g}")
    return (f"Bradley-Terry maximum likelihood over every game (c = {C:.3f}, draws half, "
            f"{PRIOR_DRAWS:g} virtual draw per pair), {anchor}; sigma from the Fisher "
            "information of each level's own games")
