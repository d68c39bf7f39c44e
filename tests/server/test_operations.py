"""What an operator relies on: the address printed at start, migrations on a new database,
and a graceful stop that finishes writing and tells every client to reconnect."""

from __future__ import annotations

import random
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
