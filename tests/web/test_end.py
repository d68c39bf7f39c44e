"""The end of a match in Chromium (issue 24), between two browser contexts (two guests): the
last move shows both pages the result at once, with no reload (the score parts, the rating
change of a rated match, the replay and "Back to the lobby", no "Leave the table"); a screen
reader hears the opponent's moves (the polite live region); the rematch offer is seen by both,
declined (both see who declined), offered again and accepted, and both pages move to the new
table without a reload. The replay shows a player their own hand during the match, a spectator
none, and after the end any seat's hand. "Rated" is off, with its reason, beside a bot. axe-core
finds nothing serious on the end screen and the replay, in English and in Spanish."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from ludoteca.games import game_names
from tests.web.conftest import axe_violations, dump, shoot
from tests.web.driver import (
    ROOT,
    engine_outcome,
    shown,
    shown_scores,
    sign_in_as_guest,
    take_turn,
    wait_for_turn_or_end,
    wait_past,
)

LIVE = '[data-testid="live"]'
MARK = "() => { window.__noReload = 1; }"
"""A mark on the page's window: still there later means the page was never reloaded."""
KEPT = "() => window.__noReload === 1"
HAND = """(want) => JSON.stringify([...document.querySelectorAll('[data-testid^="kami-hand-"]')]
    .map((e) => e.dataset.testid.slice(10)).sort()) === JSON.stringify(want)"""
"""The Kami hand drawn holds exactly the kinds of card ``want`` (sorted)."""


def hand_of(page: Any, table: str, at: int, seat: int | None = None) -> list[str]:
    """The kinds of card in the hand the server's replay gives this page's person."""
    query = f"at={at}" + ("" if seat is None else f"&seat={seat}")
    view = page.request.get(f"/api/tables/{table}/replay?{query}").json()["view"]
    return sorted(set(view["hand"] or []))


def hand_title(page: Any) -> str:
    """The title over the Kami hand drawn: "Your hand" only for the reader's own seat."""
    return str(page.locator('[data-testid="kami-hand"] h3').inner_text())


def seat_name(page: Any, seat: int) -> str:
    """A seat's name as the replay's "Seen by" picker says it."""
    return str(page.locator(f'[data-testid="replay-seat"] option[value="{seat}"]').inner_text())


def new_table(page: Any, game: str, options: dict[str, str] | None = None,
              rated: bool = False, bots: int = 0) -> str:
    """Open a table from the lobby form for two people (seat 2 left to a person), and
    ``bots`` greedy bots in the seats after theirs."""
    page.get_by_test_id("new-game").select_option(game)
    page.get_by_test_id("new-players").select_option(str(2 + bots))
    for name, value in (options or {}).items():
        page.locator(f'[data-option="{name}"]').fill(value)
    page.get_by_test_id("new-seat-1").select_option("")
    for seat in range(2, 2 + bots):
        page.get_by_test_id(f"new-seat-{seat}").select_option("greedy")
    page.locator('input[name="rated"]').set_checked(rated)
    page.get_by_test_id("create").click()
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector(f"{ROOT}[data-seq]")
    return str(page.url.rsplit("/", 1)[1].split("?")[0])


def join(page: Any, table: str) -> None:
    page.goto(page.url.split("#")[0] + f"#/table/{table}")
    page.get_by_test_id("join-1").click()


def both_playing(*pages: Any) -> None:
    for page in pages:
        page.wait_for_selector(f'{ROOT}[data-status="playing"]')


def play_turns(pages: list[Any], rng: random.Random, until: Any) -> None:
    """Whoever must act takes a turn, until ``until()``; after each move the other page shows
    it and its live region says something new."""
    deadline = time.monotonic() + 300  # a match no one can move in fails, never hangs the suite
    while not until():
        assert time.monotonic() < deadline, "no one was to act and the match did not end"
        actor = next((p for p in pages if shown(p)["mine"] == "1"), None)
        if actor is None:
            pages[0].wait_for_timeout(50)
            continue
        other = pages[1] if actor is pages[0] else pages[0]
        before = shown(other)["seq"]
        other.eval_on_selector(LIVE, "e => { e.textContent = ''; }")
        take_turn(actor, rng)
        wait_past(other, before)
        if shown(other)["status"] == "playing":  # heard: one short sentence for the move
            other.wait_for_function(f"() => document.querySelector('{LIVE}').textContent.trim()")


