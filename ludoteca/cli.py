"""The ``ludoteca`` command: play, replay, tournament, bench, games.

Kept thin on purpose: each command parses its flags, calls a module that does the work
(``terminal/session.py``, ``tournament/``, ``bench.py``) and prints. Mistakes a person can make
print one line on stderr and exit with code 2; a person leaving a game exits with 0.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from ludoteca.engine.errors import LudotecaError, OptionError
from ludoteca.engine.options import parse_option_pairs

USAGE_ERRORS: Any = typer.BadParameter.__base__
"""click's ``UsageError`` (bad values, unknown and missing options), from whichever click
typer runs on: typer re-exports only its subclass ``BadParameter``."""


def usage_error(ctx: Any, exc: Any) -> NoReturn:
    """click's usage error as the one ``error:`` line, pointing at the command's help."""
    where = ctx.command_path or "ludoteca"
    fail(f"{exc.format_message()} (see {where} --help)")


def without_flag_types(params: list[Any]) -> list[Any]:
    """A flag's help shows its metavar as its type; an empty one for a flag, which takes no
    value (typer would write ``--watch <bool>``, ``--help <bool>``)."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class Command(TyperCommand):
    """Every subcommand: a flag it cannot read (``--port 99999``, ``--budget abc``, an unknown
    option, a missing argument) ends in one ``error:`` line on stderr and status 2, like every
    other mistake, instead of click's usage box; and its ``--help`` shows no value for a flag
    that takes none (typer would write ``--watch <bool>``)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except USAGE_ERRORS as exc:
            usage_error(ctx, exc)

    def get_params(self, ctx: Any) -> list[Any]:
        return without_flag_types(super().get_params(ctx))


class Group(TyperGroup):
    """``ludoteca`` itself: an unknown subcommand or option is one ``error:`` line too."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except USAGE_ERRORS as exc:
            usage_error(ctx, exc)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except USAGE_ERRORS as exc:
            usage_error(ctx, exc)

    def get_params(self, ctx: Any) -> list[Any]:
        return without_flag_types(super().get_params(ctx))


app = typer.Typer(
    name="ludoteca",
    cls=Group,
    help="Ludoteca: board games in the terminal, bot tournaments and engine benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

USAGE_ERROR = 2
INTERRUPTED = 130

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as name=value (repeatable)."),
]
Players = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
Seed = Annotated[int | None, typer.Option(help="Seed for the deal and the bots (default: random).")]


def out() -> Console:
    return Console(highlight=False)


def error_line(message: str) -> None:
    """The one ``error:`` line on stderr that every mistake ends in."""
    Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {escape(message)}",
                                                soft_wrap=True)


def fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    error_line(message)
    raise typer.Exit(code)


@contextmanager
def person_errors() -> Iterator[None]:
    """Turn the errors a person can cause into one clear line and exit code 2."""
    try:
        yield
    except LudotecaError as exc:
        fail(str(exc))


