"""The compact table (issue 24), in Chromium against bots: at every decision a Kingdomino or
Queendomino player meets (draft, claim, place, discard, knight, build, dragon, pass), the
player's kingdom, the choices and the confirm control are inside the first screen at 1366x768
with the page not scrolled; on a 390x844 phone the lines and the player's kingdom share one
screen. Asserted from element boxes. Screenshots of each game mid-play and at the end, desktop
and phone, English and Spanish: into docs/screenshots/ with LUDOTECA_SCREENSHOTS=1, else into
test-artifacts/.

And (issue 38) every table the registry allows, each game at each player count and each option
that only some counts have (Royal Wedding, team play...), with bots in the other seats, at its
first decision (English and Spanish) and two turns on, desktop and phone: no two visible texts
drawn over each other, the viewer's own area (``data-own``) and choices in the first screen.
The whole games above check the overlaps too, at the first of each kind of decision screen and
at the end."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from ludoteca.games import registry
from tests.web.conftest import ARTIFACTS, ROOT, dump
from tests.web.driver import (
    open_table,
    shown,
    sign_in_as_guest,
    take_turn,
    take_turns,
    wait_for_turn_or_end,
)

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


BOXES = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.checkVisibility({ visibilityProperty: true }))
  .map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0)
  .map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height }))"""


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    """The boxes of the visible elements matching ``selector``, measured in one evaluation (a
    redraw cannot come between finding an element and measuring it)."""
    found: list[dict[str, float]] = page.evaluate(BOXES, selector)
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


def switch_language(page: Any, lang: str, ready: str = KINGDOM) -> None:
    """Change the interface language from the header; the table page opens again in it (and
    draws ``ready``)."""
    seq = shown(page)["seq"]
    page.get_by_test_id("lang").select_option(lang)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
    page.wait_for_selector(f'[data-testid="table-page"][data-seq="{seq}"]')
    page.wait_for_selector(ready)


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
    screens: set[tuple[str, ...]] = set()
    turn = 0
    while True:
        wait_for_turn_or_end(page)
        if shown(page)["status"] == "finished":
            break
        page.wait_for_selector(KINGDOM)
        page.wait_for_function(
            "(s) => document.querySelectorAll(s).length > 0",
            arg=", ".join(choices for _, choices, _ in DECISIONS))
        found = assert_first_screen(page, DESKTOP, phone=False)
        new = tuple(found) not in screens  # overlaps: once per kind of decision screen (time)
        screens.add(tuple(found))
        met.update(found)
        if new:
            assert_no_overlap(page, f"{game} {players}p turn {turn} {found} desktop")
        page.set_viewport_size(PHONE)
        assert_first_screen(page, PHONE, phone=True)
        if new:
            assert_no_overlap(page, f"{game} {players}p turn {turn} {found} phone")
        page.set_viewport_size(DESKTOP)
        if turn == mid and players == 2:
            photograph(page, f"{game}-play", DESKTOP)
        take_turn(page, rng)
        turn += 1
    page.wait_for_selector('[data-testid="result"]')
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONE)):  # the end screen
        page.set_viewport_size(size)
        assert_no_overlap(page, f"{game} {players}p end {size_name}")
    page.set_viewport_size(DESKTOP)
    if players == 2:
        photograph(page, f"{game}-end", DESKTOP, full=True)
    expected = {"claim", "place"} | ({"pass"} if game == "queendomino" else set())
    assert expected <= met, (game, sorted(met))


# ---- every game at every player count (issue 38) -------------------------------------------

