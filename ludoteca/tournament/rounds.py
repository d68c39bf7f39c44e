"""A tournament of bots in rounds (``ludoteca tournament --format``): each round paired by the
same module the arena's director uses (``pairing.pair_round``), its tables played as games
through the runner, then the standings with their tie-breaks.

Each named bot is one entrant (a name given twice becomes ``greedy`` and ``greedy#2``); one game
per table; game seeds derive from the tournament's seed and the game's place in it, so the same
flags give the same tournament with any ``--jobs``. A table's places come from the game: the
winners first (a shared win is a shared first place), then by score; a bot that forfeits is
placed last (scoring.effective_places).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ludoteca.engine.errors import OptionError
from ludoteca.tournament.model import Bye, Entrant, GameResult, RoundDraw
from ludoteca.tournament.pairing import Format, format_standings, pair_round
from ludoteca.tournament.runner import GameTask, TournamentSettings, _plan, game_seeds, run_games
from ludoteca.tournament.standings import TIEBREAKS, Standings
from ludoteca.tournament.stats import GameRecord

MAX_ROUNDS = 1000
"""A knockout or round-robin never needs more; a guard against a schedule that never ends."""


def entrant_ids(names: Sequence[str]) -> list[str]:
    """One id per name given: the second ``greedy`` is ``greedy#2``."""
    seen: dict[str, int] = {}
    ids = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        ids.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return ids


def bot_of(entrant: str) -> str:
    return entrant.rsplit("#", 1)[0] if "#" in entrant else entrant


def record_result(draw_round: int, board: int, record: GameRecord) -> GameResult:
    """A game's record as a table result (module docstring)."""
    n = len(record.seating)
    key = [(s in record.winners, record.scores[s]) for s in range(n)]
    places = tuple(1 + sum(other > mine for other in key) for mine in key)
    return GameResult(
        draw_round, board, record.seating, places, tuple(map(float, record.scores)),
        tuple(f is not None for f in record.forfeits),
    )


@dataclass(frozen=True)
class RoundsResult:
    """What a tournament in rounds left: the draws, the results, the standings."""

    game: str
    format: Format
    players: int
    options: dict[str, Any]
    seed: int
    entrants: list[str]
    draws: list[RoundDraw]
    results: list[GameResult]
    standings: Standings
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "format": self.format.to_json(), "players": self.players,
            "options": self.options, "seed": self.seed, "entrants": self.entrants,
            "rounds": [d.to_json() for d in self.draws],
            "results": [r.to_json() for r in self.results],
            "standings": self.standings.to_json(), "seconds": self.seconds,
        }

    def describe(self) -> str:
        kind = {"swiss": "Swiss", "round-robin": "round-robin", "knockout": "knockout"}
        games = len(self.results)
        return (
            f"{self.game}: {kind.get(self.format.kind, self.format.kind)} of "
            f"{len(self.entrants)}, {self.players} players a table, {len(self.draws)} rounds, "
            f"{games} game{'s' * (games != 1)} ({self.seconds:.1f} s)"
        )

    def table(self) -> tuple[list[str], list[list[str]]]:
        """Headers and rows of the standings, tie-breaks by name."""
        headers = ["rank", "entrant", "points",
                   *(TIEBREAKS[k].name for k in self.standings.tiebreaks), "games", "byes"]
        rows = [
            [str(r.rank), r.entrant, f"{r.points:g}", *(f"{v:g}" for v in r.tiebreaks),
             str(r.games), str(r.byes)]
            for r in self.standings.rows
        ]
        return headers, rows


def _offset(on_game: Callable[[int], None] | None, base: int) -> Callable[[int], None] | None:
    """Games done in the tournament, from games done in the round."""
    if on_game is None:
        return None
    told = on_game
    return lambda done: told(base + done)


def run_rounds(
    settings: TournamentSettings, fmt: Format,
    on_round: Callable[[RoundDraw], None] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> RoundsResult:
    """Pair, play and score round after round until the format has no next round."""
    ids = entrant_ids(settings.entrants)
    if len(ids) < 2:
        raise OptionError("a tournament needs at least two entrants, e.g. --bots greedy,random")
    plan = _plan(settings, round_robin=True)
    fmt = replace(fmt, table_size=plan.players)
    entrants = [Entrant(e) for e in ids]
    results: list[GameResult] = []
    byes: list[Bye] = []
    draws: list[RoundDraw] = []
    played = 0
    start = time.perf_counter()
    for number in range(1, MAX_ROUNDS + 1):
        draw = pair_round(fmt, entrants, results, byes, number, settings.seed)
        if draw is None:
            break
        draws.append(draw)
        if on_round is not None:
            on_round(draw)
        seeds = game_seeds(settings.seed + number, len(draw.tables))
        tasks = [
            GameTask(
                played + k, settings.game, dict(plan.options), seeds[k],
                tuple(bot_of(e) for e in table.seats), settings.time_ms, tag=table.board,
                workers=plan.workers,
                save=None if plan.save_dir is None else str(
                    plan.save_dir / f"{settings.game}-round{number}-board{table.board}.json"),
            )
            for k, table in enumerate(draw.tables)
        ]
        records = run_games(tasks, settings.jobs, on_game=_offset(on_game, played))
        for table, record in zip(draw.tables, records, strict=True):
            results.append(record_result(number, table.board, replace(record, seating=table.seats)))
        byes += draw.byes
        played += len(tasks)
    return RoundsResult(
        settings.game, fmt, plan.players, dict(plan.options), settings.seed, ids, draws,
        results, format_standings(fmt, entrants, results, byes, settings.seed),
        time.perf_counter() - start,
    )
