"""A challenge in Chromium (issue 36): Ana opens Bea's page, follows her and challenges her to
Kingdomino; Ana lands on the new table, Bea hears of it on whatever page she is on (a toast
from the event stream), answers from her own page, accepts, and both are seated at the table
being played; Bea is on Ana's friends list. Both pages pass axe-core (serious and critical).
Once in English at desktop width, once in Spanish at phone width (every word Spanish,
nothing scrolling sideways)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, axe_violations, dump
from tests.web.test_spanish import untranslated


def sign_up(open_page: Any, lang: str, viewport: dict[str, int]) -> tuple[Any, str]:
    page = open_page("/#/signin", lang=lang, viewport=viewport)
    name = f"ch{uuid.uuid4().hex[:8]}"
    form = page.get_by_test_id("signup-form")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("a long enough password")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector('[data-testid="me"]')
    return page, name


def no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_challenge_a_player_from_their_page_and_they_accept(open_page: Any, axe_source: str,
                                                           lang: str) -> None:
    viewport = PHONE if lang == "es" else DESKTOP
    bea, bea_name = sign_up(open_page, lang, viewport)
    ana, ana_name = sign_up(open_page, lang, viewport)
    bea.goto(bea.url.split("#")[0] + "#/")  # Bea waits in the lobby

    ana.goto(ana.url.split("#")[0] + f"#/player/{bea_name}")
    before = ana.get_by_test_id("follow").inner_text()
    ana.get_by_test_id("follow").click()
    ana.wait_for_function(
        """(was) => document.querySelector('[data-testid="follow"]')?.textContent !== was""",
        arg=before)  # the page read again: now "Unfollow"
    ana.get_by_test_id("challenge-game").select_option("kingdomino")
    assert (found := axe_violations(ana, axe_source)) == [], dump(found)
    if lang == "es":
        assert untranslated(ana) == []
        no_sideways_scroll(ana)
    ana.get_by_test_id("challenge").click()
    ana.wait_for_url("**/#/table/*")
    table = ana.url.rsplit("/", 1)[1]

    # Bea is told in the lobby, goes to her page and accepts
    bea.get_by_test_id("challenge-toast").click()
    bea.wait_for_url(f"**/#/player/{bea_name}")
    bea.get_by_test_id("challenges").wait_for()
    assert (found := axe_violations(bea, axe_source)) == [], dump(found)
    if lang == "es":
        assert untranslated(bea) == []
        no_sideways_scroll(bea)
    bea.locator('[data-testid="challenges"] [data-testid="accept"]').click()
    bea.wait_for_url(f"**/#/table/{table}")

    seen = bea.evaluate(f"() => fetch('/api/tables/{table}').then((r) => r.json())")
    assert seen["status"] == "playing"
    assert [s["user"] for s in seen["seats"]] == [ana_name, bea_name]
    friends = ana.evaluate("() => fetch('/api/me/friends').then((r) => r.json())")
    assert [f["name"] for f in friends] == [bea_name]