def read_line(prompt: str) -> str:
    """input(), echoing what was read when stdin is not a terminal so transcripts make sense."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def new_seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(1 << 31)


Lang = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the log and messages: en or es (default: locale)."),
]


def voice_language(lang: str | None) -> str:
    from ludoteca.engine.i18n import check_language, language_from_env

    return check_language(lang) if lang is not None else language_from_env()


def bot_levels(named: list[str], seats: int) -> list[str]:
    """One level per bot seat: the list in order, repeated to fill every seat (``--bots hard``
    fills them all with hard), greedy when none is named."""
    if not named:
        return ["greedy"] * seats
    return [named[i % len(named)] for i in range(seats)]


@app.command(cls=Command)
def play(
    game: Annotated[str, typer.Argument(help="Game to play, e.g. kingdomino.")],
    players: Players = None,
    option: OptionList = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bot levels for the other seats, e.g. hard (every seat) or random,greedy "
            "(in turn) \\[greedy]."
        ),
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat: 0 is the first player (P1).")] = 0,
    seed: Seed = None,
    save: Annotated[
        Path | None, typer.Option(help="Where to save the match (default ./matches/).")
    ] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Bots in every seat; you watch.")] = False,
    delay: Annotated[
        float, typer.Option(help="Seconds between moves when watching.", min=0.0)
    ] = 0.5,
    lang: Lang = None,
) -> None:
    """Play a game in the terminal against bots (or --watch bots play)."""
    from ludoteca.bots import check_bot, make_bot, parse_bot_list
    from ludoteca.engine.i18n import speaking
    from ludoteca.engine.match import Match
    from ludoteca.games import get_game
    from ludoteca.terminal.session import (
        PlaySession,
        Quit,
        load_renderer,
        save_record,
        seat_names,
    )

    with person_errors():
        language = voice_language(lang)
        g = get_game(game)
        ui = load_renderer(game)
        options = parse_option_pairs(option or [])
        named = parse_bot_list(bots) if bots is not None else []
        if players is None:
            players = max(g.spec.min_players, len(named) + (0 if watch else 1))
        g.validate(options, players)
        if not watch and not 0 <= seat < players:
            raise OptionError(f"--seat must be 0-{players - 1} for {players} players, not {seat}")
        bot_seats = list(range(players)) if watch else [s for s in range(players) if s != seat]
        if len(named) > len(bot_seats):
            raise OptionError(f"{len(named)} bots named but only {len(bot_seats)} bot seats")
        levels = bot_levels(named, len(bot_seats))
        for level in set(levels):
            check_bot(level, g.spec.name)
        seed = new_seed(seed)
        plain = g.voice(language)
        controllers: list[Any] = [None] * players
        names = [plain.t("you")] * players
        for i, (s, level) in enumerate(zip(bot_seats, levels, strict=True)):
            controllers[s] = make_bot(level, g.spec.name, seed + 1 + i)
            names[s] = plain.t("{level} bot", level=level)
        match = Match.new(g, options, players, seed, names=names, controllers=controllers)
    humans = [s for s in range(players) if s not in bot_seats]
    voice = g.voice(language, seat_names(names, humans, plain))
    console = out()
    console.print(
        voice.t("{game}, {players} players, seed {seed}. Type `help` for help.",
                game=g.spec.title, players=players, seed=seed)
    )
    session = PlaySession(match, ui, console, read_line, voice, delay=delay if watch else 0.0)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = save or Path("matches") / f"{g.spec.name}-{stamp}.json"
    try:
        with speaking(voice):  # the game's board, hints and help in the person's language
            session.run()
    except LudotecaError as exc:  # a bot's mistake, never the person's: say it, keep the moves
        match.close()
        saved = save_record(match.record, path)
        fail(f"the match stopped: {exc} (moves so far in {saved})", 1)
    except (EOFError, Quit, KeyboardInterrupt) as exc:
        console.print()
        session.flush_log()
        ended = (
            voice.t("Input ended; the match was not finished.")
            if isinstance(exc, EOFError)
            else voice.t("You left; the match was not finished.")
        )
        message = ended
        if save is not None:
            saved = save_record(match.record, path)
            message += " " + voice.t("The moves so far are saved in {path}.", path=saved)
        console.print(message)
        match.close()
        raise typer.Exit(INTERRUPTED if isinstance(exc, KeyboardInterrupt) else 0) from None
    match.end()
    try:
        console.print(voice.t("Match saved to {path}", path=save_record(match.record, path)))
    except OSError as exc:
        fail(f"cannot save the match to {path}: {exc}", 1)


@app.command(cls=Command)
def replay(
    file: Annotated[Path, typer.Argument(help="A match record saved by `ludoteca play`.")],
    seat: Annotated[
        int | None, typer.Option(help="See the match as this seat saw it (default: spectator).")
    ] = None,
    to_end: Annotated[
        bool, typer.Option("--to-end", help="Show only the final position and scores.")
    ] = False,
    lang: Lang = None,
) -> None:
    """Step through a saved match: Enter next, b back, e end, q quit."""
    from ludoteca.engine.i18n import speaking
    from ludoteca.engine.record import MatchRecord
    from ludoteca.games import get_game
    from ludoteca.terminal.session import load_renderer, run_replay

    with person_errors():
        language = voice_language(lang)
        record = MatchRecord.load(file)
        g = get_game(record.game)
        ui = load_renderer(record.game)
        if seat is not None and not 0 <= seat < record.players:
            raise OptionError(f"--seat must be 0-{record.players - 1}, not {seat}")
        names = [str(s.get("name", "")) or f"P{i + 1}" for i, s in enumerate(record.seats)]
        names += [f"P{i + 1}" for i in range(len(names), record.players)]
        voice = g.voice(language, [f"P{i + 1} ({n})" for i, n in enumerate(names)])
        try:
            with speaking(voice):
                run_replay(record, g, ui, out(), read_line, voice, seat, to_end)
        except KeyboardInterrupt:
            raise typer.Exit(INTERRUPTED) from None


@app.command(cls=Command)
def analyse(
    file: Annotated[Path, typer.Argument(help="A finished match's record (ludoteca play, "
                                          "a tournament's --save, or the arena's download).")],
    budget: Annotated[
        int | None, typer.Option(help="Playouts per candidate move (default: the game's own).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the playouts.")] = 0,
    json_file: Annotated[
        Path | None, typer.Option("--json", help="Write the full analysis as JSON here.")
    ] = None,
    chart: Annotated[
        Path | None, typer.Option(help="Write the advantage chart (PNG) here.")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option(help="Processes to analyse in (default: one per core); the "
                                      "result is the same for any number.")
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="Language of the tables and the chart: en or es "
                                    "(default: locale)."),
    ] = None,
) -> None:
    """Judge every decision of a finished match from the deciding seat's view: win chances,
    best moves, mistakes, accuracy and luck (docs/analysis.md)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from ludoteca.analysis.parallel import analyse_parallel
    from ludoteca.analysis.terminal import (
        mistakes_table,
        parts_table,
        seat_names,
        summary_table,
    )
    from ludoteca.engine.i18n import speaking
    from ludoteca.engine.record import MatchRecord
    from ludoteca.games import get_game

    console = out()
    with person_errors():
        language = voice_language(lang)
        if budget is not None and budget < 1:
            raise OptionError(f"--budget must be at least 1, not {budget}")
        if jobs is not None and jobs < 1:
            raise OptionError(f"--jobs must be at least 1, not {jobs}")
        record = MatchRecord.load(file)
        g = get_game(record.game)
        if record.result is None and len(record.actions) == 0:
            raise OptionError("the record holds no moves to analyse")
        voice = g.voice(language)
        progress = Progress(voice.t("analysing {game}", game="{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                            transient=True)
        task = progress.add_task(record.game, total=len(record.actions))
        try:
            with progress:
                result = analyse_parallel(
                    record, budget, seed, jobs,
                    lambda done, _total: progress.update(task, completed=done))
        except KeyboardInterrupt:
            fail("interrupted; nothing written", INTERRUPTED)
    names = seat_names(result, record.seats)
    console.print(summary_table(result, names, voice))
    console.print(parts_table(result, names, voice))
    with speaking(voice):  # the moves in the person's language too
        console.print(mistakes_table(result, names,
                                     lambda data: g.describe(g.action_from_json(data)), voice))
    console.print(voice.t("Win chances are in points (0-100). A seat's start (its chance "
                          "before the deal), luck (what chance and what it could not see gave "
                          "or took), skill (what its own moves did) and others (what the other "
                          "seats' moves did to it) add up to its result: 100 for a win, 0 for "
                          "a loss."))
    if json_file is not None:
        json_file.write_text(json.dumps(result, sort_keys=True, indent=1) + "\n", "utf-8")
        console.print(voice.t("Analysis written to {path}", path=escape(str(json_file))))
    if chart is not None:
        from ludoteca.analysis.chart import write_chart
        from ludoteca.charts import ChartsUnavailable

        try:
            write_chart(result, chart, names, voice)
        except ChartsUnavailable as exc:
            fail(str(exc), 1)
        except (OSError, ValueError) as exc:  # an unwritable path, a suffix matplotlib lacks
            fail(f"cannot write the chart to {chart}: {exc}", 1)
        console.print(voice.t("Chart written to {path}", path=escape(str(chart))))


@app.command(cls=Command)
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


ladder_app = typer.Typer(
    cls=Group,
    help="The rated bot ladder: each bot level's rating per game (docs/ratings.md).",
    no_args_is_help=True,
)
app.add_typer(ladder_app, name="ladder")


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


@app.command(cls=Command)
def bench(
    seconds: Annotated[float, typer.Option(help="Seconds of play per game.")] = 2.0,
    game: Annotated[
        list[str] | None, typer.Option("--game", "-g", help="Only this game (repeatable).")
    ] = None,
) -> None:
    """Engine speed: random max-player games per second, against each game's target."""
    from ludoteca.bench import report, run_bench

    console = out()
    with person_errors():
        if seconds <= 0:
            raise OptionError("--seconds must be positive")
        with console.status("benchmarking…"):
            results = run_bench(seconds, game)
    console.print(report(results))


def player_counts(counts: tuple[int, ...]) -> str:
    """``all``, ``2``, ``6/8`` or ``3-8`` (a run of counts): short enough for 80 columns."""
    if not counts:
        return "all"
    if len(counts) > 2 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return "/".join(map(str, counts))


@app.command(cls=Command)
def games() -> None:
    """Every game, its player range and its options."""
    from ludoteca.games import all_games
    from ludoteca.tables import fold_long_words

    console = out()
    for g in all_games():
        spec = g.spec
        title = f"{spec.title} ({spec.name}) · {spec.min_players}-{spec.max_players} players"
        table = Table(title=escape(title), title_justify="left", show_edge=False,
                      pad_edge=False)
        for col in ("option", "type", "choices", "default", "players"):
            table.add_column(col, no_wrap=col != "choices")
        table.add_column("description", ratio=1)
        for o in spec.options:
            choices = ", ".join(str(c) for c in o.choices)
            if o.min is not None or o.max is not None:
                lo = "" if o.min is None else o.min
                hi = "" if o.max is None else o.max
                choices = f"{lo}..{hi}"
            default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
            counts = player_counts(o.players)
            cells = (o.name, o.type.__name__, choices, default, counts, o.description)
            table.add_row(*(escape(c) for c in cells))
        if not spec.options:
            table.add_row("(none)", "", "", "", "", "")
        console.print(fold_long_words(table))


@contextmanager
def operator_errors() -> Iterator[None]:
    """A setting the server cannot start with: its one line on stderr, and status 2."""
    from ludoteca.server.settings import SettingError

    try:
        yield
    except SettingError as exc:
        fail(" ".join(str(exc).split()))


@app.command(cls=Command)
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            envvar="LUDOTECA_DATABASE_URL",
            help="SQLAlchemy URL (postgresql://...); default: a SQLite file in the user data "
            "folder.",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(help="Least seconds between moves before a bot answers (default 0.8).",
                     min=0.0),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            envvar="LUDOTECA_REDIS_URL",
            help="redis://... : serve one arena from several processes (docs/deploy.md).",
        ),
    ] = None,
) -> None:
    """Run the arena: accounts, lobby and tables over HTTP and WebSockets."""
    from ludoteca.server.preflight import check_database, listen, migrate_database
    from ludoteca.server.settings import Settings

    given: dict[str, Any] = {  # flags given (an empty variable counts as unset)
        "database_url": database_url or None, "redis_url": redis_url or None,
        "bot_delay": bot_delay}
    with operator_errors():
        settings = Settings(host=host, port=port,
                            **{k: v for k, v in given.items() if v is not None})
        check_database(settings.database_url)
        migrate_database(settings.database_url)
        sockets = listen(host, port)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    out().print(f"Ludoteca arena: open http://{shown}:{port}/ in your browser (Ctrl-C stops it)")
    from ludoteca.server.app import serve as run_server  # the app, once the settings are good

    try:
        run_server(settings, sockets)
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it handled, once stopped cleanly
        raise typer.Exit(INTERRUPTED) from None


