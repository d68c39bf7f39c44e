"""Tournament statistics: 95% intervals, what each bot earned, and the tallies of finished games.

A bot's row counts **games**, not seats: a bot holding several seats of one game (``greedy,random``
at 4 players, or the other entrant of a round-robin pairing) plays that game once; its win is the
chance that one of its seats wins (their shares added) and its score is the mean of its seats, one
value per game, so its interval is not narrowed by seats that played the same deal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.engine.game import Seat

Z95 = 1.959963984540054
MAX_NOTES = 5
"""Forfeit reasons kept per bot for the report."""


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


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion; sound near 0 and 1, unlike the normal one."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exactly 0 and 1 at the ends: rounding would leave a hair of width there
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval. When no value is negative (scores), the
    interval stops at 0: the normal approximation would reach below it with few games."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    low = mean - half
    if min(values) >= 0:
        low = max(0.0, low)
    return (mean, low, mean + half)


@dataclass
class BotStats:
    """Everything one bot earned over the games it played in (see the module docstring)."""

    name: str
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    moves: int = 0
    think_seconds: float = 0.0
    seat_games: dict[int, int] = field(default_factory=dict)
    """Per seat, how many games the bot held it (a bot in three seats counts in all three)."""
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
        return mean_interval(self.scores)

    @property
    def mean_move_ms(self) -> float:
        return 1000 * self.think_seconds / self.moves if self.moves else 0.0

    def add_game(self, record: GameRecord, seats: Sequence[Seat], *, timed: bool = True) -> None:
        """Count one game in which the bot held ``seats``: one game, the sum of the seats' win
        shares, the mean of their scores; moves and forfeits of every seat unless not ``timed``
        (a round-robin's overall table times moves separately)."""
        self.games += 1
        for seat in seats:
            self.seat_games[seat] = self.seat_games.get(seat, 0) + 1
            self.wins += record.credit(seat)
            if timed:
                self.add_moves(record, seat)
        self.scores.append(sum(record.scores[s] for s in seats) / len(seats))

    def add_moves(self, record: GameRecord, seat: Seat) -> None:
        """The moves, thinking time and forfeit of one seat of one game."""
        self.moves += record.moves[seat]
        self.think_seconds += record.think[seat]
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


@dataclass
class PairingStats:
    """A in one seat against B in all the others (a round-robin pairing). B's wins add up over
    its copies (the chance that one of them wins); B's score is the mean over its copies."""

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


# ---- results -----------------------------------------------------------------------------
@dataclass
class TournamentResult:
    """A list tournament (``--bots``): one row per bot name."""

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


@dataclass
class RoundRobinResult:
    """A round-robin (``--round-robin``): one row per pairing, and the overall table."""

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


Result = TournamentResult | RoundRobinResult


# ---- tallies -----------------------------------------------------------------------------
def seats_of(record: GameRecord) -> dict[str, list[Seat]]:
    """Each bot name of a game and the seats it held, in seat order of first appearance."""
    seats: dict[str, list[Seat]] = {}
    for seat, name in enumerate(record.seating):
        seats.setdefault(name, []).append(seat)
    return seats


def tally_list(records: Iterable[GameRecord], entrants: Sequence[str]) -> dict[str, BotStats]:
    """Per bot name, the games it played in (however many seats it held)."""
    stats = {name: BotStats(name) for name in entrants}
    for record in records:
        for name, seats in seats_of(record).items():
            stats[name].add_game(record, seats)
    return stats


def tally_round_robin(
    records: Iterable[GameRecord],
    pairs: Sequence[tuple[str, str]],
    entrants: Sequence[str],
    players: int,
) -> tuple[list[PairingStats], dict[str, BotStats]]:
    """The pairing rows (``record.tag`` names the pairing) and the overall table, which pools
    each entrant's games in which it held a single seat: all of them at 2 players, its lone-seat
    games above (so its win rate compares with 1/players). Thinking time pools every move."""
    pairings = [PairingStats(a, b, players, BotStats(a), BotStats(b)) for a, b in pairs]
    overall = {name: BotStats(name) for name in entrants}
    for record in records:
        p = pairings[record.tag]
        lone = record.seating.index(p.a)
        others = [seat for seat in range(players) if seat != lone]
        p.a_stats.add_game(record, [lone])
        p.b_stats.add_game(record, others)
        for seat, name in enumerate(record.seating):
            overall[name].add_moves(record, seat)
            if seat == lone or players == 2:
                overall[name].add_game(record, [seat], timed=False)
    return pairings, overall
