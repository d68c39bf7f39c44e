"""The compact table (issue 24), in Chromium against bots: at every decision a Kingdomino or
Queendomino player meets (draft, claim, place, discard, knight, build, dragon, pass), the
player's kingdom, the choices and the confirm control are inside the first screen at 1366x768
with the page not scrolled; on a 390x844 phone the lines and the player's kingdom share one
screen. Asserted from element boxes. Screenshots of each game mid-play and at the end, desktop
and phone, English and Spanish: into docs/screenshots/ with LUDOTECA_SCREENSHOTS=1, else into
test-artifacts/."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS, ROOT, dump
from tests.web.driver import open_table, shown, sign_in_as_guest, take_turn, wait_for_turn_or_end

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
GAME = '[data-testid="game-root"]'
KINGDOM = f'{GAME} [data-testid="my-kingdom"]'
LINES = f'{GAME} [data-testid="line-current"], {GAME} [data-testid="line-next"]'

# What the viewer must see to decide, by decision: (name, selector of the choices, and of the
# confirm control when there is one). A decision is recognised by its choices being drawn.
DECISIONS: list[tuple[str, str, str | None]] = [
    ("place", f'{KINGDOM} [data-target="1"]', f'{GAME} [data-testid="confirm"]'),
    ("discard", f'{GAME} [data-testid="discard"]', None),
    ("knight", f'{KINGDOM} [data-action-index]', None),
    ("build", f'{GAME} [data-testid^="build-space-"]', None),
    ("dragon", f'{GAME} [data-testid^="dragon-"]', None),
    ("pass", f'{GAME} [data-testid="pass"]', None),
    ("claim", f'{GAME} [data-testid^="claim-"][data-action-index]', None),
]


def shots_dir() -> Path:
    """docs/screenshots/ when asked for (LUDOTECA_SCREENSHOTS=1), else test-artifacts/."""
    if os.environ.get("LUDOTECA_SCREENSHOTS") == "1":
        return ROOT / "docs" / "screenshots"
    return ARTIFACTS


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The boxes of the visible elements matching ``selector``."""
    found: list[dict[str, float]] = []
    for element in page.locator(selector).all():
        box = element.bounding_box()
        if box and element.is_visible():
            found.append(box)
    return found


def outside(box: dict[str, float], viewport: dict[str, int]) -> bool:
    return (box["x"] < -0.5 or box["y"] < -0.5 or box["x"] + box["width"] > viewport["width"] + 0.5
            or box["y"] + box["height"] > viewport["height"] + 0.5)


def decisions_now(page: Any) -> list[str]:
    """The decisions offered now, by the choices drawn."""
    return [name for name, choices, _ in DECISIONS if boxes(page, choices)]


def assert_first_screen(page: Any, viewport: dict[str, int], phone: bool) -> list[str]:
    """At the top of the page (not scrolled): the kingdom, the choices and the confirm control
    (on a phone: the lines and the kingdom) are inside ``viewport``. Returns the decisions."""
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("() => window.scrollY") == 0
    found = decisions_now(page)
    assert found, "no decision drawn"
    wanted = [("kingdom", KINGDOM)]
    if phone:
        wanted.append(("lines", LINES))
    else:
        for name, choices, confirm in DECISIONS:
            if name in found:
                wanted.append((name, choices))
                if confirm:
                    wanted.append((f"{name} confirm", confirm))
    for what, selector in wanted:
        drawn = boxes(page, selector)
        assert drawn, f"{what} not drawn ({found})"
        off = [b for b in drawn if outside(b, viewport)]
        assert not off, f"{what} outside the {viewport} screen at {found}: {dump(off[:3])}"
    return found


def see_whole_game_area(page: Any) -> None:
    page.locator(GAME).scroll_into_view_if_needed()


GAMES = [
    # game, players, bot levels, options, the turn to photograph mid-play
    ("kingdomino", 2, ["greedy"], {}, 10),
    ("kingdomino", 4, ["greedy", "random", "greedy"], {}, 6),
    ("queendomino", 2, ["random"], {}, 10),
]


def switch_language(page: Any, lang: str) -> None:
    """Change the interface language from the header; the table page opens again in it."""
    seq = shown(page)["seq"]
    page.get_by_test_id("lang").select_option(lang)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    page.wait_for_selector(f'[data-testid="table-page"][data-seq="{seq}"]')
    page.wait_for_selector(KINGDOM)


def photograph(page: Any, name: str, viewport: dict[str, int], full: bool = False) -> None:
    """``name``-desktop/phone-en/es.png: every size and language (the first screen, or the whole
    page when ``full``), then back to ``viewport`` and English."""
    folder = shots_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "es"):
        if lang != "en":
            switch_language(page, lang)
        for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(size)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.mouse.move(0, 0)  # no tooltip open where the pointer happened to be
            page.wait_for_timeout(200)
            page.screenshot(path=str(folder / f"{name}-{size_name}-{lang}.png"), full_page=full)
            if not full:  # mid-play: the first screen holds the decision in Spanish too
                assert_first_screen(page, size, phone=size is PHONE)
    switch_language(page, "en")
    page.set_viewport_size(viewport)


@pytest.mark.parametrize(("game", "players", "bots", "options", "mid"), GAMES,
                         ids=[f"{g[0]}-{g[1]}p" for g in GAMES])
def test_every_decision_fits_the_first_screen(
    open_page: Any, game: str, players: int, bots: list[str], options: dict[str, Any], mid: int,
) -> None:
    page = open_page("/", viewport=DESKTOP)
    sign_in_as_guest(page)
    open_table(page, game, players, bots, options)
    rng = random.Random(players * 31 + len(game))
    met: set[str] = set()
    turn = 0
    while True:
        wait_for_turn_or_end(page)
        if shown(page)["status"] == "finished":
            break
        page.wait_for_selector(KINGDOM)
        page.wait_for_function(
            "(s) => document.querySelectorAll(s).length > 0",
            arg=", ".join(choices for _, choices, _ in DECISIONS))
        met.update(assert_first_screen(page, DESKTOP, phone=False))
        page.set_viewport_size(PHONE)
        assert_first_screen(page, PHONE, phone=True)
        page.set_viewport_size(DESKTOP)
        if turn == mid and players == 2:
            photograph(page, f"{game}-play", DESKTOP)
        take_turn(page, rng)
        turn += 1
    page.wait_for_selector('[data-testid="result"]')
    if players == 2:
        photograph(page, f"{game}-end", DESKTOP, full=True)
    expected = {"claim", "place"} | ({"pass"} if game == "queendomino" else set())
    assert expected <= met, (game, sorted(met))
