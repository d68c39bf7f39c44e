"""The Spanish interface shows no untranslated English: on the lobby and on a table page of each
game, mid-play and at the end, no text, label, tooltip or option is an English catalog string
that Spanish translates differently, and none holds a common English word."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from ludoteca.games import entry, game_names, get_game
from tests.web.conftest import ROOT
from tests.web.driver import (
    open_table,
    play_to_end,
    sign_in_as_guest,
    take_turn,
    wait_for_turn_or_end,
)

CATALOGS = ROOT / "ludoteca" / "web" / "static" / "i18n"
ENGLISH_WORDS = frozenset("""
the your you and with turn turns choose waiting player players round score points kingdom next
current this that for from have will must are is it on in of to by game over won wins winner
pass roll rotate place placed build claim claimed coins knights hand attack defense team seat
table free join leave undo send moves options create sign out loading lobby rated unrated live
mode minutes seconds left here there what which who empty castle crowns crown territory board
take back my move replay rematch say something public private tables play guest account
new open finished first second last line lines discard tile tiles deck unseen still shows
""".split())  # noqa: SIM905
"""Words that are English and not Spanish (so "no", "a", "bot" and "Kami" are not here)."""
NAMES = re.compile(r"guest_[0-9a-f]+|Bot \d|\b[A-Z][a-z]+domino\b|Buttons|Goita|Kami|Ludoteca")
"""Names that are the same in every language: guests, bots, the games, the site."""

TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest("script, style, noscript, .view-json")) continue;
    const text = node.nodeValue.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      const text = (el.getAttribute(name) || "").trim();
      if (text) out.push(text);
    }
  }
  out.push(document.title);
  return out;
}"""


def flat_forms(catalog: dict[str, Any]) -> dict[str, str]:
    """A catalog with each plural entry's forms as keys of their own (``key#one``)."""
    out: dict[str, str] = {}
    for key, value in catalog.items():
        if isinstance(value, dict):
            out |= {f"{key}#{form}": text for form, text in value.items()}
        else:
            out[key] = value
    return out


def english_only() -> list[re.Pattern[str]]:
    """Each English catalog string that Spanish says differently, as a whole-text pattern."""
    en = json.loads((CATALOGS / "en.json").read_text())
    es = json.loads((CATALOGS / "es.json").read_text())
    for name in game_names():  # each game's own words, from its folder
        labels = entry(name).web_labels()
        en |= {f"{name}.{k}": v for k, v in labels["en"].items()}
        es |= {f"{name}.{k}": v for k, v in labels["es"].items()}
    found = []
    for key, text in flat_forms(en).items():
        if flat_forms(es).get(key) == text or len(text) < 4:
            continue
        parts = re.split(r"\{\w+\}", text)
        found.append(re.compile(".*".join(re.escape(p) for p in parts)))
    return found


def untranslated(page: Any) -> list[str]:
    patterns = english_only()
    bad = []
    for text in sorted(set(page.evaluate(TEXTS))):
        plain = NAMES.sub(" ", text)
        words = {w.lower() for w in re.findall(r"[A-Za-z]+", plain)}
        if words & ENGLISH_WORDS or any(p.fullmatch(text) for p in patterns):
            bad.append(text)
    return bad


def test_the_spanish_lobby_is_all_spanish(open_page: Any) -> None:
    english = open_page("/", lang="en")
    assert len(untranslated(english)) > 5  # the detector does see English
    page = open_page("/", lang="es")
    assert page.locator("html").get_attribute("lang") == "es"
    assert untranslated(page) == []
    sign_in_as_guest(page)
    page.wait_for_selector('[data-testid="new-table"]')
    for game in game_names():
        page.get_by_test_id("new-game").select_option(game)
        for players in page.get_by_test_id("new-players").locator("option").all_inner_texts():
            page.get_by_test_id("new-players").select_option(players)
            assert untranslated(page) == [], (game, players)


GAMES = [(name, get_game(name).spec.min_players, ["greedy"] * (get_game(name).spec.min_players - 1))
         for name in game_names()]  # every game, at its fewest players, against greedy bots


@pytest.mark.parametrize(("game", "players", "bots"), GAMES, ids=[g[0] for g in GAMES])
def test_a_spanish_table_page_is_all_spanish(
    open_page: Any, game: str, players: int, bots: list[str]
) -> None:
    page = open_page("/", lang="es")
    sign_in_as_guest(page)
    open_table(page, game, players, bots)
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(6):
        wait_for_turn_or_end(page)
        seen.update(untranslated(page))
        take_turn(page, rng)
    play_to_end(page, seed=5)
    seen.update(untranslated(page))
    assert sorted(seen) == []
