"""Servers for the integration tests: ``ludoteca serve`` in a real process on a free port, on
SQLite and on PostgreSQL (a fresh database per test module).

PostgreSQL tests skip with a reason when 127.0.0.1:5432 is unreachable, except under
``LUDOTECA_REQUIRE_SERVICES=1`` (CI), where they fail instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from arena_process import ServerProcess

from tests.server.client import Player

PG_ADMIN = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"


class Server(ServerProcess):
    """One ``ludoteca serve`` process on a free port (tests/support/arena_process.py); the
    rate limits are 1000 a window unless a test sets its own."""

    def __init__(self, database_url: str, folder: Path, **env: str) -> None:
        super().__init__(database_url, folder, **{
            "LUDOTECA_AUTH_RATE": "1000", "LUDOTECA_CREATE_RATE": "1000", **env})


def _postgres_database() -> Iterator[str]:
    import psycopg

    name = "ludoteca_t_" + secrets.token_hex(4)
    try:
        admin = psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if REQUIRED:
            pytest.fail(f"PostgreSQL is required (LUDOTECA_REQUIRE_SERVICES=1): {exc}")
        pytest.skip(f"PostgreSQL unreachable at {PG_ADMIN}: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'arena.sqlite3'}"
    else:
        yield from _postgres_database()


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = Server(database_url, tmp_path_factory.mktemp("server"))
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def people(server: Server) -> Iterator[Callable[..., Player]]:
    """Make players on ``server`` (an account by name, else a guest); all closed at the end."""
    made: list[Player] = []

    def make(name: str | None = None, lang: str = "en", base: str | None = None) -> Player:
        player = Player(base or server.base, name, lang)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()