OVERLAPS = """() => {
  // Every visible piece of text on the page (HTML and SVG), as the boxes of its lines, cut to
  // what its scrolling or clipping ancestors let show; then every two pieces of text that
  // cover each other by more than a sliver (adjacent lines' glyph boxes touch, that is no
  // overlap: each side must be covered by 3 px and a third of the smaller text's height).
  const clips = new Map();
  const clipOf = (el) => {
    if (!el) return { l: -1e9, t: -1e9, r: 1e9, b: 1e9 };
    if (clips.has(el)) return clips.get(el);
    let c = clipOf(el.parentElement);
    const cs = getComputedStyle(el);
    if (cs.overflowX !== "visible" || cs.overflowY !== "visible" || cs.clipPath !== "none"
        || cs.clip !== "auto") {
      const r = el.getBoundingClientRect();
      c = { l: Math.max(c.l, r.left), t: Math.max(c.t, r.top), r: Math.min(c.r, r.right),
            b: Math.min(c.b, r.bottom) };
    }
    clips.set(el, c);
    return c;
  };
  const pieces = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.nodeValue.trim() || el.closest("script, style, noscript, title, desc")) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const clip = clipOf(el), range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const box = { l: Math.max(r.left, clip.l), t: Math.max(r.top, clip.t),
                    r: Math.min(r.right, clip.r), b: Math.min(r.bottom, clip.b) };
      if (box.r - box.l > 1 && box.b - box.t > 1) pieces.push({ node, box, h: r.height });
    }
  }
  const say = (p) => {
    const el = p.node.parentElement, id = el.closest("[data-testid]");
    return `${JSON.stringify(p.node.nodeValue.trim().slice(0, 40))} (${el.tagName.toLowerCase()}`
      + `${id ? " in " + id.dataset.testid : ""} @${Math.round(p.box.l)},${Math.round(p.box.t)})`;
  };
  const found = [];
  for (let i = 0; i < pieces.length; i++) {
    for (let j = i + 1; j < pieces.length; j++) {
      const a = pieces[i], b = pieces[j];
      if (a.node === b.node) continue;
      const w = Math.min(a.box.r, b.box.r) - Math.max(a.box.l, b.box.l);
      const h = Math.min(a.box.b, b.box.b) - Math.max(a.box.t, b.box.t);
      if (w > 3 && h > 3 && h > Math.min(a.h, b.h) / 3) found.push(say(a) + " × " + say(b));
    }
  }
  return found.slice(0, 12);
}"""

OWN = f'{GAME} [data-own="1"]'
CHOICES = (f'{GAME} [data-action-index]:not([disabled]), {GAME} [data-target="1"], '
           f'{GAME} [data-source]')
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def assert_no_overlap(page: Any, where: str) -> None:
    """No two visible texts of the page (scrolled to the top, no tooltip open, no slide under
    way) cover each other."""
    page.evaluate("() => window.scrollTo(0, 0)")
    page.mouse.move(0, 0)  # no tooltip open where the pointer happened to be
    page.wait_for_function(SETTLED)
    overlaps = page.evaluate(OVERLAPS)
    assert overlaps == [], f"texts drawn over each other at {where}: {dump(overlaps)}"


def tables() -> list[tuple[str, int, dict[str, Any]]]:
    """Every table the registry allows, by layout: each game at each player count with its
    default options, and each option that only some player counts have (Royal Wedding, team
    play, the Mighty Duel, a 3-player draft...) at each of them with every other value. The
    options are those the game itself settles on (6-player Queendomino is Royal Wedding)."""
    found: list[tuple[str, int, dict[str, Any]]] = []
    for name in registry().names():
        game = registry().game(name)
        spec = game.spec
        asked: list[tuple[int, dict[str, Any]]] = [
            (n, {}) for n in range(spec.min_players, spec.max_players + 1)]
        for option in spec.options:
            others = [not option.default] if option.type is bool else [
                c for c in option.choices if c != option.default]
            asked += [(n, {option.name: value}) for n in option.players for value in others]
        for players, options in asked:
            settled = game.validate(options, players)
            defaults = {o.name: o.default for o in spec.options}
            table = (name, players, {k: v for k, v in settled.items()
                                     if k in defaults and v != defaults[k]})
            if table not in found:
                found.append(table)
    return found


