"""A lost connection: the server is killed (SIGKILL) mid-game; the page says so in the player's
language, a click meanwhile is refused with a message and changes nothing, and once the server
is back the page reconnects by itself, shows the same position and the game goes on to the end."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_process import ServerProcess, sqlite_arena

from tests.web.conftest import Console
from tests.web.driver import (
    ACTIONS,
    ROOT,
    open_table,
    play_to_end,
    shown,
    sign_in_as_guest,
    take_turns,
    visible,
)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with sqlite_arena(tmp_path) as server:
        yield server


@pytest.mark.parametrize(("lang", "lost", "offline"), [
    ("en", "Connection lost", "Not connected"),
    ("es", "Se perdió la conexión", "no hay conexión"),
])
def test_the_page_survives_a_server_restart(
    open_page: Any, console: Console, own_server: ServerProcess, lang: str, lost: str,
    offline: str,
) -> None:
    page = open_page("/", lang=lang, base=own_server.base)
    sign_in_as_guest(page)
    open_table(page, "kingdomino", 2, ["greedy"])
    rng = random.Random(2)
    take_turns(page, rng, 3)
    before = page.inner_html('[data-testid="game-root"]')
    seq = shown(page)["seq"]

    own_server.kill()
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert lost in notice.inner_text()
    while not visible(page, ACTIONS):  # a claim, or a square then the confirm button
        page.locator('[data-testid="my-kingdom"] [data-target="1"]').first.click()
    visible(page, ACTIONS)[0].click()
    toast = page.get_by_test_id("toast-error")
    toast.wait_for()
    assert offline in toast.inner_text()
    assert shown(page)["seq"] == seq

    own_server.start()
    notice.wait_for(state="hidden", timeout=30_000)
    page.wait_for_selector(f'{ROOT}[data-seq="{seq}"][data-mine="1"]')
    assert page.inner_html('[data-testid="game-root"]') == before
    play_to_end(page, seed=4)
    assert page.get_by_test_id("result").is_visible()
    # Closed before this test's server stops: its socket would retry then, and Chromium would
    # log the refused connection after the check below.
    page.close()
    # Chromium logs the cut event stream and each refused reconnection attempt (socket and
    # event stream); those, and only those, were expected.
    expected = ("WebSocket connection", "ERR_CONNECTION_REFUSED", "ERR_INCOMPLETE_CHUNKED_ENCODING")
    console.errors[:] = [e for e in console.errors if not any(x in e for x in expected)]
