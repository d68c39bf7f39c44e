"""Email in the browser, against an arena that sends to an SMTP server this test runs
(tests/support/mail_sink.py): add an address on the settings page and confirm it from the
captured message's link, save notification choices and quiet hours, then reset a forgotten
password from the emailed link, in Spanish at phone width; in English, the settings page's
words; and an arena without SMTP shows nothing about email."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from arena_process import ServerProcess
from mail_sink import Sink

from tests.server.client import CLIENT
from tests.web.conftest import PHONE, shoot

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def mail_arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Sink]]:
    sink = Sink()
    folder = tmp_path_factory.mktemp("mail-arena")
    server = ServerProcess(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                           LUDOTECA_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
                           LUDOTECA_MAIL_FROM="arena@ludoteca.test")
    server.env["LUDOTECA_PUBLIC_URL"] = server.base
    server.start()
    try:
        yield server, sink
    finally:
        server.stop()
        sink.close()


def link(sink: Sink, to: str, pattern: str) -> str:
    message = sink.to(to)
    text = message.get_body(("plain",))
    assert text is not None
    found = re.search(pattern, text.get_content())
    assert found is not None, text.get_content()
    return found[0]


def sign_up(page: Any, name: str) -> None:
    page.goto(page.url.split("#")[0] + "#/signin")
    form = page.get_by_test_id("signup-form")
    form.locator('input[name="name"]').fill(name)
    form.locator('input[name="password"]').fill(PASSWORD)
    form.get_by_role("button").click()
    page.get_by_test_id("me").filter(has_text=name).wait_for()


def test_confirm_choose_and_reset_in_spanish_on_a_phone(
    open_page: Any, mail_arena: tuple[ServerProcess, Sink]
) -> None:
    server, sink = mail_arena
    page = open_page("/#/signin", lang="es", viewport=PHONE, base=server.base)
    name = "Correo" + secrets.token_hex(3)
    address = f"{name.lower()}@x.test"
    sign_up(page, name)
    page.get_by_test_id("me").click()
    page.get_by_test_id("settings-link").click()
    page.get_by_test_id("email-form").wait_for()
    assert "Notificaciones" in page.locator("h1").inner_text()
    page.get_by_test_id("email-input").fill(address)
    page.get_by_test_id("email-save").click()
    page.get_by_test_id("email-pending").filter(has_text=address).wait_for()
    confirm = link(sink, address, r"http://\S+#/email/confirm\?token=\S+")
    page.goto(confirm)
    page.get_by_test_id("confirm-done").filter(has_text=address).wait_for()

    page.goto(server.base + "/#/settings")
    page.get_by_test_id("email-state").filter(has_text="confirmada").wait_for()
    page.get_by_test_id("notify-finished-email").check()
    page.get_by_test_id("notify-turn-page").uncheck()
    page.get_by_test_id("quiet-start").fill("22:30")
    page.get_by_test_id("quiet-end").fill("07:00")
    page.get_by_test_id("time-zone").select_option("Europe/Madrid")
    page.get_by_test_id("notify-save").click()
    page.get_by_test_id("toast-info").filter(has_text="guardadas").wait_for()
    shoot(page, "notification-settings")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    with httpx.Client(base_url=server.base, headers=CLIENT, cookies=cookies) as client:
        prefs = client.get("/api/notifications").json()
    assert prefs["prefs"]["finished"]["email"] is True
    assert prefs["prefs"]["turn"]["page"] is False
    assert (prefs["quiet_start"], prefs["quiet_end"], prefs["time_zone"]) == (
        "22:30", "07:00", "Europe/Madrid")

    page.get_by_test_id("signout").click()
    page.locator('#header a[href="#/signin"]').click()
    page.get_by_test_id("forgot-link").click()
    form = page.get_by_test_id("forgot-form")
    form.locator('input[name="email"]').fill(address)
    form.get_by_role("button").click()
    page.get_by_test_id("forgot-sent").wait_for()
    reset = link(sink, address, r"http://\S+#/reset\?token=\S+")
    page.goto(reset)
    page.get_by_test_id("reset-form").locator('input[name="password"]').fill("battery staple")
    page.get_by_test_id("reset-submit").click()
    page.get_by_test_id("signin-form").wait_for()
    signin = page.get_by_test_id("signin-form")
    signin.locator('input[name="name"]').fill(name)
    signin.locator('input[name="password"]').fill("battery staple")
    signin.get_by_role("button").click()
    page.get_by_test_id("me").filter(has_text=name).wait_for()


def test_the_settings_page_in_english(open_page: Any,
                                      mail_arena: tuple[ServerProcess, Sink]) -> None:
    server, _ = mail_arena
    page = open_page("/#/signin", lang="en", base=server.base)
    sign_up(page, "Mail" + secrets.token_hex(3))
    page.goto(server.base + "/#/settings")
    page.get_by_test_id("notify-form").wait_for()
    text = page.locator("main").inner_text()
    assert "Your turn at a turn-based table" in text and "Quiet hours" in text
    assert "No email address yet" in page.get_by_test_id("email-state").inner_text()


def test_without_smtp_the_pages_show_no_email(open_page: Any) -> None:
    page = open_page("/#/signin", lang="en")
    page.get_by_test_id("signin-form").wait_for()
    assert page.get_by_test_id("forgot-link").count() == 0
    sign_up(page, "Nomail" + secrets.token_hex(3))
    page.goto(page.url.split("#")[0] + "#/settings")
    page.get_by_test_id("notify-form").wait_for()
    assert page.get_by_test_id("email-panel").count() == 0
    assert page.get_by_test_id("notify-turn-email").count() == 0
    assert page.get_by_test_id("notify-turn-webhook").count() == 1
