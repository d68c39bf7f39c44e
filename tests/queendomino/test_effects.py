"""Each building says what it does (issue 24): its name and one sentence read off the tile's
numbers in the match's building table, the tax bonus as the ``tax_bonus`` option pays it, in
English and Spanish; the view carries both on every building shown."""

from __future__ import annotations

import random

import pytest

from ludoteca.engine.match import Match
from ludoteca.engine.parts import render_parts
from ludoteca.games import get_game
from ludoteca.games.queendomino.buildings import TABLES
from ludoteca.games.queendomino.effects import building_json

GAME = get_game("queendomino")


def said(tile_id: int, table: str = "inferred", lang: str = "en", per_turn: bool = False
         ) -> tuple[str, str]:
    words = render_parts(building_json(TABLES[table][tile_id - 1], per_turn), GAME.voice(lang))
    return words["title"]["text"], words["effect"]["text"]


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_tile_of_every_table_is_said(table: str, lang: str) -> None:
    voice = GAME.voice(lang)
    for tile in TABLES[table]:
        for per_turn in (False, True):
            words = render_parts(building_json(tile, per_turn), voice)
            for record in (words["title"], words["effect"]):
                assert record["text"] and "{" not in record["text"], (tile, record)
            assert words["inferred"] is bool(tile.inferred)  # the data stays, for tools
    assert voice.catalog.missing == set()


def test_the_sentence_is_the_tiles_numbers() -> None:
    assert said(1) == ("Bakery", "At the end: 2 points per wheat territory.")
    assert said(1, lang="es") == ("Panadería", "Al final: 2 puntos por cada territorio de trigo.")
    assert said(9) == ("Magic School", "When built: 1 knight and 1 tower. At the end: 2 points "
                       "per swamp territory.")
    assert said(22, lang="es")[1] == "Al construirlo: 3 caballeros. Al final: 2 puntos."
    assert said(28) == ("Travelling Castle",
                        "When built: 1 tower. At the end: 1 point per tower you have.")
    assert said(30, lang="es") == (
        "Torre de la Reina",
        "Al construirlo: 1 torre. Añade 1 corona al territorio en el que está.")
    # the verified table gives the Queen's Tower no tower: the sentence follows the table
    assert said(30, table="verified")[1] == "Adds 1 crown to the territory it stands in."


def test_the_tax_bonus_is_said_as_the_option_pays_it() -> None:
    assert said(24)[1] == ("When built: 1 knight. With each knight's tax: +1 coin per knight you "
                           "have. At the end: 2 points.")
    assert said(24, per_turn=True)[1] == (
        "When built: 1 knight. Once per turn in which you collect tax: +1 coin per knight you "
        "have. At the end: 2 points.")
    assert "+1 moneda por cada torre" in said(23, lang="es")[1]


def test_the_view_carries_the_words_of_the_buildings_shown() -> None:
    """Every building shown has its name in words; the board's, where players choose, also
    their effect (as the table's tax option pays it)."""
    match = Match.new(GAME, {"tax_bonus": "per_turn"}, 2, 3, narrate=False)
    rng = random.Random(3)
    voice = GAME.voice("es")
    while not match.is_over() and not any(match.view(0)["kingdoms"][s]["buildings"]
                                          for s in range(2)):
        seat = min(match.to_act())
        match.step(seat, rng.choice(match.legal(seat)))
    view = render_parts(match.view(0), voice)
    board = [b["building"] for b in view["board"] if b["building"]]
    built = [b for k in view["kingdoms"] for b in k["buildings"]]
    assert board and built
    for building in [*board, *built, *view["burnt"]]:
        tile = TABLES["inferred"][building["id"] - 1]
        assert building["title"]["text"] == voice.t(tile.name)
    for building in board:
        assert building["effect"]["text"] == said(building["id"], lang="es", per_turn=True)[1]
