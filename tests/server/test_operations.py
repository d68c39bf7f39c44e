"""What an operator relies on: the address printed at start, migrations on a new database,
and a graceful stop that finishes writing and tells every client to reconnect."""

from __future__ import annotations

import random
import signal
from pathlib import Path

from tests.server.client import Player
from tests.server.conftest import Server


def test_sigterm_tells_clients_to_reconnect_and_loses_nothing(
    database_url: str, tmp_path: Path
) -> None:
    server = Server(database_url, tmp_path)
    server.start()
    ana = Player(server.base)
    try:
        table = ana.create("buttons", 2, bots=["greedy"])
        sock = ana.socket(table["id"])
        rng = random.Random(4)
        for _ in range(3):
            state = sock.state if sock.state.get("legal") else sock.until(
                lambda m: m["type"] in ("full", "update") and bool(m.get("legal")))
            seq = state["seq"]
            sock.act(rng.choice(state["legal"]))
            sock.until(lambda m, s=seq: m["type"] == "update" and m["seq"] > s)
        told = sock.state["seq"]
        # uvicorn re-raises the SIGTERM it caught once it has shut down cleanly
        assert server.stop() in (0, -15)
        bye = sock.until(lambda m: m["type"] == "reconnect", 20)
        assert bye["message"]
        assert "open http://localhost:" in server.log()
        assert '"message": "arena stopped"' in server.log()
        server.start()
        again = ana.socket(table["id"])
        assert again.first["seq"] >= told
        final = again.play(rng)
        assert final["status"] == "finished"
    finally:
        ana.close()
        server.stop()


def test_sigterm_ends_every_event_stream_with_reconnect(tmp_path: Path) -> None:
    """A stream opened just before SIGTERM used to end after its opening lines with no
    ``reconnect`` (its loop saw the hub closing first): every stream ends with ``reconnect``.
    Several rounds, since it is a race (it lost in most rounds before the fix)."""
    server = Server(f"sqlite:///{tmp_path / 'arena.sqlite3'}", tmp_path)
    server.start()
    ana = Player(server.base, "Streamer")
    try:
        for i in range(3):
            with ana.http.stream("GET", "/api/events") as response:
                lines = response.iter_lines()
                assert next(lines) == ": ludoteca"  # open, signed in: the rest is to come
                assert server.process is not None
                server.process.send_signal(signal.SIGTERM)
                kinds = [line.split(":", 1)[1].strip() for line in lines
                         if line.startswith("event:")]
            assert kinds[-1:] == ["reconnect"], kinds
            assert server.process.wait(20) in (0, -15)
            if i < 2:
                server.start()
    finally:
        ana.close()
        server.stop()
