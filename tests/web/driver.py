"""A person at the browser client, by clicks only: sign in as a guest, open a table from the
lobby form, and play whatever is legal until the game ends.

It reads what the page itself offers, never the protocol: elements of the game area carrying
``data-action-index`` send an action when clicked; ``data-target`` squares (a domino's first
half) and ``data-source`` cards (a Kami card that starts several plays) select, and the confirm
button or the chooser then carries the index. ``data-seq``, ``data-status`` and ``data-mine`` on
the table page say what it shows (``web/static/views/turn.js``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import registry

ROOT = '[data-testid="table-page"]'
ACTIONS = ('[data-testid="game-root"] [data-action-index]:not([disabled])'
           ':not([aria-disabled="true"])')
SELECTORS = ('[data-testid="game-root"] [data-target="1"], '
             '[data-testid="game-root"] [data-source]:not([data-action-index])')


def sign_in_as_guest(page: Any) -> str:
    page.get_by_test_id("lobby-guest").click()
    return str(page.get_by_test_id("me").inner_text())


def open_table(page: Any, game: str, players: int, bots: list[str | None],
               options: dict[str, Any] | None = None) -> str:
    """Fill the lobby's new-table form (seat 1 is you; ``bots[i]`` is seat i + 2's level or
    None for a person) and open the table; returns its id."""
    page.get_by_test_id("new-game").select_option(game)
    page.get_by_test_id("new-players").select_option(str(players))
    for name, value in (options or {}).items():
        field = page.locator(f'[data-option="{name}"]')
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.select_option(str(value))
    for seat, level in enumerate(bots, start=1):
        page.get_by_test_id(f"new-seat-{seat}").select_option(level or "")
    page.get_by_test_id("create").click()
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector(f"{ROOT}[data-seq]")
    return str(page.url.rsplit("/", 1)[1].split("?")[0])


def shown(page: Any) -> dict[str, str]:
    """The table page's data-seq, data-status and data-mine."""
    found: dict[str, str] = page.eval_on_selector(
        ROOT, "e => ({seq: e.dataset.seq, status: e.dataset.status, mine: e.dataset.mine})")
    return found


def wait_for_turn_or_end(page: Any, timeout: float = 60_000) -> None:
    page.wait_for_function(
        """() => { const e = document.querySelector('[data-testid="table-page"]');
                   return e && (e.dataset.mine === "1" || e.dataset.status === "finished"); }""",
        timeout=timeout)


def wait_past(page: Any, seq: str, timeout: float = 20_000) -> None:
    """Until the page shows a newer seq than ``seq`` (the click's answer arrived)."""
    page.wait_for_function(
        """(seq) => { const e = document.querySelector('[data-testid="table-page"]');
                      return e && Number(e.dataset.seq) > Number(seq); }""",
        arg=seq, timeout=timeout)


def visible(page: Any, selector: str) -> list[Any]:
    return [e for e in page.query_selector_all(selector) if e.is_visible()]


def take_turn(page: Any, rng: random.Random, patience: float = 15.0) -> None:
    """Click until one action is sent and answered: an action element if there is one (now and
    then a selector first, to try other plays), else a selector and then what it enables.

    Looking and clicking race the page's redraws (an element found can be replaced before it is
    clicked, and is then neither visible nor clickable), so this keeps looking for ``patience``
    seconds, not a number of tries; what each look found is in the failure's message."""
    seq = shown(page)["seq"]
    looks: list[str] = []
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        actions, selectors = visible(page, ACTIONS), visible(page, SELECTORS)
        looks.append(f"{len(actions)}/{len(selectors)}")
        if actions and not (selectors and rng.random() < 0.3):
            if not click(rng.choice(actions)):
                continue
            wait_past(page, seq)
            return
        if not selectors:
            page.wait_for_timeout(100)  # the renderer is still drawing the new view
            continue
        click(rng.choice(selectors))
    raise AssertionError(f"nothing to click at seq {seq} (actions/selectors seen: "
                         f"{' '.join(looks)}): {page.inner_text(ROOT)[:2000]}")


def take_turns(page: Any, rng: random.Random, count: int) -> None:
    """``count`` of this page's turns (fewer if the game ends), then wait for its next turn."""
    for _ in range(count):
        wait_for_turn_or_end(page)
        take_turn(page, rng)
    wait_for_turn_or_end(page)


def reload_and_wait(page: Any, board: str = '[data-testid="my-kingdom"]') -> None:
    """Reload, and wait until the page shows the same seq again with ``board`` drawn."""
    seq = shown(page)["seq"]
    page.reload()
    page.wait_for_selector(f'{ROOT}[data-seq="{seq}"]')
    page.wait_for_selector(board)


def click(element: Any) -> bool:
    """Click, or False when another player's move redrew the page between looking and
    clicking (the element is gone): as a person would, look again."""
    try:
        element.click()
    except PlaywrightError as exc:
        if "not attached" not in str(exc):
            raise
        return False
    return True


def play_to_end(page: Any, seed: int, on_turn: Callable[[int], None] | None = None,
                limit: int = 1500) -> int:
    """Take every turn of this page's seat until the game ends; ``on_turn(n)`` before the n-th
    action (for screenshots). Returns the number of actions sent."""
    rng = random.Random(seed)
    for turn in range(limit):
        wait_for_turn_or_end(page)
        if shown(page)["status"] == "finished":
            page.wait_for_selector('[data-testid="result"]')
            return turn
        if on_turn is not None:
            on_turn(turn)
        take_turn(page, rng)
    raise AssertionError(f"the game did not end within {limit} actions")


def shown_sides(page: Any) -> list[dict[str, Any]]:
    """The end's score table as shown, best first: per row (one per side) its seats, rank, the
    words naming it and its score."""
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        '[data-testid="result"] [data-testid^="result-side-"]',
        """rows => rows.map((r) => ({seats: r.dataset.seats.split(' ').map(Number),
            rank: Number(r.children[0].textContent), who: r.children[1].textContent,
            parts: r.querySelectorAll('.parts li').length,
            score: Number(r.children[3].textContent)}))""")
    return found


def shown_scores(page: Any, players: int) -> list[int]:
    """Each seat's score as the end shows it (partners read from their side's one row)."""
    scores: dict[int, int] = {}
    for side in shown_sides(page):
        scores.update({seat: side["score"] for seat in side["seats"]})
    return [scores[seat] for seat in range(players)]


def engine_outcome(page: Any, table: str) -> dict[str, Any]:
    """The outcome the rules engine computes from the server's record of the table."""
    response = page.request.get(f"/api/tables/{table}/record")
    assert response.ok, response.text()
    record = MatchRecord.from_json(json.loads(response.text()))
    match = Match.from_record(registry().game(record.game), record, narrate=False)
    outcome = match.outcome
    assert outcome is not None
    found: dict[str, Any] = outcome.to_json()
    return found
