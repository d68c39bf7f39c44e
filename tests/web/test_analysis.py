"""The post-game analysis and the coach in the browser (issue 25), in Chromium against a real
server whose analyses use a small budget (``LUDOTECA_ANALYSIS_BUDGET``): a guest plays a
Kingdomino match against a bot to the end, asks for the analysis on the replay page, sees its
progress and then the advantage chart and the summary, jumps to a judged move by its mark (the
played and best moves drawn on the board and said in words), retries their own mistakes in
"Learn from your mistakes" (a pass with the best move, a fail with the move they played), asks
the coach for a hint at a table that allows hints, and finds that hint marked in the replay;
axe-core finds nothing on the analysed replay, and the Spanish page says it all in Spanish.
Screenshots: test-artifacts/analysis-* (``make screenshots`` copies four to docs/screenshots/
for the README). With ``LUDOTECA_SCREENSHOTS=1`` (``make screenshots``) the server analyses at
each game's own budget instead, so the documented pictures show what a player sees; slower."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from arena_process import ServerProcess

from ludoteca.games import entry
from tests.web.conftest import ARTIFACTS, axe_violations, dump, shoot
from tests.web.driver import open_table, play_to_end, sign_in_as_guest, wait_for_turn_or_end

SCREENSHOTS = os.environ.get("LUDOTECA_SCREENSHOTS") == "1"
BUDGET = 0 if SCREENSHOTS else 4
"""Playouts per candidate move; 0 (the pictures for the docs): each game's own."""
OPPONENT = "greedy" if SCREENSHOTS else "random"
"""The bot the guest (who plays at random) meets: for the docs' pictures, one that plays
well, as a newcomer's match against the arena's bot looks."""
CHART = '[data-testid="advantage-chart"]'


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The arena of these tests: analyses at a small budget, so one takes seconds (or at the
    games' own budgets for the docs' pictures)."""
    server = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('analysis') / 'a.sqlite3'}",
                           tmp_path_factory.mktemp("analysis-run"),
                           LUDOTECA_ANALYSIS_BUDGET=str(BUDGET))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def api(page: Any, path: str) -> Any:
    """A GET with the page's own cookies (what the page could ask for itself)."""
    response = page.request.get(path)
    assert response.ok, response.text()
    return response.json()


def analyse_on_replay(page: Any, table: str) -> dict[str, Any]:
    """Open the finished table's replay, press "Analyse", see the progress, wait for the chart;
    the analysis as the page got it."""
    page.goto(f"{page.url.split('#')[0]}#/replay/{table}")
    page.get_by_test_id("analyse").click()
    page.wait_for_selector('[data-testid="analysis-progress"]')  # the parts come one by one
    page.wait_for_selector(CHART, timeout=900_000 if SCREENSHOTS else 180_000)
    state = api(page, f"/api/tables/{table}/analysis")
    assert state["status"] == "done"
    game = state["analysis"]["game"]
    assert state["budget"] == (BUDGET or entry(game).search_profile().analysis_budget)
    return dict(state["analysis"])


def screenshot(page: Any, name: str) -> None:
    """test-artifacts/<name>-desktop/-phone.png."""
    shoot(page, name)
    assert (ARTIFACTS / f"{name}-desktop.png").exists()


def position(page: Any) -> int:
    return int(page.evaluate(
        "() => Number(new URLSearchParams(location.hash.split('?')[1]).get('at'))"))


