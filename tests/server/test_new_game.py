"""A new game is one folder and one line, over the arena too: the test game Nim
(``tests/fifth_game/nim``, outside Ludoteca) is added to a real ``ludoteca serve`` only by
``LUDOTECA_GAMES=nim`` with its folder on the Python path (tests/support/extra_games.py sets
both for the whole run, and the server and its bot processes inherit them). It is listed, opened
from the lobby with a bot, played to the end by two people over WebSockets, and its record and
replay are served and replay to the same result."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

from tests.server.client import JSON, Player, in_parallel
from tests.server.conftest import Server


def test_the_test_game_is_played_from_the_lobby_to_its_replay(
    server: Server, people: Callable[..., Player]
) -> None:
    assert "nim" in os.environ["LUDOTECA_GAMES"].split(",")  # the one line, for this run
    ana, ben = people(), people("ben_nim", lang="es")
    listed = next(g for g in ana.ok(ana.http.get("/api/games")) if g["name"] == "nim")
    assert (listed["min_players"], listed["max_players"]) == (2, 4), listed
    assert "greedy" in listed["bots"] and listed["web"] == "/static/games/nim/nim.js"
    assert listed["labels"]["es"]["stones"] == "Piedras"

    table = ana.create("nim", 3, options={"stones": 11}, bots=[None, "greedy"])
    assert table["status"] == "open" and table["options"]["stones"] == 11, table
    lobby = ana.ok(ana.http.get("/api/tables", params={"status": "open"}))
    assert table["id"] in [t["id"] for t in lobby]
    assert ben.join(table["id"])["status"] == "playing"

    def play(player: Player, seed: int) -> JSON:
        sock = player.socket(table["id"])
        try:
            return sock.play(random.Random(seed), timeout=120)
        finally:
            sock.close()

    finals = in_parallel(lambda: play(ana, 1), lambda: play(ben, 2))
    result = finals[0]["result"]
    assert sorted(result["scores"]) == [0, 0, 1] and result["ranks"].count(1) == 1, result
    theirs = finals[1]["result"]  # Ben reads Spanish: the same result, its parts in his words
    assert (theirs["scores"], theirs["ranks"]) == (result["scores"], result["ranks"])
    won = result["winners"][0]
    assert result["parts"][won][0]["text"] == "took the last stone"
    assert theirs["parts"][won][0]["text"] == "se llevó la última piedra"

    record = ana.ok(ana.http.get(f"/api/tables/{table['id']}/record"))
    assert record["game"] == "nim" and record["result"]["scores"] == result["scores"]
    total = len(record["actions"])
    assert 4 <= total <= 11 and any(seat == 2 for seat, _ in record["actions"])  # the bot moved
    end = ana.ok(ana.http.get(f"/api/tables/{table['id']}/replay", params={"at": total}))
    assert end["at"] == end["total"] == total and end["view"]["pile"] == 0
    start = ana.ok(ana.http.get(f"/api/tables/{table['id']}/replay", params={"at": 0}))
    assert start["view"]["pile"] == 11 and start["view"]["game"] == "nim"

    from ludoteca.engine.match import Match  # the record alone replays to the same result
    from ludoteca.engine.record import MatchRecord
    from ludoteca.games import get_game

    replayed = Match.from_record(get_game("nim"), MatchRecord.from_json(record))
    assert replayed.outcome is not None and list(replayed.outcome.scores) == result["scores"]
