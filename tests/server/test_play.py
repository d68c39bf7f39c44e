"""Whole matches through a real server: people over WebSockets, bots in the server's pool."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import httpx

from ludoteca.games import game_names, get_game
from tests.server.client import JSON, Player, in_parallel
from tests.server.conftest import Server


def test_two_players_and_a_bot_finish_kingdomino(
    server: Server, people: Callable[..., Player]
) -> None:
    """Two people (on their own sockets, in parallel) and a bot play Kingdomino to the end;
    everyone is told the same final result, which the stored record replays to."""
    ana, ben = people("ana_k3"), people("ben_k3")
    table = ana.create("kingdomino", 3, bots=[None, "greedy"])
    assert table["status"] == "open"
    table = ben.join(table["id"])
    assert table["status"] == "playing"

    def play(player: Player, seed: int) -> JSON:
        sock = player.socket(table["id"])
        try:
            return sock.play(random.Random(seed))
        finally:
            sock.close()

    finals = in_parallel(lambda: play(ana, 1), lambda: play(ben, 2))
    results = [f["result"] for f in finals]
    assert results[0] == results[1] and results[0]["scores"]
    record = ana.ok(ana.http.get(f"/api/tables/{table['id']}/record"))
    assert record["game"] == "kingdomino" and record["result"]["scores"] == results[0]["scores"]
    seats = {s["seat"]: s for s in ana.ok(ana.http.get(f"/api/tables/{table['id']}"))["seats"]}
    assert seats[2]["bot"] == "greedy"
    history = ana.ok(ana.http.get("/api/users/ana_k3"))["matches"]
    assert [m["id"] for m in history] == [table["id"]]


PLAYERS = {"buttons": 3, "kami": 4}
"""Tables larger than a game's fewest players: three Buttons boards, Kami's partnerships."""


def test_every_other_game_finishes_with_bots(
    server: Server, people: Callable[..., Player]
) -> None:
    """Every registered game but Kingdomino (above), the test game too (tests/conftest.py)."""
    for game in game_names():
        if game == "kingdomino":
            continue
        players = PLAYERS.get(game, get_game(game).spec.min_players)
        person = people()
        table = person.create(game, players, bots=["greedy"] * (players - 1))
        assert table["status"] == "playing", table
        sock = person.socket(table["id"])
        final = sock.play(random.Random(7))
        assert final["result"]["scores"], game
        sock.close()
        replay = person.ok(person.http.get(f"/api/tables/{table['id']}/replay",
                                           params={"at": 3}))
        assert replay["at"] == 3 and replay["view"]


def test_healthz_and_metrics(server: Server, people: Callable[..., Player]) -> None:
    health = httpx.get(server.base + "/healthz").json()
    assert health["ok"] is True
    text = httpx.get(server.base + "/metrics").text
    assert "ludoteca_actions_total" in text and "ludoteca_connected_clients" in text

    def open_tables() -> float:
        text = httpx.get(server.base + "/metrics").text
        line = next(x for x in text.splitlines() if x.startswith('ludoteca_tables{status="open"}'))
        return float(line.split()[-1])

    before = open_tables()
    people().create("kingdomino", 2)  # counted when the metrics are read
    assert open_tables() == before + 1


def test_the_served_arena_collects_cycles_by_the_clock(server: Server) -> None:
    """``ludoteca serve`` runs the cycle collector from its event loop every 0.1 s
    (cycle_collector.py): young collections show in the metrics at about that pace."""
    def young() -> float:
        text = httpx.get(server.base + "/metrics").text
        prefix = 'ludoteca_cycle_collection_seconds_count{generation="0"}'
        return float(next(x for x in text.splitlines() if x.startswith(prefix)).split()[-1])

    first = young()
    time.sleep(1.0)
    assert 5 <= young() - first <= 15


def test_the_browser_client_is_served(server: Server) -> None:
    page = httpx.get(server.base + "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module"' in page.text and "/static/app.js" in page.text
    script = httpx.get(server.base + "/static/app.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    missing = httpx.get(server.base + "/static/nothing.js")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
