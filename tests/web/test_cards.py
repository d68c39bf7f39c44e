"""Buttons, Kami and Goita as boards that look like games (issue 24), in Chromium against bots,
played by clicks to the end:

* a compact table: at every kind of decision, at 1366x768 and at 390x844, the player's board or
  hand, every choice and the status bar lie inside the first screen (element boxes);
* the last-move marks: at the player's turns (after a bot's move, or their own), exactly the
  keyed elements the last move added or changed are marked `just-changed`;
* the end-of-deal recap (Kami, Goita): it appears after a deal ends, and its points and totals
  are the engine's (the server's record replayed); live and in the replay it tells exactly the
  deals ended since a card was last played (a deal gone out and a Goita deal ended at once by
  6+ Shi in the same move: both, each with the totals right after it);
* the legend, in English and Spanish; axe-core finds no serious violation mid-play and at the end;
* screenshots of each game mid-play and at its end, desktop and phone, English and Spanish: into
  docs/screenshots/ with LUDOTECA_SCREENSHOTS=1, else test-artifacts/.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from ludoteca.engine.match import Match
from ludoteca.engine.record import MatchRecord
from ludoteca.games import registry
from tests.web.conftest import ARTIFACTS, ROOT, axe_violations, dump
from tests.web.driver import (
    ACTIONS,
    SELECTORS,
    click,
    engine_outcome,
    open_table,
    shown,
    shown_scores,
    sign_in_as_guest,
    take_turn,
    visible,
    wait_for_turn_or_end,
)

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SHOTS = (ROOT / "docs" / "screenshots" if os.environ.get("LUDOTECA_SCREENSHOTS") == "1"
         else ARTIFACTS)
GAME = '[data-testid="game-root"]'

RUNS = [
    # game, players, bots, language, the player's board or hand, the legend's title
    ("buttons", 2, ["greedy"], "en", "buttons-board-0", "Legend"),
    ("buttons", 3, ["greedy", "random"], "es", "buttons-board-0", "Leyenda"),
    ("kami", 2, ["greedy"], "es", "kami-hand", "Cartas y puntos"),
    ("kami", 4, ["greedy", "random", "greedy"], "en", "kami-hand", "Cards and points"),
    ("goita", 4, ["greedy", "random", "greedy"], "en", "kami-hand", "Cards and points"),
    ("goita", 4, ["random", "greedy", "random"], "es", "kami-hand", "Cartas y puntos"),
]


def decision_kind(page: Any) -> str:
    """What kind of decision the page offers, from its controls alone (a bar button's class,
    whether board cells, hand cards or a chooser are offered)."""
    found: str = page.evaluate("""() => {
        const root = document.querySelector('[data-testid="game-root"]');
        const kinds = new Set();
        for (const e of root.querySelectorAll('[data-action-index], [data-source]')) {
            if (e.closest('.kc-chooser')) kinds.add('chooser');
            else if (e.tagName === 'BUTTON') kinds.add('button:' + e.className.split(' ').pop());
            else if (e.closest('svg')) kinds.add('cell');
            else kinds.add(e.closest('[data-testid]').dataset.testid.replace(/-[a-z0-9]+$/, ''));
        }
        return [...kinds].sort().join('|');
    }""")
    return found


def assert_in_first_screen(page: Any, board: str, where: str) -> None:
    """The player's board or hand, the status bar and every choice lie inside the viewport
    with the page scrolled to its top."""
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    boxes = {"board": page.get_by_test_id(board).bounding_box()}
    bar = page.locator(f'{GAME} [data-testid$="-actions"]')
    boxes["bar"] = bar.bounding_box()
    for i, e in enumerate(visible(page, f"{GAME} [data-action-index], {GAME} [data-source]")):
        name = e.get_attribute("data-testid") or e.evaluate("e => e.textContent")[:20]
        boxes[f"choice {i} {name}"] = e.bounding_box()
    for name, box in boxes.items():
        assert box is not None, (where, name)
        inside = (box["x"] >= -0.5 and box["y"] >= -0.5
                  and box["x"] + box["width"] <= size["width"] + 0.5
                  and box["y"] + box["height"] <= size["height"] + 0.5)
        if not inside:  # what the player saw, to look at
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "cards-layout-failure.png"), full_page=True)
        assert inside, f"{where}: {name} at {box} is not inside {size}"


def check_layout(page: Any, board: str, kind: str) -> None:
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(120)
        assert_in_first_screen(page, board, f"{kind} at {label}")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(120)


def shoot(page: Any, name: str, at: str | None = None) -> None:
    """One screen at desktop and phone size, <name>-desktop-<lang>.png and -phone-<lang>.png
    (``name`` is ``<game>-<play|end>-<lang>``): the first screen, or the one that shows ``at``
    (a selector) from its top."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        page.evaluate("(at) => at ? document.querySelector(at).scrollIntoView()"
                      " : window.scrollTo(0, 0)", at)
        game_stage, lang = name.rsplit("-", 1)
        page.screenshot(path=str(SHOTS / f"{game_stage}-{label}-{lang}.png"))
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(120)


