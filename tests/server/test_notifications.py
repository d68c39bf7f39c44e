"""Notifications over real HTTP: the ``/api/events`` server-sent event stream (lobby changes
for everyone; turns at turn-based tables for their player) and turn webhooks, received by a
real HTTP server in the test (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import queue
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.server.client import CLIENT, JSON, Player, Socket
from tests.server.conftest import Server


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The suite's server, whose webhooks may reach this test's own receiver on 127.0.0.1
    (a test-only setting: webhooks go to public addresses only, tests/security)."""
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_WEBHOOK_TEST_NETWORKS="127.0.0.1/32")
    found.start()
    try:
        yield found
    finally:
        found.stop()


TIMEOUT = httpx.Timeout(10, read=30)
"""The stream sends a keep-alive every 15 s, so a read waits at most that long for nothing."""


class Events:
    """One open ``/api/events`` stream, read line by line in the test's own thread (the
    server queues what it publishes, so nothing is lost between reads)."""

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines = lines
        self.seen: list[tuple[str, JSON]] = []

    def next(self) -> tuple[str, JSON]:
        kind, data = "message", ""
        for line in self.lines:
            if line.startswith(":"):
                continue
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                data += line.split(":", 1)[1].strip()
            elif line == "" and data:
                event = (kind, json.loads(data))
                self.seen.append(event)
                return event
        raise AssertionError(f"the stream ended; it said {self.seen}")

    def until(self, test: Callable[[str, JSON], bool]) -> JSON:
        while True:
            kind, data = self.next()
            if test(kind, data):
                return data


@contextmanager
def events(http: httpx.Client) -> Iterator[Events]:
    with http.stream("GET", "/api/events", timeout=TIMEOUT) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = response.iter_lines()
        assert next(lines) == ": ludoteca"  # subscribed: from here on nothing is missed
        yield Events(lines)


class Hooks:
    """A tiny webhook receiver: every POST body it gets, in order."""

    def __init__(self) -> None:
        received: queue.Queue[tuple[str, JSON]] = queue.Queue()
        self.received = received

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size))
                received.put((self.path, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def next(self, timeout: float = 30) -> tuple[str, JSON]:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()
        self.thread.join(10)


def test_lobby_events_for_everyone(server: Server, people: Callable[..., Player]) -> None:
    host = people("Lobbyist")
    with httpx.Client(base_url=server.base, headers=CLIENT) as anyone, events(anyone) as watching:
        hidden = host.create("kingdomino", 2, private=True)
        shown = host.create("kingdomino", 2)
        data = watching.until(lambda kind, _: kind == "lobby")
        # the private table was never announced: the first lobby event is the public one's
        assert data["table"]["id"] == shown["id"] and data["table"]["status"] == "open"
        assert "invite" not in data["table"]
        host.ok(host.http.post(f"/api/tables/{shown['id']}/bots", json={"level": "random"}))
        data = watching.until(lambda kind, _: kind == "lobby")
        assert data["table"]["id"] == shown["id"] and data["table"]["status"] == "playing"
        assert hidden["id"] not in {d["table"]["id"] for _, d in watching.seen}


def my_move(sock: Socket, timeout: float = 30) -> JSON:
    """Wait until this seat has a decision; the state then."""
    if sock.state.get("legal"):
        return sock.state
    return sock.until(lambda m: m["type"] in ("full", "update") and bool(m.get("legal")),
                      timeout)


def after_move(seq: int) -> Callable[[JSON], bool]:
    return lambda m: m["type"] == "update" and m["seq"] > seq


def test_turns_reach_the_stream_and_the_webhook(
    server: Server, people: Callable[..., Player]
) -> None:
    """At a turn-based table each player hears when a decision of theirs begins, on their own
    stream (and no one else's) and at their webhook, with the move number to answer."""
    ana, ben = people("Turn_ana"), people("Turn_ben")
    hooks = Hooks()
    try:
        with events(ana.http) as ana_events, events(ben.http) as ben_events:
            table = ana.create("kami", 2, options={"target": 10}, mode="turn", turn_hours=24)
            tid = table["id"]
            assert table["mode"] == "turn" and table["turn_hours"] == 24
            lobby = ben_events.until(lambda kind, _: kind == "lobby")
            assert lobby["table"]["id"] == tid
            # set after the table exists: the table must pick the new address up
            changed = ana.ok(ana.http.patch("/api/me", json={"webhook_url": hooks.url + "/a"}))
            assert changed["webhook_url"] == hooks.url + "/a"
            ben.ok(ben.http.patch("/api/me", json={"webhook_url": hooks.url + "/b"}))
            assert ben.join(tid)["status"] == "playing"

            socks = {0: ana.socket(tid), 1: ben.socket(tid)}
            streams = {0: ana_events, 1: ben_events}
            paths = {0: "/a", 1: "/b"}
            first = socks[0].state
            assert first["status"] == "playing" and first["to_act"]
            (seat,) = first["to_act"]
            turn = streams[seat].until(lambda kind, _: kind == "turn")
            assert turn == {"type": "turn", "table": tid, "game": "kami", "seq": first["seq"]}
            assert hooks.next() == (paths[seat], turn)

            # play until the turn changes hands; the other player hears of it
            moves = 0
            while True:
                state = my_move(socks[seat])
                socks[seat].act(state["legal"][moves % len(state["legal"])])
                moves += 1
                after = socks[seat].until(after_move(state["seq"]))
                if after["to_act"] != [seat]:
                    break
            (other,) = after["to_act"]
            turn = streams[other].until(lambda kind, _: kind == "turn")
            assert turn == {"type": "turn", "table": tid, "game": "kami", "seq": after["seq"]}
            # (a seat that moves twice in a row begins a new decision each time)
            path, body = hooks.next()
            while path == paths[seat]:
                assert body["table"] == tid and body["seq"] < after["seq"]
                path, body = hooks.next()
            assert (path, body) == (paths[other], turn)
            # nobody heard of a turn that was not theirs
            assert [d for kind, d in streams[other].seen if kind == "turn"] == [turn]
            for kind, data in streams[seat].seen:
                if kind == "turn":
                    assert data["table"] == tid and data["seq"] < after["seq"]
            for sock in socks.values():
                sock.close()
        cleared = ana.ok(ana.http.patch("/api/me", json={"webhook_url": ""}))
        assert cleared["webhook_url"] is None
    finally:
        hooks.close()


def test_live_tables_send_no_turns(server: Server, people: Callable[..., Player]) -> None:
    """Live tables are watched on their socket: turns are for turn-based play only, while the
    match's end reaches the stream either way."""
    eve = people("Live_eve")
    with events(eve.http) as stream:
        table = eve.create("kami", 2, options={"target": 10}, bots=["random"])
        sock = eve.socket(table["id"])
        sock.play(random.Random(5))
        sock.close()
        done = stream.until(lambda kind, _: kind == "finished")
        assert done == {"type": "finished", "table": table["id"]}
        assert not [d for kind, d in stream.seen if kind == "turn"]
