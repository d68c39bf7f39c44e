"""The operator's commands: ``serve`` the arena, run a bot ``worker``, ``migrate`` the database
and ``recompute-ratings`` (docs/server.md, docs/deploy.md)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer

from ludoteca.cli.common import INTERRUPTED, fail, out, person_errors


@contextmanager
def operator_errors() -> Iterator[None]:
    """A setting the server cannot start with: its one line on stderr, and status 2."""
    from ludoteca.server.settings import SettingError

    try:
        yield
    except SettingError as exc:
        fail(" ".join(str(exc).split()))


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


DatabaseUrl = Annotated[
    str | None,
    typer.Option(envvar="LUDOTECA_DATABASE_URL",
                 help="SQLAlchemy URL; default: the SQLite file `serve` uses."),
]
"""The database the operator commands work on (``serve`` says more in its own help)."""


def migrate(
    database_url: DatabaseUrl = None,
) -> None:
    """Bring the arena's database to the newest schema, then exit (`serve` does it too)."""
    from ludoteca.server.preflight import check_database, migrate_database
    from ludoteca.server.settings import check_database_url, default_database_url

    with operator_errors():
        url = check_database_url(database_url or default_database_url())
        check_database(url)
        migrate_database(url)
    out().print("The database schema is up to date.")


def recompute_ratings(
    game: Annotated[str, typer.Option(help="The game whose rating pools are rebuilt.")],
    pool: Annotated[
        str | None,
        typer.Option(help="One pool (all, bots, season:2026Q4); default: every pool of the "
                     "game."),
    ] = None,
    database_url: DatabaseUrl = None,
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
