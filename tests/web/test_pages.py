"""The pages around a game: the player page with the finished match (the player's own score),
the replay viewer (step, jump, play), keeping a guest account, signing in again, the
leaderboard; and a whole Kingdomino turn by keyboard alone."""

from __future__ import annotations

import random
import secrets
from typing import Any

from tests.web.driver import (
    ROOT,
    engine_outcome,
    open_table,
    play_to_end,
    shown,
    sign_in_as_guest,
    wait_for_turn_or_end,
    wait_past,
)


def test_history_replay_and_keeping_a_guest_account(open_page: Any) -> None:
    page = open_page("/")
    guest = sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, ["greedy"])
    play_to_end(page, seed=8)
    outcome = engine_outcome(page, table)

    # The player page lists the match with this player's own score and rank (seat 0).
    page.get_by_test_id("me").click()
    page.wait_for_selector('[data-testid="player-matches"]')
    row = page.locator('[data-testid="player-matches"] tbody tr').first
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "Kingdomino"
    assert cells[3] == str(outcome["scores"][0]) and cells[4] == str(outcome["ranks"][0])

    # The replay: the end, one back, a jump, and play moving on by itself.
    row.get_by_role("link").click()
    position = page.get_by_test_id("replay-position")
    position.filter(has_text="of").wait_for()
    total = int(position.inner_text().split()[-1])
    page.get_by_test_id("replay-last").click()
    position.filter(has_text=f"After move {total} of {total}").wait_for()
    assert page.get_by_test_id("result").is_visible()
    page.get_by_test_id("replay-back").click()
    page.wait_for_function("t => document.querySelector('[data-testid=\"replay-position\"]')"
                           ".innerText === `After move ${t - 1} of ${t}`", arg=total)
    page.get_by_test_id("replay-jump").fill("5")
    page.get_by_test_id("replay-jump").press("Enter")
    position.filter(has_text=f"After move 5 of {total}").wait_for()
    page.get_by_test_id("replay-play").click()
    position.filter(has_text=f"After move 6 of {total}").wait_for(timeout=5000)
    page.get_by_test_id("replay-play").click()  # pause
    # The keyboard: → and ← step, Home and End jump; the first and last buttons say what they do.
    assert "To the start" in page.get_by_test_id("replay-first").inner_text()
    assert "To the end" in page.get_by_test_id("replay-last").inner_text()
    page.locator("body").click(position={"x": 5, "y": 5})  # out of the jump box
    page.keyboard.press("Home")
    position.filter(has_text=f"After move 0 of {total}").wait_for()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    position.filter(has_text=f"After move 2 of {total}").wait_for()
    page.keyboard.press("ArrowLeft")
    position.filter(has_text=f"After move 1 of {total}").wait_for()
    page.keyboard.press("End")
    position.filter(has_text=f"After move {total} of {total}").wait_for()

    # Keep the guest account: a name and a password; the history stays.
    page.get_by_test_id("me").click()
    name = "keeper" + secrets.token_hex(3)
    form = page.get_by_test_id("claim-form")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill("correct horse")
    page.get_by_test_id("claim").click()
    page.get_by_test_id("player-name").filter(has_text=name).wait_for()
    assert page.get_by_test_id("me").inner_text() == name
    assert page.get_by_test_id("claim-form").count() == 0
    assert guest != name

    # Sign out, sign in again by name and password: the same history.
    page.get_by_test_id("signout").click()
    page.get_by_test_id("lobby-guest").wait_for()
    page.goto(page.url.split("#")[0] + "#/signin")
    signin = page.get_by_test_id("signin-form")
    signin.locator('input[name="name"]').fill(name)
    signin.locator('input[name="password"]').fill("correct horse")
    signin.get_by_role("button").click()
    page.get_by_test_id("me").filter(has_text=name).wait_for()
    page.get_by_test_id("me").click()
    page.wait_for_selector('[data-testid="player-matches"]')
    assert page.locator('[data-testid="player-matches"] tbody tr').count() == 1

    page.goto(page.url.split("#")[0] + "#/leaderboard/kingdomino")
    page.get_by_test_id("leaderboard").filter(has_not_text="…").wait_for()
    # the pool picker: all-time, the current season (from /api/seasons), against bots
    page.wait_for_function("() => document.querySelector("
                           "'[data-testid=\"leaderboard-pool\"]').options.length === 3")
    pools = page.get_by_test_id("leaderboard-pool")
    values = pools.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert values[0] == "all" and values[1].startswith("season:") and values[2] == "bots"
    pools.select_option(values[1])
    page.wait_for_url(f"**#/leaderboard/kingdomino?pool={values[1].replace(':', '%3A')}")
    assert page.get_by_test_id("leaderboard-pool").input_value() == values[1]
    page.get_by_test_id("leaderboard").filter(has_not_text="…").wait_for()


def test_a_kingdomino_turn_by_keyboard_alone(open_page: Any) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    open_table(page, "kingdomino", 2, ["greedy"])
    rng = random.Random(3)
    placed = claimed = 0
    while not (placed and claimed):
        wait_for_turn_or_end(page)
        seq = shown(page)["seq"]
        targets = page.locator('[data-testid="my-kingdom"] [data-target="1"]')
        if targets.count():
            target = targets.nth(rng.randrange(targets.count()))
            target.focus()
            page.keyboard.press("Enter")  # selects the square
            page.wait_for_selector('[data-testid="confirm"][data-action-index]')
            page.keyboard.press("r")  # rotates to the next legal direction (or stays)
            assert page.get_by_test_id("rotate").get_attribute("data-dir") is not None
            page.get_by_test_id("confirm").focus()
            page.keyboard.press("Enter")
            placed += 1
        else:
            claim = page.locator(f'{ROOT} [data-testid^="claim-"][data-action-index]').first
            claim.focus()
            page.keyboard.press("Enter")
            claimed += 1
        wait_past(page, seq)
        # the move's redraw leaves the keyboard in the game, not at the page's top
        page.wait_for_function("""() => document.querySelector('[data-testid="game-root"]')
            .contains(document.activeElement)""")
