"""The account's controls in the browser (one's own player page): change the password, sign
out everywhere else, delete the account; and at an open table, the host's remove buttons and
the account name beside a display name in chat."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
from arena_process import ServerProcess

from tests.server.client import CLIENT
from tests.web.driver import ROOT, open_table, sign_in_as_guest

PASSWORD = "correct horse"


def signed_in_elsewhere(base: str, name: str, password: str) -> str:
    """A session of the same account on another device: its token."""
    answer = httpx.post(base + "/api/signin", json={"name": name, "password": password},
                        headers=CLIENT, timeout=30)
    assert answer.status_code == 200, answer.text
    return str(answer.cookies["ludoteca_session"])


def alive(base: str, token: str) -> bool:
    with httpx.Client(base_url=base, headers=CLIENT, timeout=30) as client:
        client.cookies.set("ludoteca_session", token)
        return client.get("/api/me").status_code == 200


def test_password_sessions_and_deletion_from_the_player_page(open_page: Any,
                                                             arena: ServerProcess) -> None:
    page = open_page("/#/signin", lang="es")
    name = "Cuenta" + secrets.token_hex(3)
    signup = page.get_by_test_id("signup-form")
    signup.locator('input[name="name"]').fill(name)
    signup.locator('input[name="password"]').fill(PASSWORD)
    signup.get_by_role("button").click()
    page.get_by_test_id("me").filter(has_text=name).wait_for()
    laptop = signed_in_elsewhere(arena.base, name, PASSWORD)

    page.get_by_test_id("me").click()
    account = page.get_by_test_id("account")
    account.wait_for()
    assert "Tu cuenta" in account.inner_text()
    form = page.get_by_test_id("password-form")
    form.locator('input[name="current"]').fill(PASSWORD)
    form.locator('input[name="new"]').fill("battery staple")
    page.get_by_test_id("change-password").click()
    page.get_by_test_id("toast-info").filter(has_text="Contraseña cambiada").wait_for()
    assert not alive(arena.base, laptop)

    phone = signed_in_elsewhere(arena.base, name, "battery staple")
    page.get_by_test_id("signout-others").click()
    page.get_by_test_id("toast-info").filter(has_text="Se ha cerrado 1 sesión.").wait_for()
    assert not alive(arena.base, phone)
    assert page.get_by_test_id("me").inner_text() == name  # this browser stays signed in

    delete = page.get_by_test_id("delete-form")
    delete.locator('input[name="password"]').fill("battery staple")
    page.get_by_test_id("delete-sure").check()
    page.get_by_test_id("delete-account").click()
    page.get_by_test_id("lobby-guest").wait_for()
    assert page.get_by_test_id("me").count() == 0
    assert httpx.get(f"{arena.base}/api/users/{name}", timeout=30).status_code == 404


def test_the_host_removes_seats_and_chat_names_the_account(open_page: Any,
                                                           arena: ServerProcess) -> None:
    page = open_page("/")
    guest = sign_in_as_guest(page)
    table = open_table(page, "kingdomino", 4, [None, "random", None])
    with httpx.Client(base_url=arena.base, headers=CLIENT, timeout=30) as stranger:
        me = stranger.post("/api/guest").json()
        assert stranger.post(f"/api/tables/{table}/join", json={"seat": 1}).is_success
    seat = page.get_by_test_id("seat-1")
    seat.filter(has_text=me["name"]).wait_for()
    page.get_by_test_id("remove-1").click()
    page.get_by_test_id("seat-1").filter(has_not_text=me["name"]).wait_for()
    assert page.get_by_test_id("join-1").count() == 0  # the host sits already
    page.get_by_test_id("remove-2").click()
    page.get_by_test_id("bot-2").wait_for()  # a free seat again
    assert page.get_by_test_id("remove-0").count() == 0  # never the host's own seat

    # a display name in chat comes with the account behind it
    changed = page.evaluate("""() => fetch('/api/me', {method: 'PATCH',
        headers: {'content-type': 'application/json'},
        body: JSON.stringify({display_name: 'Mesa Uno'})}).then((r) => r.status)""")
    assert changed == 200
    page.reload()
    page.wait_for_selector(f"{ROOT}[data-seq]")
    page.get_by_label("Chat message").fill("hello")
    page.get_by_label("Chat message").press("Enter")
    line = page.get_by_test_id("chat").locator("li").filter(has_text="hello")
    line.wait_for()
    assert line.inner_text().startswith(f"Mesa Uno @{guest}")
