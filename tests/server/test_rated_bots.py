"""Rating pools over real HTTP and WebSockets (SQLite and PostgreSQL), on an arena whose
operator named its own seasons and gave its own bot ladder (``LUDOTECA_SEASONS``,
``LUDOTECA_LADDER_DIR``): a person plays rated against a bot with a ladder rating, and only
their bots-pool rating moves; a rated match of people counts all-time and in the season;
the leaderboard shows each pool, and the seasons are listed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import httpx
import pytest

from ludoteca.bots import identity
from ludoteca.rating_scale import plus_minus, shown
from tests.server.client import Player, in_parallel
from tests.server.conftest import Server
from tests.server.test_lobby import play_out, refused

KAMI = {"game": "kami", "players": 2, "options": {"target": 10}}
RANDOM = {"level": "random", "identity": identity("random"), "mu": 18.0, "sigma": 1.0,
          "games": 600}


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    ladders = tmp_path_factory.mktemp("ladders")
    (ladders / "kami.json").write_text(json.dumps(
        {"game": "kami", "players": 2, "rungs": [RANDOM], "meta": {"games": 600}}))
    found = Server(database_url, tmp_path_factory.mktemp("server"),
                   LUDOTECA_LADDER_DIR=str(ladders), LUDOTECA_BOT_DELAY="0",
                   LUDOTECA_SEASONS="long-ago=2020-01-01,club-2025=2025-01-01")
    found.start()
    try:
        yield found
    finally:
        found.stop()


def board(server: Server, game: str, pool: str | None = None) -> dict[str, dict[str, object]]:
    query = "" if pool is None else f"?pool={pool}"
    rows = httpx.get(f"{server.base}/api/leaderboard/{game}{query}", timeout=30).json()
    return {r["name"]: r for r in rows}


def test_rated_against_a_bot_moves_only_the_persons_bots_rating(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people("Botpool_ana")
    table = ana.create(**KAMI, rated=True, bots=["random"])
    assert table["rated"] is True and table["status"] == "playing"
    final = play_out(ana, table["id"], 7)
    changes = final["result"]["ratings"]
    assert [c["seat"] for c in changes] == [0]  # the person's; the bot's never moves
    assert changes[0]["before"] == 1500 and changes[0]["delta"] == changes[0]["after"] - 1500
    mine = board(server, "kami", "bots")["Botpool_ana"]
    assert mine["games"] == 1 and mine["rating"] == changes[0]["after"]
    assert "Botpool_ana" not in board(server, "kami")  # never mixed into the people's pools
    assert "Botpool_ana" not in board(server, "kami", "season:club-2025")
    # a level the ladder does not list cannot be rated, said before play, in Spanish too
    es = people("Botpool_es", lang="es")
    message = refused(es.http.post("/api/tables", json={**KAMI, "rated": True,
                                                        "bots": ["greedy"]}), 400, "no_ladder")
    assert "greedy" in message and "puntuar" in message
    refused(es.http.post("/api/tables", json={"game": "kami", "players": 3, "rated": True,
                                              "bots": ["random", None]}), 400, "no_ladder")


def test_people_count_all_time_and_in_the_season(
    server: Server, people: Callable[..., Player]
) -> None:
    ana, ben = people("Season_ana"), people("Season_ben")
    table = ana.create(**KAMI, rated=True)
    ben.join(table["id"])
    in_parallel(lambda: play_out(ana, table["id"], 3), lambda: play_out(ben, table["id"], 4))
    everyone, season = board(server, "kami"), board(server, "kami", "season:club-2025")
    for name in ("Season_ana", "Season_ben"):
        row = everyone[name]
        assert season[name] == row and row["games"] == 1
        assert row["rating"] == shown(float(row["mu"]))  # type: ignore[arg-type]
        assert row["plus_minus"] == plus_minus(float(row["sigma"]))  # type: ignore[arg-type]
    assert board(server, "kami", "season:long-ago") == {}
    seasons = httpx.get(server.base + "/api/seasons/KAMI", timeout=30).json()
    assert seasons == [{"id": "club-2025", "pool": "season:club-2025",
                        "start": "2025-01-01T00:00:00+00:00", "end": None, "current": True}]
    es = people(lang="es")
    for bad in ("season:", "everyone", "season:two words"):
        message = refused(es.http.get("/api/leaderboard/kami", params={"pool": bad}),
                          400, "bad_pool")
        assert "temporadas" in message
    refused(es.http.get("/api/seasons/chess"), 404, "no_such_game")
