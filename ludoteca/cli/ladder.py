"""``ludoteca ladder``: calibrate the bot levels' ratings for a game, and show a shipped
ladder (docs/ratings.md)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludoteca.cli.common import INTERRUPTED, Command, Group, Players, fail, out, person_errors

ladder_app = typer.Typer(
    cls=Group,
    help="The rated bot ladder: each bot level's rating per game (docs/ratings.md).",
    no_args_is_help=True,
)



@ladder_app.command("calibrate", cls=Command)
def ladder_calibrate(
    game: Annotated[str, typer.Option("--game", "-g", help="Game to calibrate, e.g. kingdomino.")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Games per pair of levels in the first pass.")
    ] = 20,
    levels: Annotated[
        str | None,
        typer.Option(help="Levels on the ladder, e.g. random,greedy (default: all four)."),
    ] = None,
    players: Players = None,
    extra: Annotated[
        int,
        typer.Option(help="Most games added after the first pass to neighbouring levels whose "
                     "intervals overlap."),
    ] = 0,
    step: Annotated[
        int | None,
        typer.Option(help="Games added per overlapping pair per round (default: --games)."),
    ] = None,
    minutes: Annotated[
        float,
        typer.Option(help="Begin no round that would end past this many minutes (0: no limit).",
                     min=0.0),
    ] = 0.0,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 0,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", help="Games played at once, in processes (0: one per CPU)."),
    ] = 1,
    out_file: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write the ladder (default: the package's own "
                     "file for the game, the one the server reads)."),
    ] = None,
) -> None:
    """Play the bot levels against each other and fit their ratings (OpenSkill units)."""
    import shlex

    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from ludoteca.games import entry
    from ludoteca.ladder import shipped_path
    from ludoteca.ladder.calibrate import (
        CalibrationSettings,
        calibrate,
        check_settings,
        parse_levels,
        to_json,
    )
    from ludoteca.tournament import GameRecord, GameTask
    from ludoteca.tournament.eta import TimeLeft, WorkLeftColumn
    from ludoteca.tournament.runner import resolve_jobs

    console = out()
    with person_errors():
        name = entry(game).name
        settings = CalibrationSettings(name, parse_levels(levels), players, games, extra, step,
                                       seed, jobs, minutes)
        check_settings(settings)
        target = out_file or shipped_path(name)
        progress = Progress(
            "{task.description}", BarColumn(), MofNCompleteColumn(), WorkLeftColumn(),
            console=console, transient=True,
        )
        clock: list[TimeLeft] = []
        bar: list[Any] = []

        def on_batch(what: str, tasks: Sequence[GameTask]) -> None:
            clock[:] = [TimeLeft(tasks, min(resolve_jobs(jobs), len(tasks)))]
            if bar:
                progress.remove_task(bar.pop())
            bar.append(progress.add_task(what, total=len(tasks), left=None, at=0.0))

        def on_record(record: GameRecord) -> None:
            clock[0].add(record)
            progress.update(bar[0], left=clock[0].seconds(), at=time.monotonic())

        def on_game(done: int) -> None:
            progress.update(bar[0], completed=done)

        try:
            with progress:
                result = calibrate(settings, on_batch=on_batch, on_record=on_record,
                                   on_game=on_game)
        except KeyboardInterrupt:
            fail("interrupted; no ladder written", INTERRUPTED)
    data = to_json(result, "ludoteca " + shlex.join(sys.argv[1:]))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the ladder: {exc}", 1)
    from ludoteca.ladder import from_json

    _print_ladder(console, from_json(data))
    console.print(f"Ladder written to {escape(str(target))}")


@ladder_app.command("show", cls=Command)
def ladder_show(
    game: Annotated[str, typer.Option("--game", "-g", help="Game whose ladder to show.")],
) -> None:
    """The shipped ladder of a game: each level's rating, its 95% interval and how it was made."""
    from ludoteca.games import entry
    from ludoteca.ladder import ladder

    with person_errors():
        name = entry(game).name
    found = ladder(name)
    if found is None:
        fail(f"no ladder is shipped for {name}; make one with ludoteca ladder calibrate "
             f"--game {name}")
    _print_ladder(out(), found)


def _print_ladder(console: Console, found: Any) -> None:
    """The ladder as a table (level, rating, games, scores against the others) and how it was
    made."""
    meta = found.meta
    table = Table(title=f"{found.game}, {found.players} players: the bot ladder")
    for column in ("level", "rating", "mu", "sigma", "games", "scores"):
        table.add_column(column, justify="left" if column in ("level", "scores") else "right")
    pairs = meta.get("pairs", [])
    for rung in reversed(found.rungs):
        scores = []
        for row in pairs:
            if rung.level in (row["a"], row["b"]):
                first = row["a"] == rung.level
                other = row["b"] if first else row["a"]
                won = row["a_wins"] if first else row["b_wins"]
                scores.append(f"{won + row['draws'] / 2:g}/{row['games']} vs {other}")
        table.add_row(
            rung.level.capitalize(), f"≈ {rung.rating:,} ± {rung.plus_minus:,}",
            f"{rung.mu:.2f}", f"{rung.sigma:.2f}", f"{rung.games:,}", "; ".join(scores),
        )
    console.print(table)
    console.print("Ratings on the Elo-like scale (1,500 = OpenSkill's new player); ± is the 95% "
                  "interval.")
    made = [f"{meta['games']:,} games" if "games" in meta else "",
            f"seed {meta['seed']}" if "seed" in meta else "", str(meta.get("date", ""))]
    if "seconds" in meta:
        made[0] += f" in {round(meta['seconds'] / 60)} min"
    if any(made):
        console.print("Calibrated: " + ", ".join(m for m in made if m) + ".")
    for key in ("command", "method", "stopped"):
        if key in meta:
            console.print(f"{key.capitalize()}: {escape(str(meta[key]))}")
