"""Bots against bots: many seeded games with rotated seats, and the statistics to judge them.

Entrants take the seats in turn: in game g, entrant i sits at seat (i + g) mod players, so every
entrant plays every seat equally often when the number of games is a multiple of the player count.
When fewer bots than seats are named, the list repeats (``greedy,random`` with 4 players is
greedy, random, greedy, random). Results are pooled per bot name.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ludoteca.bots import check_bot, make_bot
from ludoteca.engine.errors import OptionError
from ludoteca.engine.game import Game, Outcome, Seat
from ludoteca.engine.rng import Rng
from ludoteca.games import get_game

Z95 = 1.959963984540054


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
    scores: list[int] = field(default_factory=list)
    moves: int = 0
    think_seconds: float = 0.0
    seat_games: dict[int, int] = field(default_factory=dict)

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
        }


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

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "entrants": self.entrants,
            "games": self.games,
            "seconds": self.seconds,
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


def run_tournament(
    game_name: str,
    bots: list[str],
    players: int | None = None,
    games: int = 100,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` seeded games and pool the results per bot name."""
    if not bots:
        raise OptionError("name at least one bot, e.g. --bots greedy,random")
    if games < 1:
        raise OptionError("the number of games must be at least 1")
    game = get_game(game_name)
    players = resolve_players(game, bots, players)
    opts = game.validate(options, players)
    for name in bots:
        check_bot(name, game_name)
    entrants = [bots[i % len(bots)] for i in range(players)]
    stats = {name: BotStats(name) for name in entrants}
    seeds = Rng(seed)
    start = time.perf_counter()
    for g in range(games):
        game_seed = seeds.next64() >> 1
        seating = [entrants[(seat - g) % players] for seat in range(players)]
        controllers = [make_bot(name, game_seed + 7919 * seat) for seat, name in enumerate(seating)]

        def on_move(seat: Seat, seconds: float, seating: list[str] = seating) -> None:
            s = stats[seating[seat]]
            s.moves += 1
            s.think_seconds += seconds

        outcome, _ = play_game(game, controllers, opts, game_seed, on_move)
        winners = outcome.winners
        for seat, name in enumerate(seating):
            s = stats[name]
            s.games += 1
            s.seat_games[seat] = s.seat_games.get(seat, 0) + 1
            s.scores.append(outcome.scores[seat])
            if seat in winners:
                s.wins += 1 / len(winners)
        if on_game is not None:
            on_game(g + 1)
    return TournamentResult(
        game=game_name,
        players=players,
        options=dict(opts),
        seed=seed,
        entrants=entrants,
        games=games,
        stats=stats,
        seconds=time.perf_counter() - start,
    )
