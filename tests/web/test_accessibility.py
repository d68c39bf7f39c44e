"""axe-core (from the npm registry, injected by the test) finds no serious or critical violation
on the lobby and on a table page of each game, mid-play, at desktop and phone width."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ludoteca.games import game_names, get_game
from tests.web.conftest import PHONE, axe_violations, dump
from tests.web.driver import open_table, sign_in_as_guest, take_turns

BOTS = {"buttons": ["greedy", "random"]}
"""The other seats' bots where a game is checked at more than its fewest players (three
Buttons boards); else greedy bots at the game's fewest players."""
GAMES = [(name, len(bots) + 1, bots) for name in game_names()
         for bots in [BOTS.get(name, ["greedy"] * (get_game(name).spec.min_players - 1))]]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_lobby_has_no_serious_violation(open_page: Any, axe_source: str, lang: str) -> None:
    page = open_page("/", lang=lang)
    assert axe_violations(page, axe_source) == []
    sign_in_as_guest(page)
    page.wait_for_selector('[data-testid="new-table"]')
    assert (found := axe_violations(page, axe_source)) == [], dump(found)
    page.set_viewport_size(PHONE)
    assert (found := axe_violations(page, axe_source)) == [], dump(found)


@pytest.mark.parametrize(("game", "players", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_a_table_page_has_no_serious_violation(
    open_page: Any, axe_source: str, game: str, players: int, bots: list[str]
) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    open_table(page, game, players, bots)
    rng = random.Random(7)
    take_turns(page, rng, 3)  # a few moves in, so boards, lines and hands hold something
    assert (found := axe_violations(page, axe_source)) == [], dump(found)
    page.set_viewport_size(PHONE)
    assert (found := axe_violations(page, axe_source)) == [], dump(found)