def test_the_live_end_and_the_rematch_between_two_people(open_page: Any, axe_source: str
                                                          ) -> None:
    ana = open_page("/")
    sign_in_as_guest(ana)
    table = new_table(ana, "kingdomino", rated=True)
    ben = open_page("/", lang="es")
    sign_in_as_guest(ben)
    join(ben, table)
    both_playing(ana, ben)
    watcher = open_page(f"/#/table/{table}")  # a spectator, not signed in
    both_playing(watcher)
    for page in (ana, ben, watcher):
        page.evaluate(MARK)
        assert page.get_by_test_id("live").get_attribute("aria-live") == "polite"
    chat = ben.get_by_label("Mensaje de chat")  # a chat line is heard too
    chat.fill("¡suerte!")
    chat.press("Enter")
    ana.wait_for_function(f"() => document.querySelector('{LIVE}').textContent"
                          ".endsWith(': ¡suerte!')")
    play_turns([ana, ben], random.Random(4), lambda: shown(ana)["status"] == "finished")

    # the end, on every page at once, with no reload
    watcher.wait_for_selector('[data-testid="result"]')
    assert watcher.evaluate(KEPT) and watcher.get_by_test_id("rematch").count() == 0
    for page in (ana, ben):
        page.wait_for_selector('[data-testid="result"]')
        page.wait_for_selector('[data-testid="back-to-lobby"]')
        assert page.evaluate(KEPT)
        assert page.get_by_test_id("leave").count() == 0  # "Leave the table" is gone
        assert page.get_by_test_id("replay-link").is_visible()
        assert page.get_by_test_id("rematch").is_visible()
        assert page.get_by_test_id("back-to-lobby").get_attribute("href") == "#/"
        # the result, its rematch offer and the way back to the lobby in view, on its own
        page.wait_for_function("""() => { const r = document.querySelector('[data-testid="result"]')
            .getBoundingClientRect(); return r.top >= -2 && r.top < innerHeight / 2; }""")
        assert page.get_by_test_id("back-to-lobby").is_visible()
    outcome = engine_outcome(ana, table)
    assert shown_scores(ana, 2) == shown_scores(ben, 2) == outcome["scores"]
    for seat in (0, 1):  # each rating's change, as the server said it
        ana.get_by_test_id(f"rating-{seat}").wait_for()
        text = ana.get_by_test_id(f"rating-{seat}").inner_text()
        assert "→" in text and ("+" in text or "−" in text), text
        assert "valoración" in ben.get_by_test_id(f"rating-{seat}").inner_text()
    winner = outcome["winners"][0]
    assert "+" in ana.get_by_test_id(f"rating-{winner}").inner_text()
    parts = ana.locator('[data-testid="result"] .parts li')
    assert parts.count() >= 2  # the score in parts, from the server
    end_words = ana.get_by_test_id("live").inner_text()
    assert "The match is over." in end_words and "Winner" in end_words
    assert "La partida ha terminado." in ben.get_by_test_id("live").inner_text()
    assert (found := axe_violations(ana, axe_source)) == [], dump(found)
    assert (found := axe_violations(ben, axe_source)) == [], dump(found)
    shoot(ana, "end-kingdomino")

    # offered, declined: both see who declined, and the offer is over
    ana.get_by_test_id("rematch").click()
    ana.get_by_test_id("rematch-waiting").wait_for()
    ben.get_by_test_id("rematch-offer").wait_for()
    watcher.get_by_test_id("rematch-waiting").wait_for()  # everyone sees who is awaited
    ben_name = ben.get_by_test_id("me").inner_text()
    ana_name = ana.get_by_test_id("me").inner_text()
    assert ana_name in ben.get_by_test_id("rematch-offer").inner_text()
    assert ben_name in ana.get_by_test_id("rematch-waiting").inner_text()
    assert ana_name in ana.get_by_test_id("rematch-accepted").inner_text()
    ben.get_by_test_id("rematch-decline").click()
    for page in (ana, ben, watcher):
        page.get_by_test_id("rematch-declined").wait_for()
        assert ben_name in page.get_by_test_id("rematch-declined").inner_text()
        assert page.get_by_test_id("rematch-offer").count() == 0
    assert "rechazado" in ben.get_by_test_id("rematch-declined").inner_text()

    # offered again, accepted: both pages move to the new table, with no reload
    ben.get_by_test_id("rematch").click()
    ana.get_by_test_id("rematch-offer").wait_for()
    assert ben_name in ana.get_by_test_id("rematch-offer").inner_text()
    assert (found := axe_violations(ana, axe_source)) == [], dump(found)  # with the offer
    ana.get_by_test_id("rematch").click()
    for page in (ana, ben):
        page.wait_for_function("(old) => location.hash.startsWith('#/table/') "
                               "&& !location.hash.includes(old)", arg=table)
        page.wait_for_selector(f'{ROOT}[data-status="playing"]')
        assert page.evaluate(KEPT)
    made = ana.url.rsplit("/", 1)[1]
    assert made == ben.url.rsplit("/", 1)[1]
    # the spectator stays, and is shown the way to the new table
    watcher.get_by_test_id("rematch-link").wait_for()
    assert watcher.get_by_test_id("rematch-link").get_attribute("href") == f"#/table/{made}"
    names = {ana.get_by_test_id(f"seat-{s}").locator(".seat-name").inner_text() for s in (0, 1)}
    assert names == {ana_name, ben_name}