@app.command(cls=Command)
def worker(
    redis_url: Annotated[
        str, typer.Option(envvar="LUDOTECA_REDIS_URL", help="The arena's Redis (redis://...).")
    ],
    processes: Annotated[
        int, typer.Option(help="Bot moves chosen at once, one process each (0: one per core).",
                          min=0)
    ] = 0,
) -> None:
    """Choose bot moves for the arena's web processes (with LUDOTECA_BOTS=queue there)."""
    import asyncio
    import signal

    from ludoteca.server.bot_queue import work
    from ludoteca.server.logs import configure_logging
    from ludoteca.server.settings import check_games, check_redis_url

    with operator_errors():
        check_redis_url(redis_url)
        check_games()
    configure_logging()

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await work(redis_url, processes, stop)

    out().print(f"Ludoteca bot worker on {redis_url} (Ctrl-C stops it)")
    asyncio.run(run())


@app.command(cls=Command)
def migrate(
    database_url: Annotated[
        str | None,
        typer.Option(envvar="LUDOTECA_DATABASE_URL",
                     help="SQLAlchemy URL; default: the SQLite file `serve` uses."),
    ] = None,
) -> None:
    """Bring the arena's database to the newest schema, then exit (`serve` does it too)."""
    from ludoteca.server.preflight import check_database, migrate_database
    from ludoteca.server.settings import check_database_url, default_database_url

    with operator_errors():
        url = check_database_url(database_url or default_database_url())
        check_database(url)
        migrate_database(url)
    out().print("The database schema is up to date.")


