"""Servers for the integration tests: ``ludoteca serve`` in a real process on a free port, on
SQLite and on PostgreSQL (a fresh database per test module).

PostgreSQL tests skip with a reason when 127.0.0.1:5432 is unreachable, except under
``LUDOTECA_REQUIRE_SERVICES=1`` (CI), where they fail instead.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.client import Player

PG_ADMIN = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``ludoteca serve`` process; ``kill`` (SIGKILL) and ``start`` again on the same
    database and port."""

    def __init__(self, database_url: str, folder: Path, **env: str) -> None:
        self.database_url = database_url
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "LUDOTECA_BOT_DELAY": "0", "LUDOTECA_BOT_PROCESSES": "1",
                    "LUDOTECA_AUTH_RATE": "1000", "LUDOTECA_CREATE_RATE": "1000", **env}
        self.process: subprocess.Popen[bytes] | None = None
        self.runs = 0

    def start(self) -> None:
        self.runs += 1
        with (self.folder / f"server-{self.port}-{self.runs}.log").open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ludoteca.cli", "serve", "--port", str(self.port),
                 "--database-url", self.database_url],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
            )
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log()}")

    def log(self) -> str:
        logs = sorted(self.folder.glob(f"server-{self.port}-*.log"))
        return "\n".join(p.read_text(errors="replace") for p in logs)[-4000:]

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                return self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return int(self.process.returncode)


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