def test_the_replay_shows_your_own_hand_then_every_hand(open_page: Any, axe_source: str) -> None:
    ana = open_page("/")
    sign_in_as_guest(ana)
    table = new_table(ana, "kami", {"target": "10"})
    ben = open_page("/")
    sign_in_as_guest(ben)
    join(ben, table)
    both_playing(ana, ben)
    rng = random.Random(9)
    play_turns([ana, ben], rng, lambda: int(shown(ana)["seq"]) >= 3)

    # during the match: a player's own hand, a spectator none, and no seat to pick
    replay = ana.context.new_page()
    replay.goto(f"{ana.url.split('#')[0]}#/replay/{table}?at=1")
    own = hand_of(replay, table, 1)
    assert own  # the server gives a player their own hand, and the page draws it
    replay.wait_for_function(HAND, arg=own)
    assert hand_title(replay) == "Your hand"
    assert replay.get_by_test_id("replay-seat").is_hidden()
    watcher = open_page(f"/#/replay/{table}?at=1")
    watcher.get_by_test_id("replay-position").wait_for()
    watcher.wait_for_selector('[data-testid="game-root"] *')
    assert watcher.get_by_test_id("kami-hand").count() == 0
    assert hand_of(watcher, table, 1) == []  # the server gives a spectator none
    assert watcher.get_by_test_id("replay-seat").is_hidden()
    replay.close()

    play_turns([ana, ben], rng, lambda: shown(ana)["status"] == "finished")

    # after the end: your own hand by default, and any seat's for anyone
    ana.get_by_test_id("replay-link").click()
    ana.wait_for_url(f"**/#/replay/{table}*")
    ana.get_by_test_id("replay-first").click()
    ana.wait_for_function("() => location.hash.includes('at=0')")
    ana.keyboard.press("ArrowRight")  # the arrow keys step
    ana.wait_for_function("() => location.hash.includes('at=1')")
    ana.wait_for_function(HAND, arg=own)  # the same hand as during the match
    assert hand_title(ana) == "Your hand"
    # another seat's hand is not "yours": it is named by its seat
    other = 1 - int(ana.get_by_test_id("replay-seat").input_value())
    ana.get_by_test_id("replay-seat").select_option(str(other))
    ana.wait_for_function(HAND, arg=hand_of(ana, table, 1, other))
    assert hand_title(ana) == f"Hand of {seat_name(ana, other)}"
    watcher.reload()
    watcher.get_by_test_id("replay-seat").wait_for()
    assert watcher.get_by_test_id("kami-hand").count() == 0
    hands = [hand_of(watcher, table, 1, seat) for seat in (0, 1)]
    assert own in hands and all(hands)  # every hand, to a spectator, once it ended
    for seat, hand in enumerate(hands):
        watcher.get_by_test_id("replay-seat").select_option(str(seat))
        watcher.wait_for_function(HAND, arg=hand)
        assert hand_title(watcher) == f"Hand of {seat_name(watcher, seat)}"
    assert (found := axe_violations(watcher, axe_source)) == [], dump(found)
    spanish = open_page(f"/#/replay/{table}?at=0&seat=1", lang="es")
    spanish.get_by_test_id("kami-hand").wait_for()
    assert hand_title(spanish) == f"Mano de {seat_name(spanish, 1)}"
    assert "Vista de" in spanish.locator(".replay-seat").inner_text()
    assert (found := axe_violations(spanish, axe_source)) == [], dump(found)


