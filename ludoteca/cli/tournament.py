"""``ludoteca tournament``: bots against bots, in a series of games or in paired rounds, and
the result files it writes."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ludoteca.cli.common import INTERRUPTED, OptionList, Players, fail, out, person_errors
from ludoteca.engine.errors import OptionError
from ludoteca.engine.options import parse_option_pairs


def tournament(
    game: Annotated[str, typer.Argument(help="Game to play, e.g. kingdomino.")],
    bots: Annotated[
        str | None,
        typer.Option(help="Bots taking the seats in turn, e.g. greedy,random (the default)."),
    ] = None,
    round_robin: Annotated[
        str | None,
        typer.Option(
            "--round-robin",
            help="Entrants playing every pairing, e.g. random,easy,medium,hard or "
            "'cmd:python my_bot.py' for an external bot.",
        ),
    ] = None,
    format_name: Annotated[
        str | None,
        typer.Option(
            "--format", help="Play in rounds, paired as the arena pairs: swiss, round-robin or "
            "knockout; one entrant per name in --bots, one game per table.",
        ),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Rounds of a --format swiss.")
    ] = None,
    players: Players = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="Number of games (per pairing in a round-robin).")
    ] = 100,
    option: OptionList = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    jobs: Annotated[
        int,
        typer.Option("--jobs", "-j", help="Games played at once, in processes (0: one per CPU)."),
    ] = 1,
    time_ms: Annotated[
        int, typer.Option("--time-ms", help="Move budget sent to external (cmd:) bots.")
    ] = 2000,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", help="Processes each medium/hard bot searches with per move "
            "(0: the CPUs divided by --jobs)."
        ),
    ] = 0,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Directory for results.json/.csv/.md and chart.png "
            "(default ./tournaments/GAME-TIMESTAMP)."
        ),
    ] = None,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Also write the results as JSON here.")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Directory to save every game's match record in "
            "(GAME-INDEX.json, for ludoteca replay)."
        ),
    ] = None,
) -> None:
    """Bots against bots, seats rotated; win rates and mean scores with 95% intervals."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from ludoteca.tournament import (
        GameRecord,
        GameTask,
        Result,
        RoundRobinResult,
        TournamentSettings,
        describe,
        forfeit_notes,
        parse_entrants,
        run_round_robin,
        run_tournament,
        terminal_tables,
    )
    from ludoteca.tournament.eta import TimeLeft, WorkLeftColumn
    from ludoteca.tournament.runner import resolve_jobs

    console = out()
    if format_name is not None or rounds is not None:
        _tournament_in_rounds(
            console, game, bots, round_robin, format_name, rounds, players, option, seed, jobs,
            time_ms, workers, out_dir, json_file, save,
        )
        return
    with person_errors():
        if bots is not None and round_robin is not None:
            raise OptionError("use either --bots or --round-robin, not both")
        if time_ms < 1:
            raise OptionError(f"--time-ms must be positive, not {time_ms}")
        options = parse_option_pairs(option or [])
        names = parse_entrants(round_robin if round_robin is not None else bots or "greedy,random")
        progress = Progress(
            "{task.description}", BarColumn(), MofNCompleteColumn(), WorkLeftColumn(),
            console=console, transient=True,
        )
        task = progress.add_task(f"{game}", total=None, left=None, at=0.0)
        clock: list[TimeLeft] = []

        def on_tasks(tasks: Sequence[GameTask]) -> None:
            clock.append(TimeLeft(tasks, resolve_jobs(jobs)))

        def on_record(record: GameRecord) -> None:
            clock[0].add(record)
            progress.update(task, left=clock[0].seconds(), at=time.monotonic())

        def on_game(done: int) -> None:
            progress.update(task, completed=done)

        settings = TournamentSettings(
            game, names, players, games, options, seed, jobs, workers, time_ms, save
        )
        runner = run_round_robin if round_robin is not None else run_tournament
        try:
            with progress:
                result: Result = runner(
                    settings,
                    on_start=lambda total: progress.update(task, total=total),
                    on_game=on_game,
                    on_tasks=on_tasks,
                    on_record=on_record,
                )
        except KeyboardInterrupt:
            fail("interrupted; no results written", INTERRUPTED)
        except OSError as exc:
            fail(f"cannot save a match record: {exc}", 1)
    if isinstance(result, RoundRobinResult):
        console.print(escape(describe(result)))
    for table in terminal_tables(result):
        console.print(table)
    console.print("Shared wins count fractionally; intervals are 95% (Wilson for win rates).")
    for note in forfeit_notes(result):
        console.print(f"[yellow]forfeit:[/] {escape(note)}", soft_wrap=True)
    _write_tournament_files(console, result, out_dir, json_file)
    if save is not None:
        console.print(f"Match records saved in {escape(str(save))}")


