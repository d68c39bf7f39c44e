"""The whole social flow of issue 36 in Chromium, between two accounts: Ana (English, desktop)
and Bea (Spanish, phone width). Ana follows Bea and sees her online on her friends list,
challenges her to a rated Kingdomino match; Bea hears of it, accepts from her own page, and
the two play the match to its end by clicks. Ana's own page then draws the rating chart of
that match. Ana blocks Bea, and Bea's new challenge is refused: the typed error (``blocked``)
is said in Bea's page, in Spanish, and no challenge is made."""

from __future__ import annotations

import random
from typing import Any

from tests.web.conftest import DESKTOP, PHONE
from tests.web.driver import shown
from tests.web.test_challenge import no_sideways_scroll, sign_up
from tests.web.test_end import both_playing, play_turns
from tests.web.test_spanish import untranslated

REFUSED = "console: Failed to load resource: the server responded with a status of 403 (Forbidden)"


def player_page(page: Any, name: str) -> None:
    page.goto(page.url.split("#")[0] + f"#/player/{name}")
    page.get_by_test_id("player-name").wait_for()


def test_follow_online_challenge_play_chart_and_block(open_page: Any, console: Any) -> None:
    bea, bea_name = sign_up(open_page, "es", PHONE)
    ana, ana_name = sign_up(open_page, "en", DESKTOP)

    # follow, and see the friend online (Bea's page is open: her event stream)
    player_page(ana, bea_name)
    ana.get_by_test_id("follow").click()
    ana.wait_for_function(
        """() => document.querySelector('[data-testid="follow"]')?.textContent === 'Unfollow'""")
    player_page(ana, ana_name)
    friend = ana.get_by_test_id(f"friend-{bea_name}")
    friend.wait_for()
    assert friend.locator(".dot.on").count() == 1
    assert friend.locator(".sr-only").inner_text() == "online"

    # challenge, rated; Bea answers from her own page
    player_page(ana, bea_name)
    ana.get_by_test_id("challenge-game").select_option("kingdomino")
    ana.get_by_test_id("challenge-rated").check()
    ana.get_by_test_id("challenge").click()
    ana.wait_for_url("**/#/table/*")
    table = ana.url.rsplit("/", 1)[1]
    bea.get_by_test_id("challenge-toast").click()
    bea.wait_for_url(f"**/#/player/{bea_name}")
    bea.get_by_test_id("challenges").wait_for()
    assert untranslated(bea) == []
    bea.locator('[data-testid="challenges"] [data-testid="accept"]').click()
    bea.wait_for_url(f"**/#/table/{table}")

    # the match, played by clicks to its end
    both_playing(ana, bea)
    play_turns([ana, bea], random.Random(36), lambda: shown(ana)["status"] == "finished")
    for page in (ana, bea):
        page.wait_for_selector('[data-testid="result"]')
    no_sideways_scroll(bea)
    assert untranslated(bea) == []
    record = ana.evaluate(f"() => fetch('/api/tables/{table}').then((r) => r.json())")
    assert record["status"] == "finished" and record["rated"] is True

    # Ana's own page: the rating chart of the rated match, its line through its one point
    player_page(ana, ana_name)
    chart = ana.locator('[data-testid="stats-kingdomino"] [data-testid="rating-chart"]')
    chart.wait_for()
    points = chart.locator("polyline").get_attribute("points")
    assert points is not None and len(points.split()) == 1
    assert chart.locator("circle").count() == 1
    user = ana.evaluate(f"() => fetch('/api/users/{ana_name}').then((r) => r.json())")
    [[_, after]] = next(s for s in user["stats"] if s["game"] == "kingdomino")["rating"]
    assert (chart.locator("circle title").text_content() or "").endswith(f": {after}")
    assert after in [r["rating"] for r in user["ratings"] if r["game"] == "kingdomino"]

    # Ana blocks Bea: Bea's challenge is refused, said in her page in Spanish
    player_page(ana, bea_name)
    ana.get_by_test_id("block").click()
    ana.wait_for_function(
        """() => document.querySelector('[data-testid="block"]')?.textContent === 'Unblock'""")
    player_page(bea, ana_name)
    bea.get_by_test_id("challenge-game").select_option("kingdomino")
    with bea.expect_response(f"**/api/users/{ana_name}/challenge") as answer:
        bea.get_by_test_id("challenge").click()
    assert answer.value.status == 403 and answer.value.json()["code"] == "blocked"
    error = bea.get_by_test_id("toast-error")
    error.wait_for()
    assert error.inner_text().startswith(
        f"{ana_name} no acepta que le sigas, le desafíes ni ocupes un asiento en su mesa.")
    assert bea.url.endswith(f"#/player/{ana_name}")  # no table was opened
    no_sideways_scroll(bea)
    mine = bea.evaluate("() => fetch('/api/me/challenges').then((r) => r.json())")
    assert mine == []
    console.errors.remove(REFUSED)
