"""The table page over a real socket: two people play Kingdomino live and each sees the other's
moves without reloading; a reload mid-game shows exactly the same view; an illegal click says why
(in the player's language) and changes nothing."""

from __future__ import annotations

import random
from typing import Any

from tests.web.driver import (
    ROOT,
    engine_outcome,
    open_table,
    reload_and_wait,
    shown,
    shown_scores,
    sign_in_as_guest,
    take_turn,
    take_turns,
    wait_for_turn_or_end,
    wait_past,
)

# The game area without the last-move marks: those show what the last action changed, and the
# first view after a load marks nothing (RENDERERS.md).
SNAPSHOT = """() => ({
  game: (() => {
    const game = document.querySelector('[data-testid="game-root"]').cloneNode(true);
    for (const e of game.querySelectorAll('.just-changed')) {
      e.classList.remove('just-changed');
      if (!e.classList.length) e.removeAttribute('class');
    }
    // a placement preview follows the pointer, not the game: a reload leaves it empty
    for (const e of game.querySelectorAll('.kd-preview')) e.replaceChildren();
    return game.innerHTML;
  })(),
  log: document.querySelector('[data-testid="log"]').innerText,
  banner: document.querySelector('[data-testid="turn-banner"]').innerText,
  seats: [...document.querySelectorAll('[data-testid^="seat-"] .seat-name')]
    .map((e) => e.innerText),
})"""


def test_two_people_play_kingdomino_live_and_see_each_other(open_page: Any) -> None:
    alice = open_page("/")
    alice_name = sign_in_as_guest(alice)
    table = open_table(alice, "kingdomino", 2, [None])
    bob = open_page(f"/#/table/{table}", lang="es")
    bob.get_by_test_id("lobby-guest").wait_for(state="detached")  # the table page, not a lobby
    bob.get_by_test_id("guest").click()
    bob.get_by_test_id("join-1").click()
    bob.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.status === 'playing'")
    alice.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.status === 'playing'")
    assert alice_name in bob.get_by_test_id("seat-0").inner_text()

    people = {"alice": alice, "bob": bob}
    rng = random.Random(11)
    moves = 0
    while shown(alice)["status"] != "finished":
        actor = next((p for p in people.values() if shown(p)["mine"] == "1"), None)
        if actor is None:
            alice.wait_for_timeout(50)
            continue
        other = bob if actor is alice else alice
        before = shown(other)["seq"]
        take_turn(actor, rng)
        wait_past(other, before)  # the other page shows the move, with no reload
        assert shown(other)["seq"] == shown(actor)["seq"]
        assert other.get_by_test_id("log").inner_text()  # narrated there too
        moves += 1
    bob.wait_for_selector('[data-testid="result"]')
    alice.wait_for_selector('[data-testid="result"]')
    scores = engine_outcome(alice, table)["scores"]
    assert shown_scores(alice, 2) == shown_scores(bob, 2) == scores
    assert moves >= 20
    assert "Puntuación final" in bob.get_by_test_id("result").inner_text()  # in his language


def test_a_reload_mid_game_restores_the_exact_view(open_page: Any) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    open_table(page, "queendomino", 2, ["greedy"])
    rng = random.Random(5)
    take_turns(page, rng, 7)
    before = page.evaluate(SNAPSHOT)
    reload_and_wait(page)
    assert page.evaluate(SNAPSHOT) == before


def test_an_illegal_click_says_why_and_changes_nothing(open_page: Any) -> None:
    for lang, words in [("en", "cannot"), ("es", "no")]:
        page = open_page("/", lang=lang)
        sign_in_as_guest(page)
        open_table(page, "kingdomino", 2, ["greedy"])
        wait_for_turn_or_end(page)
        rng = random.Random(1)
        # Until this seat must place a domino (the first turns may be claims only).
        while page.locator('[data-testid="my-kingdom"] [data-target="1"]').count() == 0:
            take_turn(page, rng)
            wait_for_turn_or_end(page)
        before = page.evaluate(SNAPSHOT)
        seq = shown(page)["seq"]
        # The castle's own square is never a legal first half.
        page.locator('[data-testid="my-kingdom"] [data-testid="cell-0-0"]').click()
        toast = page.get_by_test_id("toast-info")
        toast.wait_for()
        assert words in toast.inner_text().lower()
        page.wait_for_timeout(300)  # any answer from the server would have come by now
        assert shown(page)["seq"] == seq
        assert page.evaluate(SNAPSHOT) == before