RECORD = """() => {
    // every view's keyed elements as last drawn, by the table's seq (a redraw overwrites)
    const table = document.querySelector('[data-testid="table-page"]');
    window.__frames = {};
    const record = () => {
        const root = document.querySelector('[data-testid="game-root"]');
        const keys = {};
        for (const e of root.querySelectorAll('[data-key]')) keys[e.dataset.key] = e.dataset.sig;
        window.__frames[table.dataset.seq] = keys;
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true,
        attributes: true, attributeFilter: ['data-seq', 'data-key', 'data-sig'] });
    record();
}"""


def check_marks(page: Any) -> bool:
    """The marked elements are exactly the keyed ones the last move added or changed (against
    the previous view as it was drawn). True when that move changed something keyed."""
    now: dict[str, Any] = page.evaluate("""() => {
        const root = document.querySelector('[data-testid="game-root"]');
        const seq = Number(document.querySelector('[data-testid="table-page"]').dataset.seq);
        const keys = {};
        for (const e of root.querySelectorAll('[data-key]')) keys[e.dataset.key] = e.dataset.sig;
        const marked = [...root.querySelectorAll('.just-changed')].map((e) => e.dataset.key || '?');
        return { seq, keys, marked, before: window.__frames[seq - 1] ?? null };
    }""")
    if now["before"] is None:
        return False
    changed = {k for k, sig in now["keys"].items() if now["before"].get(k) != sig}
    assert set(now["marked"]) == changed, now
    return bool(changed)


def recap_seen(page: Any) -> list[dict[str, Any]] | None:
    """The recap on screen, as it reads: every deal it tells, oldest first (a deal gone out,
    then a Goita deal ended at once by 6+ Shi), each with its title, its sentence and every
    side's total right after it."""
    if not page.locator(f'{GAME} [data-testid="kami-recap"]').count():
        return None
    ends: list[dict[str, Any]] = page.eval_on_selector_all(
        f'{GAME} [data-testid="kami-recap"] [data-testid="kami-recap-end"]',
        """parts => parts.map((p) => ({
            title: p.querySelector('h3').textContent,
            totals: [...p.querySelectorAll('[data-testid^="kami-recap-total-"]')]
                .map((e) => Number(e.dataset.points)),
            what: p.querySelector('[data-testid="kami-recap-what"]').textContent }))""")
    return ends


def engine_deal_ends(page: Any, table: str) -> list[tuple[int, str, int, list[int], int]]:
    """Every end of a deal, from the record replayed: (round, kind, points, every side's total
    right after it, the number of moves after which it came). A redeal (A6, B5) keeps its
    round's number, so a round can end twice: once redealt, once scored. One move can end
    several deals (Goita: a deal goes out and the next ends at the deal, B5), each with its
    own totals."""
    response = page.request.get(f"/api/tables/{table}/record")
    assert response.ok, response.text()
    record = MatchRecord.from_json(json.loads(response.text()))
    match = Match.unplayed(registry().game(record.game), record, narrate=False)
    found: list[tuple[int, str, int, list[int], int]] = []
    totals = [0] * len(match.state.scores)
    for moves, (seat, data) in enumerate(record.actions, start=1):
        before = len(match.state.history)
        match.step(seat, match.game.action_from_json(data))
        for rnd, who, kind, _card, _master, points, _old, after in match.state.history[before:]:
            if kind != "redeal":
                totals[match.state.cfg.side_of[who]] = after
            found.append((rnd, kind, points, totals[:], moves))
    assert totals == list(match.state.scores)
    return found


def told_by(recap: dict[str, Any], end: tuple[int, str, int, list[int], int]) -> bool:
    """Whether one deal a recap on screen tells is this end of a deal: its round, the totals
    right after it, and the points it gave (a redeal gives none)."""
    rnd, kind, points, totals, _ = end
    title = int("".join(ch for ch in recap["title"] if ch.isdigit()))
    said = "+" not in recap["what"] if kind == "redeal" else f"+{points}" in recap["what"]
    return title == rnd and recap["totals"] == totals and said


def due_at(ends: list[tuple[int, str, int, list[int], int]], moves: int
           ) -> list[tuple[int, str, int, list[int], int]]:
    """The deals the recap tells after ``moves`` moves (docs/kami.md): those scored since a
    card was last played: the last deal gone out and the deals ended at once after it."""
    scored = [e for e in ends if e[1] != "redeal" and e[4] <= moves]
    outs = [i for i, e in enumerate(scored) if e[1] == "out"]
    return scored[outs[-1]:] if outs else scored


WANTED = {"buttons": {"cell", "button:bt-primary"}, "kami": {"chooser"}, "goita": {"chooser"}}


