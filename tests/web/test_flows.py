"""The flows around the table (issue 24): the header's count of turn-based tables waiting for
your move and the title's "(1)", live between two browsers; the lobby listing those tables
first; "Rated" disabled with a bot; the display name set from one's own player page; and the
sign-in, lobby and player pages free of a stray "null" and, in Spanish, of English words
(the glossary's terms among them)."""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

import pytest

from tests.i18n.glossary import concepts
from tests.web.conftest import Console, axe_violations, dump, shoot
from tests.web.driver import open_table, shown, sign_in_as_guest, take_turn, wait_for_turn_or_end
from tests.web.test_spanish import NAMES, TEXTS, untranslated

BADGE = '[data-testid="waiting-badge"]'


def badge(page: Any) -> str:
    """The header's count as shown: "" when hidden."""
    found: str = page.eval_on_selector(BADGE, "e => e.hidden ? '' : e.textContent")
    return found


def wait_for_badge(page: Any, text: str) -> None:
    page.wait_for_function("""(text) => {
        const e = document.querySelector('[data-testid="waiting-badge"]');
        return e && (e.hidden ? "" : e.textContent) === text; }""", arg=text, timeout=30_000)


def wait_for_title(page: Any, pattern: str) -> None:
    page.wait_for_function("(p) => new RegExp(p).test(document.title)", arg=pattern,
                           timeout=30_000)


def mine(page: Any) -> bool:
    return bool(shown(page)["mine"] == "1")


def test_the_badge_and_the_title_follow_the_other_players_move(open_page: Any,
                                                               axe_source: str) -> None:
    """Ana and Ben at a turn-based table: whoever waits sits in the lobby; when the other moves
    and the decision passes to them, their header's badge says 1 and the title "(1) Ludoteca",
    live, and the lobby lists that table first; when they answer, both drop again."""
    ana = open_page("/")
    sign_in_as_guest(ana)
    ana.get_by_test_id("new-mode").select_option("turn")
    tid = open_table(ana, "kami", 2, [None])
    ben = open_page("/")
    sign_in_as_guest(ben)
    ben.get_by_test_id(f"join-{tid}").click()
    ben.wait_for_url(f"**/#/table/{tid}")
    for page in (ana, ben):
        page.wait_for_selector('[data-testid="table-page"][data-status="playing"]')
    mover, waiter = (ana, ben) if mine(ana) else (ben, ana)
    assert mine(mover) and not mine(waiter)
    wait_for_title(mover, r"^\(1\) ")  # the table page's own title, with the count before it
    assert badge(mover) == "1"
    waiter.goto(waiter.url.split("#")[0] + "#/")
    waiter.wait_for_selector('[data-testid="my-tables"] [data-table]')
    assert badge(waiter) == "" and not waiter.title().startswith("(")

    rng = random.Random(7)
    while mine(mover):  # until the decision passes to the waiter (Kami: one card a turn)
        take_turn(mover, rng)
    wait_for_badge(waiter, "1")
    wait_for_title(waiter, r"^\(1\) Ludoteca$")
    assert "1" in (waiter.get_attribute(BADGE, "aria-label") or "")
    # the list is read again after the event that moved the badge: wait for it
    waiter.wait_for_selector(f'[data-testid="my-tables"] [data-table="{tid}"][data-waiting="1"]')
    first = waiter.locator('[data-testid="my-tables"] [data-table]').first
    assert first.get_attribute("data-table") == tid and first.get_attribute("data-waiting") == "1"
    assert (found := axe_violations(waiter, axe_source)) == [], dump(found)  # badge shown
    shoot(waiter, "lobby-waiting")  # and at phone width, nothing wider than the screen
    wait_for_badge(mover, "")
    wait_for_title(mover, r"^(?!\()")

    # the waiter answers at the table: their count drops, the other's rises
    waiter.get_by_test_id("my-tables").locator(f'[data-table="{tid}"] a').click()
    waiter.wait_for_selector('[data-testid="table-page"][data-mine="1"]')
    while mine(waiter) and shown(waiter)["status"] == "playing":
        take_turn(waiter, rng)
    wait_for_badge(waiter, "")
    wait_for_title(waiter, r"^(?!\()")
    wait_for_turn_or_end(mover)
    if shown(mover)["status"] == "playing":
        wait_for_badge(mover, "1")
        wait_for_title(mover, r"^\(1\) ")


def test_rated_is_disabled_with_a_bot_and_says_why(open_page: Any) -> None:
    page = open_page("/", lang="es")
    sign_in_as_guest(page)
    rated = page.locator('input[name="rated"]')
    why = page.get_by_test_id("rated-why")
    page.get_by_test_id("new-game").select_option("kingdomino")
    page.get_by_test_id("new-players").select_option("3")
    assert rated.is_enabled() and not why.is_visible()
    rated.check()
    page.get_by_test_id("new-seat-2").select_option("greedy")
    assert rated.is_disabled() and not rated.is_checked()
    assert why.is_visible() and "personas" in why.inner_text()
    assert rated.get_attribute("aria-describedby") == why.get_attribute("id")
    page.get_by_test_id("new-seat-2").select_option("")
    assert rated.is_enabled() and not why.is_visible()
    # fewer players drop the bot's seat: nothing holds "Rated" back any more
    page.get_by_test_id("new-seat-2").select_option("random")
    assert rated.is_disabled()
    page.get_by_test_id("new-players").select_option("2")
    assert rated.is_enabled() and not why.is_visible()


