"""``ludoteca bench`` and ``ludoteca games``: what the engine offers and how fast it runs."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ludoteca.cli.common import out, person_errors
from ludoteca.engine.errors import OptionError


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
