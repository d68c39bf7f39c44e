"""The Queendomino buildings' words on the wire (issue 24): a Spanish player's table socket
carries each building's name and the board's effects said in Spanish (``text``), so the table
page shows them without knowing a rule (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

from ludoteca.games import get_game
from ludoteca.games.queendomino.buildings import TABLES
from tests.server.client import Player
from tests.server.conftest import Server


def test_the_view_on_the_wire_says_the_buildings(
    server: Server, people: Callable[..., Player]
) -> None:
    ana = people("Edificios", lang="es")
    table = ana.create("queendomino", 2, options={"buildings": "verified"}, bots=["random"])
    sock = ana.socket(table["id"])
    view = sock.first["view"]
    voice = get_game("queendomino").voice("es")
    board = [space["building"] for space in view["board"] if space["building"]]
    assert board
    for building in board:
        tile = TABLES["verified"][building["id"] - 1]
        assert building["title"]["text"] == voice.t(tile.name)
        assert building["effect"]["text"].startswith(("Al ", "Añade ", "Con ", "Una "))
        assert "inferred" not in building["effect"]["text"]
    sock.close()
