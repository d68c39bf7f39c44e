"""Each registered game (the test game Nim too), played to the end in Chromium by clicks only
against bots: the score the end screen shows is the engine's outcome of the server's record
(DESIGN.md §4, issue 14). Screenshots of each game mid-play and at its end, desktop and phone,
go to test-artifacts/; the end screen passes axe-core too."""

from __future__ import annotations

from typing import Any

import pytest

from ludoteca.games import game_names, get_game
from tests.web.conftest import axe_violations, dump, shoot
from tests.web.driver import engine_outcome, open_table, play_to_end, shown_scores, sign_in_as_guest

CHOSEN: dict[str, tuple[int, list[str], dict[str, Any], int]] = {
    # players, bot levels of the other seats, options set in the form, screenshot turn
    "kingdomino": (2, ["greedy"], {}, 8),
    "queendomino": (2, ["random"], {}, 8),
    "buttons": (2, ["greedy"], {}, 6),
    "kami": (2, ["greedy"], {}, 4),
    "goita": (4, ["greedy", "random", "greedy"], {}, 3),
}
"""Tables chosen per game; any other registered game (the test game) at its fewest players
against greedy bots, its screenshot at turn 2."""


def _table(name: str) -> tuple[int, list[str], dict[str, Any], int]:
    players = get_game(name).spec.min_players
    return CHOSEN.get(name, (players, ["greedy"] * (players - 1), {}, 2))


GAMES = [(name, *_table(name)) for name in game_names()]


@pytest.mark.parametrize(("game", "players", "bots", "options", "mid"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_person_plays_a_whole_game_by_clicks(
    open_page: Any, axe_source: str, game: str, players: int, bots: list[str],
    options: dict[str, Any], mid: int,
) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    table = open_table(page, game, players, bots, options)

    def on_turn(turn: int) -> None:
        if turn == mid:
            shoot(page, f"{game}-mid")

    actions = play_to_end(page, seed=players * 1000 + len(game), on_turn=on_turn)
    assert actions > mid
    page.get_by_test_id("result").scroll_into_view_if_needed()
    shoot(page, f"{game}-end")
    outcome = engine_outcome(page, table)
    assert shown_scores(page, players) == outcome["scores"]
    winners = page.locator('[data-testid="result"] .winners').inner_text()
    names = [page.get_by_test_id(f"seat-{s}").locator(".seat-name").inner_text()
             for s in outcome["winners"]]
    assert all(name in winners for name in names), (winners, names)
    assert (found := axe_violations(page, axe_source)) == [], dump(found)  # the end screen too
