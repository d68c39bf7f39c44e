"""Messages lost on the way to the page (DESIGN.md §3, issue 14): the browser's own socket is
routed through Playwright, which drops chosen server messages. A page that sees a gap in ``seq``
asks for the whole state and shows what a fresh load shows; a page left behind whose click the
server refuses as stale says so in the player's language, changes nothing and catches up."""

from __future__ import annotations

import json
import random
import re
from typing import Any

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
    # The page's own placement: it stays on the placement it already sent.
    tap = Tap(page, lambda m: m["seat"] == 0 and m["to_act"] == [0])
    sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, ["greedy"])
    rng = random.Random(8)
    wait_for_turn_or_end(page)
    while page.locator('[data-testid="my-kingdom"] [data-target="1"]').count() == 0:
        take_turn(page, rng)
        wait_for_turn_or_end(page)
    seq = shown(page)["seq"]
    tap.armed = True
    toast = page.get_by_test_id("toast-error")
    acts = 0
    while not toast.is_visible():  # the same placement, until the server refuses a repeat
        assert acts < 5, "the server never refused the repeated placement"
        actions = visible(page, ACTIONS)
        if actions:
            actions[0].click()
            acts += 1
            page.wait_for_timeout(300)
        else:
            visible(page, SELECTORS)[0].click()
    assert tap.dropped == [int(seq) + 1]
    text = toast.inner_text()
    assert "obsolet" in text, text  # "El número de jugada N está obsoleto: …"
    # The refusal made the page ask for the server's state: the placement was made once.
    wait_past(page, seq)
    assert shown(page)["seq"] == str(int(seq) + 1)
    assert tap.syncs() >= 1
    play_to_end(page, seed=9)
    assert shown_scores(page, 2) == engine_outcome(page, table)["scores"]
