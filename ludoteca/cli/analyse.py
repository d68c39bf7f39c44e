"""``ludoteca analyse``: every decision of a finished match judged (docs/analysis.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from ludoteca.cli.common import INTERRUPTED, fail, out, person_errors, voice_language
from ludoteca.engine.errors import OptionError


def analyse(
    file: Annotated[Path, typer.Argument(help="A finished match's record (ludoteca play, "
                                          "a tournament's --save, or the arena's download).")],
    budget: Annotated[
        int | None, typer.Option(help="Playouts per candidate move (default: the game's own "
                                      "for its player count).")
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
