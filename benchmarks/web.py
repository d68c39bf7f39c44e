"""The browser client's weight and speed, in Debian's Chromium against a real ``ludoteca serve``.

1. Page weight: bytes transferred for the first load of a table page with an empty cache (HTTP
   headers + bodies as Chromium counts them, and the WebSocket's first message), per game, and
   the time from navigation to the board drawn.
2. Click to move shown: two people play Kingdomino live in two browser contexts; for every move,
   the time from the mover's click (a capture listener) to the other page's table showing the new
   seq (a MutationObserver), both read on the same clock (``performance.timeOrigin + now()``).

    python benchmarks/web.py [--games 3]

Needs /usr/bin/chromium (``apt-get install chromium``) and Playwright for Python (the test
extra); never Playwright's own browser download.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests" / "support"))

from arena_process import sqlite_arena  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from ludoteca.games import game_names, get_game  # noqa: E402
from tests.web.driver import (  # noqa: E402
    ROOT,
    open_table,
    shown,
    sign_in_as_guest,
    take_turn,
    wait_past,
)

CHROMIUM = "/usr/bin/chromium"
GAMES = [(name, get_game(name).spec.min_players, ["greedy"] * (get_game(name).spec.min_players - 1))
         for name in game_names()]  # every game, at its fewest players, against greedy bots

CLICK_CLOCK = """() => { window.__clicks = [];
  document.addEventListener("click",
    () => window.__clicks.push(performance.timeOrigin + performance.now()), true); }"""
SEQ_CLOCK = """() => { window.__seqAt = {};
  const root = document.querySelector('[data-testid="table-page"]');
  new MutationObserver(() => { const s = root.dataset.seq;
    if (!(s in window.__seqAt)) window.__seqAt[s] = performance.timeOrigin + performance.now(); })
    .observe(root, { attributes: true, attributeFilter: ["data-seq"] }); }"""


def page_weight(browser: Any, base: str) -> list[dict[str, Any]]:
    """Per game: a fresh context signs in and opens a table (not counted), then a second fresh
    context with the same session cookie loads the table page with an empty cache (counted)."""
    out = []
    for game, players, bots in GAMES:
        setup = browser.new_context(base_url=base)
        page = setup.new_page()
        page.goto(base + "/")
        sign_in_as_guest(page)
        table = open_table(page, game, players, bots)
        cookies = setup.cookies()
        setup.close()

        context = browser.new_context(base_url=base)
        context.add_cookies(cookies)
        page = context.new_page()
        sizes: list[int] = []
        names: list[str] = []
        ws_bytes: list[int] = []
        page.on("requestfinished", lambda r, s=sizes, n=names: (
            s.append(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"]
                     + r.sizes()["requestHeadersSize"]), n.append(r.url)))
        page.on("websocket", lambda ws, b=ws_bytes: ws.on(
            "framereceived", lambda f: b.append(len(f if isinstance(f, bytes) else f.encode()))))
        start = time.perf_counter()
        page.goto(f"{base}/#/table/{table}")
        page.wait_for_selector('[data-testid="game-root"] svg, [data-testid="game-root"] .kc-card')
        drawn = time.perf_counter() - start
        page.wait_for_load_state("networkidle")
        out.append({"game": game, "requests": len(sizes), "http_bytes": sum(sizes),
                    "ws_first": ws_bytes[0] if ws_bytes else 0, "drawn_ms": drawn * 1000})
        context.close()
    return out


def click_to_shown(browser: Any, base: str, games: int) -> tuple[list[float], list[float]]:
    """Milliseconds from a click to the move on the other page, and on the mover's own page."""
    other_ms: list[float] = []
    own_ms: list[float] = []
    rng = random.Random(1)
    for _ in range(games):
        a_ctx, b_ctx = browser.new_context(base_url=base), browser.new_context(base_url=base)
        alice, bob = a_ctx.new_page(), b_ctx.new_page()
        alice.goto(base + "/")
        sign_in_as_guest(alice)
        table = open_table(alice, "kingdomino", 2, [None])
        bob.goto(f"{base}/#/table/{table}")
        bob.get_by_test_id("guest").click()
        bob.get_by_test_id("join-1").click()
        for page in (alice, bob):
            page.wait_for_function(
                f"() => document.querySelector('{ROOT}').dataset.status === 'playing'")
            page.evaluate(CLICK_CLOCK)
            page.evaluate(SEQ_CLOCK)
        while shown(alice)["status"] != "finished":
            actor = alice if shown(alice)["mine"] == "1" else bob if shown(bob)["mine"] == "1" \
                else None
            if actor is None:
                alice.wait_for_timeout(20)
                continue
            other = bob if actor is alice else alice
            before = shown(other)["seq"]
            clicks = actor.evaluate("() => window.__clicks.length")
            take_turn(actor, rng)
            wait_past(other, before)
            seq = shown(actor)["seq"]
            clicked = actor.evaluate("() => window.__clicks[window.__clicks.length - 1]")
            assert actor.evaluate("() => window.__clicks.length") > clicks
            other_ms.append(other.evaluate(f"() => window.__seqAt['{seq}']") - clicked)
            own_ms.append(actor.evaluate(f"() => window.__seqAt['{seq}']") - clicked)
        a_ctx.close()
        b_ctx.close()
    return other_ms, own_ms


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="live Kingdomino games to time")
    args = parser.parse_args()
    with (tempfile.TemporaryDirectory() as folder, sync_playwright() as p,
          sqlite_arena(Path(folder)) as server):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            print("First load of a table page (empty cache, signed in, seated):")
            print(f"  {'game':<12} {'requests':>8} {'HTTP KiB':>9} {'WS first KiB':>13} "
                  f"{'board drawn':>12}")
            for row in page_weight(browser, server.base):
                print(f"  {row['game']:<12} {row['requests']:>8} {row['http_bytes'] / 1024:>9.1f} "
                      f"{row['ws_first'] / 1024:>13.1f} {row['drawn_ms']:>9.0f} ms")
            other, own = click_to_shown(browser, server.base, args.games)
            print(f"\nClick to move shown, live Kingdomino, {len(other)} moves "
                  f"in {args.games} games (ms):")
            for label, values in [("other player's page", other), ("mover's own page", own)]:
                print(f"  {label:<20} median {statistics.median(values):6.1f}   "
                      f"p95 {pct(values, 0.95):6.1f}   max {max(values):6.1f}")
            print(f"  ratio other/own (median): "
                  f"{statistics.median(other) / statistics.median(own):.2f}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