class Seen:
    """What the matches played so far showed: decision kinds (each checked for layout), how
    many turns had their last-move marks checked, whether the first screenshot was taken."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.checked = 0
        self.shot = False

    def enough(self, game: str) -> bool:
        return self.checked > 3 and all(any(w in k for k in self.kinds) for w in WANTED[game])


def play_match(page: Any, axe_source: str, seen: Seen, rng: random.Random, game: str,
               lang: str, board: str, legend: str) -> list[dict[str, Any]]:
    """Play the open table to its end by clicks, checking layout, marks and the legend on the
    way; returns the recaps seen."""
    page.evaluate(RECORD)
    recaps: list[dict[str, Any]] = []
    legend_checked = False
    for turn in range(1500):
        wait_for_turn_or_end(page)
        if shown(page)["status"] == "finished":
            break
        page.wait_for_selector(f"{GAME} [data-testid='{board}']")
        if (r := recap_seen(page)) and r not in recaps:
            recaps.append(r)
        seen.checked += check_marks(page)
        kind = decision_kind(page)
        if kind not in seen.kinds:
            seen.kinds.add(kind)
            check_layout(page, board, kind)
        if not legend_checked:
            assert page.locator(f"{GAME} details summary", has_text=legend).count() == 1
            assert page.get_by_test_id("howto").locator("li").count() == 4  # the rules, folded
            legend_checked = True
            if game == "buttons":  # the other boards drawn beside yours, not squeezed to a line
                for other in page.locator(f"{GAME} .bt-other .bt-board-svg").all():
                    box = other.bounding_box()
                    assert box is not None and box["width"] >= 150, box
        if not seen.shot and turn >= 4:
            shoot(page, f"{game}-play-{lang}")
            assert (found := axe_violations(page, axe_source)) == [], dump(found)
            seen.shot = True
        # open a Kami chooser first, the first time one is offered and now and then after,
        # so its layout is checked too
        if (visible(page, f"{GAME} [data-source]:not([data-action-index])")
                and (not any("chooser" in k for k in seen.kinds) or rng.random() < 0.5)):
            click(rng.choice(visible(page, SELECTORS)))
            page.wait_for_selector(f'{GAME} [data-testid="kami-chooser"]')
            kind = decision_kind(page)
            if kind not in seen.kinds:
                seen.kinds.add(kind)
                check_layout(page, board, kind)
        take_turn(page, rng)
    else:
        raise AssertionError("the game did not end")
    page.wait_for_selector('[data-testid="result"]')
    if (r := recap_seen(page)) and r not in recaps:  # the last deal's, at the end
        recaps.append(r)
    return recaps


@pytest.mark.parametrize(("game", "players", "bots", "lang", "board", "legend"), RUNS,
                         ids=[f"{r[0]}-{r[1]}p-{r[3]}" for r in RUNS])
def test_a_board_that_looks_like_a_game(
    open_page: Any, axe_source: str, game: str, players: int, bots: list[str], lang: str,
    board: str, legend: str,
) -> None:
    page = open_page("/", lang=lang, viewport=DESKTOP)
    sign_in_as_guest(page)
    rng = random.Random(players * 31 + len(game))
    seen = Seen()
    # A match too short to offer every decision kind (a Goita deal can end the match at once)
    # is followed by another, up to three.
    for attempt in range(3):
        if attempt:
            page.goto("/")
            page.get_by_test_id("new-game").wait_for()
        table = open_table(page, game, players, bots)
        recaps = play_match(page, axe_source, seen, rng, game, lang, board, legend)
        if seen.enough(game):
            break
    shoot(page, f"{game}-end-{lang}", GAME)  # the board as the game ended (and its recap)
    assert (found := axe_violations(page, axe_source)) == [], dump(found)
    outcome = engine_outcome(page, table)
    assert shown_scores(page, players) == outcome["scores"]

    # Every decision kind of the game came up, and each fit the first screen (checked above).
    assert all(any(w in k for k in seen.kinds) for w in WANTED[game]), seen.kinds
    # Before the player's turns, what the last move changed was marked (and nothing else).
    assert seen.checked > 3
    if game != "buttons":
        # The recap after a deal: its round, points and totals are the engine's.
        ends = engine_deal_ends(page, table)
        assert recaps, "no recap was shown"
        for r in recaps:  # each a run of deal ends, in order, each told with its own totals
            assert any(len(r) == len(run) and all(map(told_by, r, run))
                       for run in (due_at(ends, e[4]) for e in ends)), (r, ends)
        # The replay shows the recap at the step where a deal ended: exactly the deals ended
        # since a card was last played (two when a deal went out and the next ended at once).
        base = page.url.split("#")[0]
        for moves in sorted({e[4] for e in ends if e[1] != "redeal"})[:2]:
            page.goto(f"{base}#/replay/{table}?at={moves}")
            page.get_by_test_id("replay-position").filter(has_text=f" {moves} ").wait_for()
            page.wait_for_selector(f"{GAME} [data-testid='kami-table']")
            r = recap_seen(page)
            want = due_at(ends, moves)
            assert r is not None and len(r) == len(want) and all(map(told_by, r, want)), (want, r)
    assert ACTIONS  # the driver's selectors are the ones used above
