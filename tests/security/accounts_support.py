"""What the accounts and lobby-hygiene attacks share: a fresh database per module on SQLite
and PostgreSQL (the servers' own fixture, ``tests/server/conftest.py``), servers started with a
test's own settings, typed refusals, and a quick whole match."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.client import CLIENT, JSON, Player
from tests.server.conftest import Server, _postgres_database

PASSWORD = "correct horse"
QUICK: dict[str, Any] = {"game": "kami", "players": 2, "options": {"target": 10}}
"""The quickest whole match: 2-player Kami to 10 points."""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def arena_database(request: pytest.FixtureRequest,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'arena.sqlite3'}"
    else:
        yield from _postgres_database()


def started(database_url: str, folder: Path, **env: str) -> Server:
    server = Server(database_url, folder, **env)
    server.start()
    return server


def refused(response: httpx.Response, status: int, code: str) -> str:
    """The typed error's message, after checking its status, code and shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return str(body["message"])


def token_of(response: httpx.Response) -> str:
    """The session token a sign-in answer set."""
    token = response.cookies.get("ludoteca_session")
    assert token, response.headers
    return str(token)


def as_token(base: str, token: str) -> httpx.Client:
    """A client holding only this session token, as an attacker who copied it would."""
    client = httpx.Client(base_url=base, headers=CLIENT, timeout=30)
    client.cookies.set("ludoteca_session", token)
    return client


def holding(base: str, token: str) -> Player:
    """A ``Player`` that holds a copied session token (it signs nobody up), for its table
    sockets."""
    player = Player.__new__(Player)
    player.base, player.sockets, player.http = base, [], as_token(base, token)
    return player


def me_with(base: str, token: str) -> httpx.Response:
    with as_token(base, token) as client:
        return client.get("/api/me")


def play_out(player: Player, table: str, seed: int) -> JSON:
    sock = player.socket(table)
    try:
        return sock.play(random.Random(seed))
    finally:
        sock.close()


class EventStream:
    """A player's ``/api/events`` read in a thread: the events it got."""

    def __init__(self, base: str, token: str) -> None:
        self.events: list[JSON] = []
        self._client = httpx.Client(base_url=base, headers=CLIENT,
                                    timeout=httpx.Timeout(30, read=60))
        self._client.cookies.set("ludoteca_session", token)
        self._opened = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        assert self._opened.wait(30)

    def _read(self) -> None:
        try:
            with self._client.stream("GET", "/api/events") as response:
                self._opened.set()
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        self.events.append(json.loads(line[6:]))
        except httpx.HTTPError:
            return

    def close(self) -> None:
        self._client.close()

    def ended(self, timeout: float = 30) -> bool:
        """The server closed the stream (within ``timeout`` seconds)."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


People = Callable[..., Player]


@pytest.fixture(scope="module")
def server(arena_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    found = started(arena_database, tmp_path_factory.mktemp("server"))
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture
def people(server: Server) -> Iterator[People]:
    """Make players on ``server`` (an account by name, else a guest; another process's
    ``base``); all closed at the end."""
    made: list[Player] = []

    def make(name: str | None = None, lang: str = "en", base: str | None = None) -> Player:
        player = Player(base or server.base, name, lang)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()
