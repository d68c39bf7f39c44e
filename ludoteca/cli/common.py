"""What every command shares: the click classes that turn a usage mistake into one ``error:``
line, the shared flags, and the helpers that print, fail and read a person's input."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from ludoteca.engine.errors import LudotecaError

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