@app.command("recompute-ratings", cls=Command)
def recompute_ratings(
    game: Annotated[str, typer.Option(help="The game whose rating pools are rebuilt.")],
    pool: Annotated[
        str | None,
        typer.Option(help="One pool (all, bots, season:2026Q4); default: every pool of the "
                     "game."),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(envvar="LUDOTECA_DATABASE_URL",
                     help="SQLAlchemy URL; default: the SQLite file `serve` uses."),
    ] = None,
) -> None:
    """Rebuild rating pools from the finished matches' results (docs/ratings.md)."""
    import asyncio

    from ludoteca.games import get_game
    from ludoteca.server.preflight import check_database, migrate_database
    from ludoteca.server.settings import check_database_url, default_database_url
    from ludoteca.server.store import Store

    with person_errors():
        name = get_game(game).spec.name
    with operator_errors():
        url = check_database_url(database_url or default_database_url())
        check_database(url)
        migrate_database(url)

    async def run() -> list[tuple[str, int]]:
        store = Store(url)
        try:
            pools = [pool] if pool is not None else await store.pools.pools_of(name)
            return [(p, await store.pools.recompute(name, p)) for p in pools]
        finally:
            await store.close()

    done = asyncio.run(run())
    if not done:
        out().print(f"No rated {name} match yet: nothing to rebuild.")
    for rebuilt, count in done:
        out().print(f"{name} {rebuilt}: rebuilt from {count} results")


def main() -> None:
    from ludoteca.games import GamesError

    try:
        app(prog_name="ludoteca")
    except GamesError as exc:  # LUDOTECA_GAMES names a package that is no game (docs/engine.md)
        error_line(str(exc))
        sys.exit(USAGE_ERROR)


if __name__ == "__main__":
    main()