TABLES = tables()


def assert_fits(page: Any, viewport: dict[str, int], where: str, choices: bool = True) -> None:
    """At ``viewport``, the page not scrolled: no two visible texts cover each other, and the
    viewer's own area and (when ``choices``) every choice drawn are inside the screen."""
    page.set_viewport_size(viewport)
    assert_no_overlap(page, where)
    wanted = (("own area", OWN), ("choices", CHOICES))[:2 if choices else 1]
    page.wait_for_function("(all) => all.every((s) => document.querySelector(s))",
                           arg=[selector for _, selector in wanted])
    for what, selector in wanted:
        drawn = boxes(page, selector)
        assert drawn, f"no {what} drawn at {where}"
        off = [b for b in drawn if outside(b, viewport)]
        assert not off, f"{what} outside the first screen at {where}: {dump(off[:3])}"


@pytest.mark.parametrize(("game", "players", "options"), TABLES,
                         ids=[f"{g}-{n}p" + "".join(f"-{k}={v}" for k, v in o.items())
                              for g, n, o in TABLES])
def test_every_table_fits_and_nothing_overlaps(
    open_page: Any, game: str, players: int, options: dict[str, Any],
) -> None:
    """The first decision of every table the registry allows (bots in the other seats), on a
    desktop and on a phone, in English and in Spanish (longer words): the first screen holds
    the player's own area and choices, and no two texts are drawn over each other. Then two
    turns on (full lines, a Queendomino turn's optional steps), the same on a desktop; on a
    phone, the own area and no overlap (the rest of a turn's choices may be a scroll away)."""
    page = open_page("/", viewport=DESKTOP)
    sign_in_as_guest(page)
    open_table(page, game, players, ["random"] * (players - 1), options)
    wait_for_turn_or_end(page)
    page.wait_for_selector(CHOICES)

    def check(moment: str, lang: str, phone_choices: bool) -> None:
        for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
            where = f"{game} {players}p {options} {moment} {name} {lang}"
            try:
                assert_fits(page, size, where, choices=name == "desktop" or phone_choices)
            except AssertionError:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(
                    ARTIFACTS / f"layout-{game}-{players}p-{moment}-{name}-{lang}.png"))
                raise
        page.set_viewport_size(DESKTOP)

    check("first", "en", phone_choices=True)
    switch_language(page, "es", ready=CHOICES)
    check("first", "es", phone_choices=True)
    take_turns(page, random.Random(players), 2)
    if shown(page)["status"] != "finished":
        page.wait_for_selector(CHOICES)
        check("third", "es", phone_choices=False)


def test_a_table_is_shown_only_once_its_stylesheet_has_arrived(open_page: Any) -> None:
    """A renderer links its game's stylesheet as it first draws (dom.js ensureCss). Until the
    sheet arrives the game area stays hidden: drawn unstyled, each Kami card's SVG is as wide
    as the page and the player's own hand runs 6,000 pixels down (a CI run measured it, the
    sheet slow on a busy machine). The sheet is held back here until the table has drawn."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page = open_page("/", viewport=DESKTOP)
    page.route("**/kami.css", hold)
    sign_in_as_guest(page)
    open_table(page, "kami", 2, ["random"])
    page.wait_for_selector(OWN, state="attached")
    for _ in range(100):  # the route's handler runs while the driver waits
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the stylesheet was requested"
    hidden = page.eval_on_selector(
        GAME, "(e) => !e.checkVisibility({ visibilityProperty: true })")
    assert hidden, "the game area is hidden while its stylesheet is on its way"
    assert not boxes(page, OWN), "nothing of the own area is drawn unstyled"
    for route in held:
        route.continue_()
    wait_for_turn_or_end(page)
    page.wait_for_selector(CHOICES)
    assert_fits(page, DESKTOP, "kami 2p, the sheet held back then let through")