def test_analyse_a_match_jump_to_a_mistake_and_retry_it(open_page: Any, axe_source: str) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, [OPPONENT])
    play_to_end(page, seed=7)
    analysis = analyse_on_replay(page, table)

    # the chart: a line per seat, a mark per judged move, a legend, the summary table
    assert page.locator(f"{CHART} polyline").count() == 2
    judged = [m for m in analysis["moves"]
              if m["judgement"] in ("inaccuracy", "mistake", "blunder")]
    assert judged, "a guest playing at random makes mistakes"
    assert page.locator(f"{CHART} .chart-point").count() == len(judged)
    rows = page.locator('[data-testid="analysis-summary"] tbody tr')
    assert rows.count() == 2
    seat1 = analysis["seats"][1]
    assert rows.nth(1).locator("td").nth(3).inner_text() == str(seat1["judgements"]["blunder"])
    assert not axe_violations(page, axe_source), dump(axe_violations(page, axe_source))

    # a click on a mark jumps to the move: the played and the best moves, in words and drawn
    target = next(m for m in judged if m["action"]["type"] == "claim") if any(
        m["action"]["type"] == "claim" for m in judged) else judged[0]
    page.locator(f'[data-testid="chart-point-{target["ply"]}"]').click()
    page.wait_for_function("(n) => location.hash.endsWith(`at=${n}`)", arg=target["ply"])
    assert position(page) == target["ply"]
    line = page.get_by_test_id("analysis-move")
    page.wait_for_function("(n) => document.querySelector('[data-testid=\"analysis-move\"]')"
                           ".textContent.startsWith(`Move ${n},`)", arg=target["ply"] + 1)
    assert "best" in line.inner_text() and target["judgement"] in line.inner_text()
    board = page.get_by_test_id("game-root")
    board.locator('[data-testid="show-played"]').first.wait_for()
    board.locator('[data-testid="show-best"]').first.wait_for()
    # the keyboard too: Enter on another mark
    other = judged[-1] if judged[-1] is not target else judged[0]
    page.locator(f'[data-testid="chart-point-{other["ply"]}"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("(n) => location.hash.endsWith(`at=${n}`)", arg=other["ply"])
    page.locator(f'[data-testid="chart-point-{target["ply"]}"]').click()
    page.wait_for_function("(n) => location.hash.endsWith(`at=${n}`)", arg=target["ply"])
    screenshot(page, "analysis-replay-en")

    # Learn from your mistakes: the guest's own (seat 0) mistakes and blunders
    mine = [m for m in analysis["moves"]
            if m["seat"] == 0 and m["judgement"] in ("mistake", "blunder")]
    page.get_by_test_id("learn").click()
    head = page.get_by_test_id("learn-head")
    if not mine:
        head.wait_for()
        assert "no mistake" in head.inner_text()
        return
    learn = page.get_by_test_id("learn-board")
    move = mine[0]
    page.wait_for_function("(n) => document.querySelector('[data-testid=\"learn-head\"]')"
                           ".textContent.includes(`move ${n} `)", arg=move["ply"] + 1)
    verdict = page.get_by_test_id("learn-verdict")
    # the best move found passes (it loses nothing against itself) ...
    choose(learn, move["best"])
    page.wait_for_selector('[data-testid="learn-verdict"][data-passed="true"]')
    assert verdict.inner_text().startswith("Passed")
    # the replay above went to the lesson's position, its moves said there too
    assert position(page) == move["ply"]
    assert not axe_violations(page, axe_source), dump(axe_violations(page, axe_source))
    screenshot(page, "analysis-learn-en")
    # ... and the move played, a mistake or a blunder (10 points or more), fails
    choose(learn, move["action"])
    page.wait_for_selector('[data-testid="learn-verdict"][data-passed="false"]')
    assert verdict.inner_text().startswith("Not yet")
    page.get_by_test_id("learn-show-best").click()
    learn.locator('[data-testid="show-best"]').first.wait_for()


def choose(board: Any, action: dict[str, Any]) -> None:
    """Send one Kingdomino action through the renderer, as a person does (domino_kingdom.js):
    a claim is one click; a placement is its first square, turns until the confirm button
    shows its direction, and the confirm button."""
    board.locator("[data-action-index], [data-target]").first.wait_for()
    if action["type"] == "claim":
        board.locator(f'[data-testid="claim-{action["domino"]}"]').click()
        return
    if action["type"] == "discard":
        board.get_by_test_id("discard").click()
        return
    cell = f'cell-{action["x"]}-{action["y"]}'
    board.locator(f'[data-testid="my-kingdom"] [data-testid="{cell}"]').click()
    confirm = board.get_by_test_id("confirm")
    for _ in range(4):
        if confirm.get_attribute("data-dir") == action["dir"]:
            break
        board.get_by_test_id("rotate").click()
    assert confirm.get_attribute("data-dir") == action["dir"]
    confirm.click()


def test_a_hint_at_a_hints_table_and_in_the_replay(open_page: Any) -> None:
    page = open_page("/")
    sign_in_as_guest(page)
    page.locator("#new-rated").check()  # hints and "Rated" exclude each other
    page.get_by_test_id("new-hints").check()
    assert not page.locator("#new-rated").is_checked()
    page.locator("#new-rated").check()
    assert not page.get_by_test_id("new-hints").is_checked()
    page.get_by_test_id("new-hints").check()
    table = open_table(page, "kingdomino", 2, ["random"])
    wait_for_turn_or_end(page)
    page.get_by_test_id("hint").click()
    hint = page.get_by_test_id("coach-hint")
    page.wait_for_function("() => document.querySelector('[data-testid=\"coach-hint\"]')"
                           ".textContent.startsWith('Hint: ')", timeout=60_000)
    assert "chance to win" in hint.inner_text()
    page.get_by_test_id("game-root").locator('[data-testid="show-best"]').first.wait_for()
    screenshot(page, "analysis-hint-en")
    play_to_end(page, seed=3)
    replay = api(page, f"/api/tables/{table}/replay?at=0")
    assert replay["hints"] and replay["hints"][0][1] == 0
    ply = replay["hints"][0][0]
    hinted = ("() => document.querySelector('[data-testid=\"analysis-move\"]')"
              "?.textContent.includes('A hint was used')")
    page.goto(f"{page.url.split('#')[0]}#/replay/{table}?at={ply}")
    page.wait_for_function(hinted)  # said before any analysis
    analyse_on_replay(page, table)
    page.locator(f'{CHART} [data-testid="chart-hint-{ply}"]').wait_for()
    page.goto(f"{page.url.split('#')[0]}#/replay/{table}?at={ply}")
    page.wait_for_function(hinted)


def test_the_analysed_replay_in_spanish(open_page: Any, axe_source: str) -> None:
    page = open_page("/", lang="es")
    sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 2, [OPPONENT])
    play_to_end(page, seed=11)
    analyse_on_replay(page, table)
    panel = page.get_by_test_id("analysis")
    assert "Análisis" in panel.inner_text() and "Precisión" in panel.inner_text()
    # numbers as Spanish writes them: a decimal comma, never a point
    cells = page.locator('[data-testid="analysis-summary"] tbody td').all_inner_texts()
    assert any("," in c for c in cells) and not any("." in c for c in cells), cells
    label = page.locator(CHART).get_attribute("aria-label") or ""
    assert label.startswith("Gráfico de ventaja")
    page.locator(f"{CHART} .chart-point").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('[data-testid=\"analysis-move\"]')"
                           ".textContent.startsWith('Jugada ')")
    assert not axe_violations(page, axe_source), dump(axe_violations(page, axe_source))
    screenshot(page, "analysis-replay-es")


@pytest.mark.parametrize("game", ["buttons", "queendomino"])
def test_the_other_games_show_the_analysed_moves(open_page: Any, game: str) -> None:
    """Each game's *_show.js: at a judged move the played and best moves are on the board, or
    said above it when they have no place there (a roll, a pass)."""
    page = open_page("/")
    sign_in_as_guest(page)
    table = open_table(page, game, 2, ["random"])
    play_to_end(page, seed=5)
    analysis = analyse_on_replay(page, table)
    judged = [m for m in analysis["moves"]
              if m["judgement"] in ("inaccuracy", "mistake", "blunder")]
    assert judged
    for move in judged[:3]:
        # by keyboard: two judged moves in a row can draw their marks one over the other
        page.locator(f'[data-testid="chart-point-{move["ply"]}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_function("(n) => location.hash.endsWith(`at=${n}`)", arg=move["ply"])
        board = page.get_by_test_id("game-root")
        board.locator('[data-testid="show-played"], [data-testid="show-note"]').first.wait_for()
        placed = {"place", "star", "claim", "knight", "build", "dragon"}
        if move["action"]["type"] in placed:
            board.locator('[data-testid="show-played"]').first.wait_for()
    shoot(page, f"analysis-{game}")