def _tournament_in_rounds(
    console: Console, game: str, bots: str | None, round_robin: str | None,
    format_name: str | None, rounds: int | None, players: int | None, option: list[str] | None,
    seed: int, jobs: int, time_ms: int, workers: int, out_dir: Path | None,
    json_file: Path | None, save: Path | None,
) -> None:
    """``--format``: rounds paired by ludoteca.tournament.pairing, then the standings."""
    from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn

    from ludoteca.tables import fold_long_words
    from ludoteca.tournament import TournamentSettings, parse_entrants
    from ludoteca.tournament.pairing import Format
    from ludoteca.tournament.rounds import run_rounds
    from ludoteca.tournament.standings import TIEBREAKS

    with person_errors():
        if round_robin is not None:
            raise OptionError("with --format, name the entrants with --bots")
        if format_name is None:
            raise OptionError("--rounds is for --format swiss")
        if format_name == "arena":
            raise OptionError("an arena runs in the server (ludoteca serve), not here")
        if rounds is not None and format_name != "swiss":
            raise OptionError("--rounds is for --format swiss")
        if time_ms < 1:
            raise OptionError(f"--time-ms must be positive, not {time_ms}")
        fmt = Format(format_name, rounds=rounds)
        options = parse_option_pairs(option or [])
        names = parse_entrants(bots or "greedy,random")
        settings = TournamentSettings(
            game, names, players, 1, options, seed, jobs, workers, time_ms, save
        )
        progress = Progress(SpinnerColumn(), "{task.description}", MofNCompleteColumn(),
                            console=console, transient=True)
        task = progress.add_task(f"{game}: round 1", total=None)
        try:
            with progress:
                result = run_rounds(
                    settings, fmt,
                    on_round=lambda d: progress.update(task,
                                                       description=f"{game}: round {d.round}"),
                    on_game=lambda done: progress.update(task, completed=done),
                )
        except KeyboardInterrupt:
            fail("interrupted; no results written", INTERRUPTED)
        except OSError as exc:
            fail(f"cannot save a match record: {exc}", 1)
    console.print(escape(result.describe()))
    headers, rows = result.table()
    standings = Table(title="Standings")
    for i, heading in enumerate(headers):
        standings.add_column(heading, justify="left" if i == 1 else "right")
    for row in rows:
        standings.add_row(*(escape(cell) for cell in row))
    console.print(fold_long_words(standings))
    for key in result.standings.tiebreaks:
        console.print(f"{escape(TIEBREAKS[key].name)}: {escape(TIEBREAKS[key].rule)}",
                      soft_wrap=True)
    if out_dir is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        out_dir = Path("tournaments") / f"{game}-{stamp}"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        text = json.dumps(result.to_json(), indent=1) + "\n"
        (out_dir / "results.json").write_text(text, encoding="utf-8")
        headers, rows = result.table()
        lines = [f"# {result.describe()}", "", "| " + " | ".join(headers) + " |",
                 "|" + "---|" * len(headers), *("| " + " | ".join(r) + " |" for r in rows)]
        (out_dir / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if json_file is not None:
            json_file.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the results: {exc}", 1)
    console.print(f"Results written to {escape(str(out_dir))} (results.json, .md)")
    if json_file is not None:
        console.print(f"Results written to {escape(str(json_file))}")
    if save is not None:
        console.print(f"Match records saved in {escape(str(save))}")


def _write_tournament_files(
    console: Console, result: Any, out_dir: Path | None, json_file: Path | None
) -> None:
    """results.* and chart.png in the output directory; the chart only when matplotlib is
    there, and a missing matplotlib is a hint, not an error (the tables are the results)."""
    from ludoteca.charts import ChartsUnavailable, write_chart
    from ludoteca.tournament import write_results

    if out_dir is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        out_dir = Path("tournaments") / f"{result.game}-{stamp}"
    try:
        write_results(result, out_dir)
        if json_file is not None:
            json_file.write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write the results: {exc}", 1)
    try:
        write_chart(result, out_dir / "chart.png")
        chart = ", chart.png"
    except ChartsUnavailable as exc:
        chart = ""
        console.print(f"No chart: {escape(str(exc))}", soft_wrap=True)
    except OSError as exc:
        fail(f"cannot write {out_dir / 'chart.png'}: {exc}", 1)
    console.print(f"Results written to {escape(str(out_dir))} (results.json, .csv, .md{chart})")
    if json_file is not None:
        console.print(f"Results written to {escape(str(json_file))}")
