"""No English word on the Spanish pages (issue 24), word by word: the words the English
catalogs use (the server's, the engine's, the web shell's and every game's messages: what a
page can say) that no Spanish catalog uses, looked for in the visible text of the Spanish
lobby, the new-table form, a table of each game mid-play and at its end (result and rematch),
its replay mid-match and at the end, the player's page and the leaderboard; and no glossary
concept said with its English term (tests/i18n/glossary.py)."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest

from ludoteca.games import game_names, get_game
from tests.i18n.glossary import pairs
from tests.web.driver import (
    ROOT,
    open_table,
    play_to_end,
    sign_in_as_guest,
    take_turn,
    wait_for_turn_or_end,
)
from tests.web.test_flows import glossary_english
from tests.web.test_spanish import NAMES, TEXTS

FIELD = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[^\W\d_]+")


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(FIELD.sub(" ", text))}


@cache
def english_only() -> frozenset[str]:
    """Every word of three letters or more an English message says and no Spanish message
    does: "mode", "tiles", "waiting" are in; "bot", "total", "chat" (Spanish too) are not."""
    english: set[str] = set()
    spanish: set[str] = set()
    for pair in pairs():
        english |= words(pair.en)
        spanish |= words(pair.es)
    return frozenset(w for w in english - spanish if len(w) >= 3)


TOKEN = re.compile(r"[\w-]+")
CASE_CHANGE = re.compile(r"[a-z][A-Z]")


def generated(token: str) -> bool:
    """A token a machine made, not a word: a table id ("NOW4YhNL", "ljHqQjRz"), a seed, a hash,
    a guest's name ("guest_3fa9c1"): six characters or more mixing letters and digits, or with a
    small letter before a capital. Split at its digits, an id would read as words ("now")."""
    has_letter = any(c.isalpha() for c in token)
    return len(token) >= 6 and has_letter and (any(c.isdigit() for c in token)
                                              or CASE_CHANGE.search(token) is not None)


def english_in(text: str) -> set[str]:
    """The English words of one text, leaving out names and generated tokens."""
    text = TOKEN.sub(lambda m: " " if generated(m.group()) else m.group(), text)
    return words(NAMES.sub(" ", text)) & english_only()


def english_on(page: Any) -> list[str]:
    """The page's texts (visible text, labels, tooltips, the title) holding an English word."""
    found = []
    for text in set(page.evaluate(TEXTS)):
        hits = english_in(text)
        if hits:
            found.append(f"{text!r}: {sorted(hits)}")
    return sorted(found) + [f"glossary: {t!r}" for t in glossary_english(page)]


def test_the_word_list_sees_english() -> None:
    """The detector is not empty-handed: it holds the words a stray English string would show."""
    assert {"waiting", "rematch", "tiles", "leaderboard", "replay", "lobby"} <= english_only()
    assert not {"bot", "chat", "kami", "goita", "no"} & english_only()


def test_ids_are_not_words() -> None:
    """Table ids, seeds, hashes and guests' names never count as English; a real English word
    beside them still does (a random id once read as "now" and failed the Spanish test)."""
    assert words("NOW4YhNL") & english_only() == {"now"}  # what the filter is for
    for text in ("Goita · mesa NOW4YhNL", "Kami · mesa ljHqQjRz", "Mesa Wait3r5x",
                 "semilla 20260117, resumen 3fa9c0e1d2b4", "Turno de guest_ab12cd, Bot 2"):
        assert english_in(text) == set(), text
    assert english_in("Goita · table NOW4YhNL") == {"table"}
    assert english_in("Waiting for guest_ab12cd (Bot 2)") == {"waiting", "for"}
    assert english_in("Rematch: semilla 4821") == {"rematch"}


def test_english_pages_are_caught(open_page: Any) -> None:
    page = open_page("/", lang="en")
    sign_in_as_guest(page)
    assert len(english_on(page)) > 5


GAMES = [(name, get_game(name).spec.min_players) for name in game_names()]


@pytest.mark.parametrize(("game", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_a_spanish_match_from_the_lobby_to_the_replay(open_page: Any, game: str, players: int
                                                      ) -> None:
    page = open_page("/", lang="es")
    me = sign_in_as_guest(page)
    page.wait_for_selector('[data-testid="new-table"]')
    bad: dict[str, list[str]] = {}
    bad["lobby"] = english_on(page)
    page.get_by_test_id("new-game").select_option(game)
    page.get_by_test_id("new-players").select_option(str(players))
    bad["form"] = english_on(page)
    table = open_table(page, game, players, ["greedy"] * (players - 1))
    rng = random.Random(len(game))
    for _ in range(4):  # mid-play: the board, the seats, the log, the controls
        wait_for_turn_or_end(page)
        take_turn(page, rng)
    wait_for_turn_or_end(page)
    bad["mid-play"] = english_on(page)
    play_to_end(page, seed=7)
    page.get_by_test_id("rematch").click()  # bots accept: the rematch is made at once
    page.wait_for_function("(old) => !location.hash.includes(old)", arg=table)
    page.wait_for_selector(f'{ROOT}[data-status="playing"]')
    page.go_back()
    page.wait_for_selector('[data-testid="result"]')
    page.get_by_test_id("rematch-link").wait_for()
    bad["result"] = english_on(page)
    page.get_by_test_id("replay-link").click()
    page.get_by_test_id("replay-position").wait_for()
    page.get_by_test_id("replay-last").click()
    page.wait_for_selector('[data-testid="result"]')
    bad["replay end"] = english_on(page)
    page.goto(page.url.split("#")[0] + f"#/replay/{table}?at=3&seat=1")
    page.wait_for_function("() => /3/.test(document.querySelector("
                           "'[data-testid=\"replay-position\"]').textContent)")
    bad["replay"] = english_on(page)
    page.goto(page.url.split("#")[0] + f"#/player/{me}")
    page.get_by_test_id("account").wait_for()
    bad["player"] = english_on(page)
    page.goto(page.url.split("#")[0] + f"#/leaderboard/{game}")
    page.wait_for_selector('[data-testid="leaderboard"] :is(p, table):not(.hint)')
    bad["leaderboard"] = english_on(page)
    assert {where: found for where, found in bad.items() if found} == {}