@pytest.mark.parametrize(("lang", "why"), [("en", "people"), ("es", "personas")])
def test_rated_is_off_with_its_reason_beside_a_bot(open_page: Any, lang: str, why: str) -> None:
    page = open_page("/", lang=lang)
    sign_in_as_guest(page)
    rated = page.locator('input[name="rated"]')
    page.get_by_test_id("new-game").select_option("kami")
    page.get_by_test_id("new-players").select_option("2")
    page.get_by_test_id("new-seat-1").select_option("")
    rated.check()
    page.get_by_test_id("new-seat-1").select_option("greedy")
    assert rated.is_disabled() and not rated.is_checked()
    assert why in page.get_by_test_id("rated-why").inner_text()
    page.get_by_test_id("create").click()
    page.wait_for_selector(f"{ROOT}[data-seq]")
    wait_for_turn_or_end(page)
    assert page.get_by_test_id("seat-1").is_visible()
    terms = page.locator('[data-testid="table-page"] .seats .hint').inner_text()
    assert {"en": "not rated", "es": "no puntuable"}[lang] in terms.lower(), terms


SHORTER = {"kami": ({"target": "10"}, 0), "goita": ({"target": "50"}, 2)}
"""Options for a shorter match, and bot seats (Goita's other team); else none and none."""
OTHERS = [(name, *SHORTER.get(name, ({}, 0))) for name in game_names() if name != "kingdomino"]
"""Every registered game but Kingdomino (the test above), the test game too."""


@pytest.mark.parametrize(("game", "options", "bots"), OTHERS, ids=[g[0] for g in OTHERS])
def test_every_game_ends_live_and_rematches_between_two_people(
    open_page: Any, game: str, options: dict[str, str], bots: int
) -> None:
    """The same flow, shorter, in each other game (Goita with two bots as the other team):
    both pages show the engine's result at once, the offer is seen and accepted, and both
    move to the rematch, whose bot seats are bots again."""
    ana = open_page("/")
    sign_in_as_guest(ana)
    table = new_table(ana, game, options, bots=bots)
    ben = open_page("/", lang="es")
    sign_in_as_guest(ben)
    join(ben, table)
    both_playing(ana, ben)
    for page in (ana, ben):
        page.evaluate(MARK)
    play_turns([ana, ben], random.Random(len(game)), lambda: shown(ana)["status"] == "finished")
    scores = engine_outcome(ana, table)["scores"]
    for page in (ana, ben):
        page.wait_for_selector('[data-testid="result"]')
        page.get_by_test_id("rematch").wait_for()
        assert page.evaluate(KEPT) and page.get_by_test_id("leave").count() == 0
        assert shown_scores(page, 2 + bots) == scores
    ana.get_by_test_id("rematch").click()
    ben.get_by_test_id("rematch-offer").wait_for()
    ben.get_by_test_id("rematch").click()
    for page in (ana, ben):
        page.wait_for_function("(old) => !location.hash.includes(old)", arg=table)
        page.wait_for_selector(f'{ROOT}[data-status="playing"]')
        assert page.evaluate(KEPT)
    for seat in range(2, 2 + bots):
        assert ana.get_by_test_id(f"seat-{seat}").locator(".tag").count() >= 1  # a bot again
