"""Bots against bots: many seeded games with rotated seats, and the statistics to judge them.

Two ways to seat bots (docs/bots.md, "Tournaments"): a **list** (``--bots``, :func:`run_tournament`)
whose entrants take the seats in turn, and a **round-robin** (``--round-robin``,
:func:`run_round_robin`) in which every pairing plays the same deals. Both take one
:class:`TournamentSettings`. The package is three parts:

- ``runner``: the settings, one picklable task per game played through the engine's match driver,
  worker processes for ``jobs > 1``, and the one search pool per playing process;
- ``stats``: 95% intervals, what each bot earned, and the tallies of finished games;
- ``report``: tables for the terminal and results.md, results.csv and results.json.
"""

from ludoteca.tournament.report import (
    Table,
    describe,
    forfeit_notes,
    pairing_table,
    rich_table,
    stats_table,
    terminal_tables,
    write_results,
)
from ludoteca.tournament.runner import (
    DEFAULT_TIME_MS,
    GameTask,
    TournamentSettings,
    check_entrants,
    game_seeds,
    make_entrant,
    parse_entrants,
    play_task,
    resolve_jobs,
    resolve_players,
    resolve_workers,
    round_robin_pairings,
    run_games,
    run_round_robin,
    run_tournament,
    searches,
    winners_after_forfeits,
)
from ludoteca.tournament.stats import (
    BotStats,
    GameRecord,
    PairingStats,
    Result,
    RoundRobinResult,
    TournamentResult,
    mean_interval,
    tally_list,
    tally_round_robin,
    wilson_interval,
)

__all__ = [
    "DEFAULT_TIME_MS",
    "BotStats",
    "GameRecord",
    "GameTask",
    "PairingStats",
    "Result",
    "RoundRobinResult",
    "Table",
    "TournamentResult",
    "TournamentSettings",
    "check_entrants",
    "describe",
    "forfeit_notes",
    "game_seeds",
    "make_entrant",
    "mean_interval",
    "pairing_table",
    "parse_entrants",
    "play_task",
    "resolve_jobs",
    "resolve_players",
    "resolve_workers",
    "rich_table",
    "round_robin_pairings",
    "run_games",
    "run_round_robin",
    "run_tournament",
    "searches",
    "stats_table",
    "tally_list",
    "tally_round_robin",
    "terminal_tables",
    "wilson_interval",
    "winners_after_forfeits",
    "write_results",
]