def test_the_display_name_is_set_from_ones_own_page(open_page: Any, console: Console) -> None:
    page = open_page("/")
    name = sign_in_as_guest(page)
    page.get_by_test_id("me").click()
    field = page.get_by_test_id("display-name")
    assert field.input_value() == name
    # refused by the server's name rule: said, and nothing changes
    field.fill("admin")
    page.get_by_test_id("save-display-name").click()
    page.get_by_test_id("toast-error").wait_for()
    assert page.get_by_test_id("me").inner_text() == name
    # the browser logs the refusal we asked for
    console.errors.remove("console: Failed to load resource: the server responded with a "
                          "status of 400 (Bad Request)")
    wanted = "Ana María " + secrets.token_hex(2)
    field.fill(wanted)
    page.get_by_test_id("save-display-name").click()
    page.get_by_test_id("toast-info").filter(has_text=wanted).wait_for()
    page.get_by_test_id("me").filter(has_text=wanted).wait_for()
    page.get_by_test_id("player-name").filter(has_text=wanted).wait_for()
    assert page.request.get("/api/me").json()["display_name"] == wanted
    # the sign-in name stays the account's, shown beside the display name
    assert name in page.locator("main").inner_text()


NULLS = """() => {
  const found = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const bad = /\\b(null|undefined|NaN)\\b/;
  while (w.nextNode()) if (bad.test(w.currentNode.nodeValue)) found.push(w.currentNode.nodeValue);
  for (const el of document.body.querySelectorAll("*"))
    for (const a of el.attributes)
      if (/^(null|undefined|NaN)$/.test(a.value)) found.push(`${el.tagName} ${a.name}=${a.value}`);
  return found;
}"""


def named_account(page: Any) -> str:
    name = "Nombre" + secrets.token_hex(3)
    page.goto(page.url.split("#")[0] + "#/signin")
    signup = page.get_by_test_id("signup-form")
    signup.locator('input[name="name"]').fill(name)
    signup.locator('input[name="password"]').fill("correct horse")
    signup.get_by_role("button").click()
    page.get_by_test_id("me").filter(has_text=name).wait_for()
    return name


def check_pages(page: Any, who: str, lang: str) -> None:
    base = page.url.split("#")[0]
    for path in ("#/signin", "#/", f"#/player/{who}"):
        page.goto(base + path)
        page.wait_for_selector("main h1")
        if "player" in path:
            page.get_by_test_id("account").wait_for()
        elif path == "#/":
            page.wait_for_selector('[data-testid="lobby-list"] li')
        assert page.evaluate(NULLS) == [], (lang, path)
        if lang == "es":
            assert untranslated(page) == [], path
            assert glossary_english(page) == [], path


def glossary_english(page: Any) -> list[str]:
    """Texts of the page that say a glossary term in English."""
    terms = [c.en for c in concepts()]
    bad = []
    for text in set(page.evaluate(TEXTS)):
        plain = NAMES.sub(" ", text)
        if any(term.search(plain) for term in terms):
            bad.append(text)
    return sorted(bad)


def test_no_null_and_no_english_on_the_sign_in_lobby_and_player_pages(open_page: Any) -> None:
    """A visitor, a guest and a named account (whose display name is the sign-in name), in
    English and Spanish."""
    for lang in ("en", "es"):
        page = open_page("/#/signin", lang=lang)
        page.wait_for_selector('[data-testid="signin-form"]')
        assert page.evaluate(NULLS) == [], lang
        if lang == "es":
            assert untranslated(page) == [] and glossary_english(page) == []
        guest = sign_in_as_guest_from_signin(page)
        check_pages(page, guest, lang)
        named = open_page("/", lang=lang)
        check_pages(named, named_account(named), lang)
    english = open_page("/", lang="en")
    assert glossary_english(english), "the check does see English terms"
    assert re.search(r"\(\d+\)", english.title()) is None


def sign_in_as_guest_from_signin(page: Any) -> str:
    page.get_by_test_id("guest-form").click()
    return str(page.get_by_test_id("me").inner_text())


@pytest.mark.parametrize("size", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_the_new_table_button_is_in_sight_however_long_the_form(open_page: Any,
                                                                  size: dict[str, int]) -> None:
    """Kingdomino's options make the form taller than a laptop's screen: its button stays at the
    foot of the screen, and opens the table from there."""
    page = open_page("/", viewport=size)
    sign_in_as_guest(page)
    page.get_by_test_id("new-game").select_option("kingdomino")
    # from the form's top (a phone shows the lobby's tables above it)
    form = page.get_by_test_id("create").evaluate(
        "b => { b.form.scrollIntoView(); return b.form.getBoundingClientRect().height; }")
    assert form > size["height"] * 0.8  # taller than the screen
    box = page.get_by_test_id("create").bounding_box()
    assert box is not None and box["y"] + box["height"] <= size["height"] + 0.5, box
    page.get_by_test_id("create").click()
    page.wait_for_url("**/#/table/*")
