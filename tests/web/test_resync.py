"""Messages lost on the way to the page (DESIGN.md §3, issue 14): the browser's own socket is
routed through Playwright, which drops chosen server messages. A page that sees a gap in ``seq``
asks for the whole state and shows what a fresh load shows; a page left behind (a second tab
that lost an update) whose click the server refuses as stale says so in the player's language,
changes nothing and catches up; and a double click sends one action and says nothing, in
every game."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from ludoteca.games import game_names, get_game
from tests.web.driver import (
    ACTIONS,
    ROOT,
    SELECTORS,
    engine_outcome,
    open_table,
    play_to_end,
    reload_and_wait,
    shown,
    shown_scores,
    sign_in_as_guest,
    take_turn,
    visible,
    wait_for_turn_or_end,
    wait_past,
)
from tests.web.test_table import SNAPSHOT


class Tap:
    """Sits on the page's table socket: records what the page sends and drops the first server
    ``update`` that ``drop`` accepts once armed."""

    def __init__(self, page: Any, drop: Any) -> None:
        self.drop = drop
        self.armed = False
        self.dropped: list[int] = []
        self.sent: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if (self.armed and not self.dropped and data.get("type") == "update"
                    and self.drop(data)):
                self.dropped.append(data["seq"])
                return
            ws.send(message)

        def from_page(message: str | bytes) -> None:
            self.sent.append(json.loads(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_page)

    def syncs(self) -> int:
        return sum(1 for m in self.sent if m.get("type") == "sync")


def test_a_gap_in_seq_is_noticed_and_the_page_resyncs(open_page: Any) -> None:
    page = open_page("/")
    # The bot's placement, after which the bot still has to claim: the claim's update then
    # arrives one number too far.
    tap = Tap(page, lambda m: m["seat"] == 1 and m["to_act"] == [1])
    sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, ["greedy"])
    rng = random.Random(3)
    tap.armed = True
    while not tap.dropped:
        wait_for_turn_or_end(page)
        take_turn(page, rng)
    page.wait_for_function(
        f"() => Number(document.querySelector('{ROOT}').dataset.seq) > {tap.dropped[0]}")
    assert tap.syncs() == 1
    wait_for_turn_or_end(page)
    resynced = page.evaluate(SNAPSHOT)
    reload_and_wait(page)
    assert page.evaluate(SNAPSHOT)["game"] == resynced["game"]
    play_to_end(page, seed=6)
    assert shown_scores(page, 2) == engine_outcome(page, table)["scores"]


def test_a_stale_click_gets_the_servers_answer_in_spanish_and_changes_nothing(
    open_page: Any,
) -> None:
    page = open_page("/", lang="es")
    sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, ["greedy"])
    rng = random.Random(8)
    wait_for_turn_or_end(page)
    while page.locator('[data-testid="my-kingdom"] [data-target="1"]').count() == 0:
        take_turn(page, rng)
        wait_for_turn_or_end(page)
    seq = shown(page)["seq"]
    # The same person's second tab loses the update of the placement the first tab makes, so
    # it is left on a decision that is over.
    behind = page.context.new_page()
    tap = Tap(behind, lambda m: m["seat"] == 0 and m["to_act"] == [0])
    behind.goto(page.url)
    behind.wait_for_selector(f'{ROOT}[data-seq="{seq}"]')
    behind.wait_for_selector('[data-testid="my-kingdom"] [data-target="1"]')
    tap.armed = True
    place(page)
    wait_past(page, seq)
    for _ in range(100):  # the tab's copy of that update is dropped on its way
        if tap.dropped:
            break
        behind.wait_for_timeout(50)
    place(behind)
    toast = behind.get_by_test_id("toast-error")
    toast.wait_for()
    assert tap.dropped == [int(seq) + 1]
    text = toast.inner_text()
    assert "obsolet" in text, text  # "El número de jugada N está obsoleto: …"
    # The refusal made the tab ask for the server's state: the placement was made once.
    wait_past(behind, seq)
    assert shown(behind)["seq"] == shown(page)["seq"] == str(int(seq) + 1)
    assert tap.syncs() >= 1
    behind.close()
    play_to_end(page, seed=9)
    assert shown_scores(page, 2) == engine_outcome(page, table)["scores"]


def place(page: Any) -> None:
    """Pick the first highlighted square of the kingdom and confirm the placement there."""
    page.locator('[data-testid="my-kingdom"] [data-target="1"]').first.click()
    page.get_by_test_id("confirm").click()


DOUBLE_CLICKS = [(name, n, ["greedy", "random", "greedy"][:n - 1]) for name in game_names()
                 for n in [get_game(name).spec.min_players]]
"""Every registered game at its fewest players (the test game too)."""


def double_click_an_action(page: Any) -> None:
    """Double-click what sends an action now: an action element, or, where a choice is made in
    steps (a Kingdomino square, a Kami card with several plays), the last step's control after
    a single click on the first step."""
    page.wait_for_selector(f"{ACTIONS}, {SELECTORS}")
    if not visible(page, ACTIONS):
        visible(page, SELECTORS)[0].click()
        page.wait_for_selector(ACTIONS)
    confirm = page.get_by_test_id("confirm")
    if confirm.count() and confirm.is_visible():
        confirm.dblclick()
    else:
        visible(page, ACTIONS)[0].dblclick()


@pytest.mark.parametrize(("game", "players", "bots"), DOUBLE_CLICKS,
                         ids=[g[0] for g in DOUBLE_CLICKS])
def test_a_double_click_sends_one_action_and_says_nothing(
    open_page: Any, game: str, players: int, bots: list[str]
) -> None:
    page = open_page("/", lang="es")
    tap = Tap(page, lambda m: False)
    sign_in_as_guest(page)
    checked = 0
    for _ in range(3):  # a Goita deal may end the match before anyone moves: another table
        open_table(page, game, players, bots)
        wait_for_turn_or_end(page)
        while checked < 3 and shown(page)["status"] != "finished":
            seq = shown(page)["seq"]
            acts = len([m for m in tap.sent if m.get("type") == "act"])
            double_click_an_action(page)
            wait_past(page, seq)
            page.wait_for_timeout(300)  # a second action would have been answered by now
            assert len([m for m in tap.sent if m.get("type") == "act"]) == acts + 1
            assert not page.get_by_test_id("toast-error").is_visible()
            checked += 1
            wait_for_turn_or_end(page)
        if checked == 3:
            break
        page.goto("/")
        page.get_by_test_id("new-game").wait_for()
    assert checked == 3
