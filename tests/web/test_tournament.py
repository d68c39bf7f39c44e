"""A person's tournament in Chromium, in Spanish, at phone width (issue 35): they hold a small
one (2-player Kingdomino, a Swiss of one round, two entrants: themselves and a random bot they
enter), register, wait on the tournament page until it starts and their table is ready, go to
it from there, play it to the end by clicks, and a second tab left on the tournament page sees
the standings, the podium and the crosstable arrive without a reload. The pages are all Spanish
and nothing scrolls sideways at 360 px (``shoot``); screenshots go to test-artifacts/ (to
docs/screenshots/ with LUDOTECA_SCREENSHOTS=1)."""

from __future__ import annotations

import os
import shutil
import uuid
from typing import Any

from tests.web.conftest import ARTIFACTS, PHONE, ROOT, shoot
from tests.web.driver import play_to_end
from tests.web.test_spanish import untranslated

POINTS = """() => [...document.querySelectorAll('[data-testid="standings"] [data-testid="points"]')]
    .map((td) => Number(td.textContent.replace(",", ".")))"""


def test_a_person_plays_their_tournament_table_and_sees_the_standings_move(open_page: Any) -> None:
    page = open_page("/#/signin", lang="es", viewport=PHONE)
    name = f"tp{uuid.uuid4().hex[:8]}"
    form = page.get_by_test_id("signup-form")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("a long enough password")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector('[data-testid="me"]')

    # the lobby's Tournaments tab, and a new tournament from its form
    page.get_by_test_id("tab-tournaments").click()
    page.wait_for_selector('[data-testid="new-tournament"]')
    assert untranslated(page) == []
    page.get_by_test_id("tour-game").select_option("kingdomino")
    page.get_by_test_id("tour-players").select_option("2")
    page.get_by_test_id("tour-rounds").fill("1")
    page.get_by_test_id("tour-max").fill("2")
    page.get_by_test_id("tour-create").click()
    page.wait_for_url("**/#/tournament/*")
    tournament = page.url.rsplit("/", 1)[1]
    page.wait_for_selector('[data-testid="rules"] li')
    assert page.get_by_test_id("tournament-status").inner_text() == "inscripción abierta"

    # a second tab on the same page, never reloaded: the standings must reach it by the stream
    watcher = page.context.new_page()
    watcher.set_viewport_size(PHONE)
    watcher.goto(f"{page.url.split('#')[0]}#/tournament/{tournament}")
    watcher.wait_for_selector('[data-testid="standings"], [data-testid="entrants"] li')
    watcher.evaluate("() => { window.notReloaded = true; }")

    # the host enters a random bot, then registers: the field is full and it starts
    page.get_by_test_id("bot-level").select_option("random")
    page.get_by_test_id("add-bot").click()
    page.wait_for_selector('[data-testid="entrants"] li >> nth=0')
    page.get_by_test_id("register").click()
    page.get_by_test_id("your-table").wait_for(timeout=30_000)  # no reload: the stream said
    assert untranslated(page) == []
    watcher.wait_for_function(
        """() => document.querySelectorAll('[data-testid="standings"] tbody tr').length === 2""")
    assert watcher.evaluate(POINTS) == [0, 0]

    page.get_by_test_id("your-table").click()
    page.wait_for_url("**/#/table/*")
    page.get_by_test_id("tournament-link").wait_for()
    actions = play_to_end(page, seed=35)
    assert actions > 5

    # the tab that stayed on the tournament page: standings moved, the podium and crosstable came
    watcher.get_by_test_id("podium").wait_for(timeout=30_000)
    assert watcher.evaluate("() => window.notReloaded") is True
    assert sum(watcher.evaluate(POINTS)) > 0
    assert watcher.get_by_test_id("tournament-status").inner_text() == "terminado"
    assert len(watcher.locator('[data-testid="crosstable"] tbody tr').all()) == 2

    # back from the table to its tournament: all Spanish, and no sideways scrolling on a phone
    page.get_by_test_id("tournament-link").click()
    page.get_by_test_id("crosstable").wait_for()
    assert "2 inscritos (de 2 a 2)" in page.get_by_test_id("tournament-facts").inner_text()
    assert "null" not in page.get_by_test_id("tournament-page").inner_text()
    assert untranslated(page) == []
    page.set_viewport_size({"width": 1280, "height": 860})
    shoot(page, "tournament-es")
    if os.environ.get("LUDOTECA_SCREENSHOTS") == "1":
        for size in ("desktop", "phone"):
            shutil.copy(ARTIFACTS / f"tournament-es-{size}.png",
                        ROOT / "docs" / "screenshots" / f"tournament-{size}-es.png")
