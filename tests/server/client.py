"""A small client of the arena for tests and benchmarks: HTTP with httpx, the table
WebSocket with websockets' synchronous client."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

JSON = dict[str, Any]
CLIENT = {"X-Ludoteca-Client": "tests"}
"""Programs name themselves on requests that change something (docs/protocol.md): a browser
sends ``Origin`` instead."""


class Player:
    """One person: an account (or a guest) with its session cookie."""

    def __init__(self, base: str, name: str | None = None, lang: str = "en",
                 password: str = "correct horse") -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=30,
                                 headers={"accept-language": lang, **CLIENT})
        if name is None:
            self.me = self.ok(self.http.post("/api/guest"))
        else:
            self.me = self.ok(self.http.post(
                "/api/signup", json={"name": name, "password": password, "language": lang}
            ))
        self.name = self.me["name"]
        self.sockets: list[Socket] = []

    @staticmethod
    def ok(response: httpx.Response) -> Any:
        assert response.status_code < 400, response.text
        return response.json()

    def create(self, game: str, players: int, **body: Any) -> JSON:
        table: JSON = self.ok(self.http.post("/api/tables", json={
            "game": game, "players": players, **body}))
        return table

    def join(self, table: str, **body: Any) -> JSON:
        found: JSON = self.ok(self.http.post(f"/api/tables/{table}/join", json=body))
        return found

    def socket(self, table: str, query: str = "", **headers: str) -> Socket:
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{table}{query}"
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        ws = connect(url, additional_headers={"cookie": cookie, **headers}, max_size=None,
                     open_timeout=30)
        sock = Socket(ws.__enter__())  # closed by Socket.close or Player.close
        self.sockets.append(sock)
        return sock

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.http.close()


class Socket:
    """A table WebSocket that remembers the newest state it was told."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.state: JSON = {}
        self.messages: list[JSON] = []
        self.raw: list[str] = []
        self.first = self.recv()

    def send(self, data: Any) -> None:
        self.ws.send(data if isinstance(data, str | bytes) else json.dumps(data))

    def recv(self, timeout: float = 30) -> JSON:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: JSON = json.loads(text)
        self.messages.append(message)
        if message["type"] in ("full", "update"):
            self.state = message
        return message

    def until(self, test: Callable[[JSON], bool], timeout: float = 60) -> JSON:
        end = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.1, end - time.monotonic()))
            if test(message):
                return message

    def error(self, timeout: float = 30) -> JSON:
        return self.until(lambda m: m["type"] == "error", timeout)

    def act(self, action: JSON, seq: int | None = None) -> None:
        self.send({"type": "act", "seq": self.state["seq"] if seq is None else seq,
                   "action": action})

    def play(self, rng: random.Random, timeout: float = 300) -> JSON:
        """Answer every decision of this seat with a random legal action until the end; the
        last state message."""
        end = time.monotonic() + timeout
        answered = -1
        while self.state.get("status") != "finished":
            legal = self.state.get("legal") or []
            if legal and self.state["seq"] != answered:
                answered = self.state["seq"]
                self.act(rng.choice(legal))
            message = self.recv(timeout=max(0.1, end - time.monotonic()))
            if message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(message)
        return self.state

    def close(self) -> None:
        self.ws.close()


def in_parallel(*jobs: Callable[[], Any], timeout: float = 300) -> list[Any]:
    """Run each job in its own thread; their results, or the first job's error raised here."""
    import threading

    results: list[Any] = [None] * len(jobs)
    errors: list[BaseException] = []

    def run(i: int, job: Callable[[], Any]) -> None:
        try:
            results[i] = job()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    if errors:
        raise errors[0]
    return results
