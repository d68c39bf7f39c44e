"""The ``ludoteca`` command: play, replay, analyse, tournament, ladder, bench, games and the
operator's serve, worker, migrate and recompute-ratings.

Kept thin on purpose: each command parses its flags, calls a module that does the work
(``terminal/session.py``, ``tournament/``, ``bench.py``) and prints. Mistakes a person can make
print one line on stderr and exit with code 2; a person leaving a game exits with 0. Each
module here holds one group of commands; this one registers them, in the order ``--help``
lists them, and keeps start-up light: every command imports what it needs when it runs.
"""

from __future__ import annotations

import sys

import typer

from ludoteca.cli import analyse, info, ladder, play, server, tournament
from ludoteca.cli.common import USAGE_ERROR, Command, Group, error_line
from ludoteca.cli.ladder import _print_ladder

__all__ = ["_print_ladder", "app", "main"]

app = typer.Typer(
    name="ludoteca",
    cls=Group,
    help="Ludoteca: board games in the terminal, bot tournaments and engine benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command(cls=Command)(play.play)
app.command(cls=Command)(play.replay)
app.command(cls=Command)(analyse.analyse)
app.command(cls=Command)(tournament.tournament)
app.add_typer(ladder.ladder_app, name="ladder")
app.command(cls=Command)(info.bench)
app.command(cls=Command)(info.games)
app.command(cls=Command)(server.serve)
app.command(cls=Command)(server.worker)
app.command(cls=Command)(server.migrate)
app.command("recompute-ratings", cls=Command)(server.recompute_ratings)


def main() -> None:
    from ludoteca.games import GamesError

    try:
        app(prog_name="ludoteca")
    except GamesError as exc:  # LUDOTECA_GAMES names a package that is no game (docs/engine.md)
        error_line(str(exc))
        sys.exit(USAGE_ERROR)
