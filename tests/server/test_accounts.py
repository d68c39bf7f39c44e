"""Accounts over real HTTP: sign up, sign in, sign out, guests, profiles, languages, the
sign-in rate limit and the typed errors every refusal comes back as (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.client import CLIENT, Player
from tests.server.conftest import Server

PASSWORD = "correct horse"


def refused(response: httpx.Response, status: int, code: str) -> str:
    """The typed error's message, after checking its status, code and shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return str(body["message"])


def session_cookie(response: httpx.Response) -> str:
    cookies = [c for c in response.headers.get_list("set-cookie")
               if c.startswith("ludoteca_session=")]
    assert len(cookies) == 1, response.headers
    return cookies[0]


def flags(cookie: str) -> set[str]:
    return {part.strip().lower() for part in cookie.split(";")[1:]}


def test_sign_up_in_out_and_me(server: Server) -> None:
    """The whole life of a session: its cookie is HttpOnly and SameSite=Lax, and not Secure
    over plain http (the browser would never send it back)."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        assert refused(http.get("/api/me"), 401, "not_signed_in")
        made = http.post("/api/signup", json={"name": "Marta", "password": PASSWORD})
        assert made.status_code == 200, made.text
        cookie = session_cookie(made)
        assert "httponly" in flags(cookie) and "samesite=lax" in flags(cookie)
        assert "secure" not in flags(cookie)
        assert "path=/" in flags(cookie)
        me = http.get("/api/me").json()
        assert me["name"] == "Marta" and me["guest"] is False and me["id"] == made.json()["id"]
        assert http.post("/api/signout").json() == {"ok": True}
        assert refused(http.get("/api/me"), 401, "not_signed_in")

        # the name is looked up without regard to case; a wrong password says nothing more
        back = http.post("/api/signin", json={"name": "MARTA", "password": PASSWORD})
        assert back.status_code == 200 and back.json()["id"] == me["id"]
        assert "httponly" in flags(session_cookie(back))
        assert http.get("/api/me").json()["name"] == "Marta"

    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as other:
        wrong = other.post("/api/signin", json={"name": "Marta", "password": "wrong horse"})
        nobody = other.post("/api/signin", json={"name": "Nadie", "password": PASSWORD})
        assert refused(wrong, 401, "bad_credentials") == refused(nobody, 401, "bad_credentials")
        assert "set-cookie" not in wrong.headers
        assert refused(other.get("/api/me"), 401, "not_signed_in")


def test_signing_out_ends_only_that_session(server: Server) -> None:
    with httpx.Client(base_url=server.base, headers=CLIENT) as one, \
            httpx.Client(base_url=server.base, headers=CLIENT) as two:
        assert one.post("/api/signup", json={"name": "Twice", "password": PASSWORD}).is_success
        assert two.post("/api/signin", json={"name": "twice", "password": PASSWORD}).is_success
        assert one.post("/api/signout").is_success
        assert refused(one.get("/api/me"), 401, "not_signed_in")
        assert two.get("/api/me").json()["name"] == "Twice"
        # a stale or forged cookie is just not signed in
        one.cookies.set("ludoteca_session", "not-a-token")
        assert refused(one.get("/api/me"), 401, "not_signed_in")


def test_bad_sign_ups_are_typed(server: Server) -> None:
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        assert http.post("/api/signup", json={"name": "Lucia", "password": PASSWORD}).is_success
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        for taken in ("Lucia", "lucia", "LUCIA"):
            message = refused(
                http.post("/api/signup", json={"name": taken, "password": PASSWORD}),
                409, "name_taken",
            )
            assert taken in message
        for name in ("ab", "1abc", "with space", "a" * 25, "ñandú", "", "x;drop"):
            refused(http.post("/api/signup", json={"name": name, "password": PASSWORD}),
                    400, "bad_name")
        for password in ("short", "", "x" * 129):
            refused(http.post("/api/signup", json={"name": "Valid_name", "password": password}),
                    400, "bad_password")
        refused(http.post("/api/signup", json={"name": "Valid_name", "password": PASSWORD,
                                               "language": "fr"}), 400, "bad_language")
        refused(http.post("/api/signup", json={"name": "Valid_name"}), 422, "bad_request")
        refused(http.post("/api/signup", json={"name": 5, "password": PASSWORD}),
                422, "bad_request")
        assert refused(http.get("/api/me"), 401, "not_signed_in")
        # none of the refusals made an account
        refused(http.post("/api/signin", json={"name": "Valid_name", "password": PASSWORD}),
                401, "bad_credentials")


def test_guest_claims_an_account(server: Server) -> None:
    """A guest plays at once under a generated name; claiming it keeps the same account (and
    so its history), which then signs in with its password like any other."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        guest = http.post("/api/guest")
        assert guest.status_code == 200, guest.text
        me = guest.json()
        assert me["guest"] is True and me["name"].startswith("guest_")
        assert "httponly" in flags(session_cookie(guest))
        refused(http.post("/api/claim", json={"password": "short"}), 400, "bad_password")
        refused(http.post("/api/claim", json={"password": PASSWORD, "name": "9lives"}),
                400, "bad_name")
        assert http.post("/api/signup", json={"name": "Taken_one", "password": PASSWORD}
                         ).is_success
        # signing up signed this client in as Taken_one: get the guest's session back
        http.cookies.clear()
        http.cookies.set("ludoteca_session", guest.cookies["ludoteca_session"])
        assert http.get("/api/me").json()["id"] == me["id"]
        refused(http.post("/api/claim", json={"password": PASSWORD, "name": "taken_ONE"}),
                409, "name_taken")
        table = http.post("/api/tables", json={"game": "kami", "players": 2}).json()
        assert table["host"] == me["name"]
        claimed = http.post("/api/claim", json={"password": PASSWORD, "name": "Rosa"})
        assert claimed.status_code == 200, claimed.text
        assert claimed.json()["id"] == me["id"] and claimed.json()["guest"] is False
        assert claimed.json()["name"] == "Rosa"
        refused(http.post("/api/claim", json={"password": PASSWORD}), 409, "not_a_guest")
        assert http.get("/api/me").json()["name"] == "Rosa"
        # the open table knows its host by the new name at once
        table = http.get(f"/api/tables/{table['id']}").json()
        assert table["host"] == "Rosa" and table["seats"][0]["user"] == "Rosa"

    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as again:
        signed = again.post("/api/signin", json={"name": "rosa", "password": PASSWORD})
        assert signed.status_code == 200 and signed.json()["id"] == me["id"]
        refused(again.post("/api/signin", json={"name": me["name"], "password": PASSWORD}),
                401, "bad_credentials")

    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as keep:
        # a guest may also keep the generated name
        guest2 = keep.post("/api/guest").json()
        kept = keep.post("/api/claim", json={"password": PASSWORD})
        assert kept.status_code == 200 and kept.json()["name"] == guest2["name"]
        assert kept.json()["guest"] is False
        refused(keep.post("/api/claim", json={"password": PASSWORD}), 409, "not_a_guest")
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as anyone:
        refused(anyone.post("/api/claim", json={"password": PASSWORD}), 401, "not_signed_in")


def test_profile_and_language(server: Server, people: Callable[..., Player]) -> None:
    """A person's language is theirs: once it is Spanish, refusals come in Spanish whatever
    the browser asks for."""
    sofia = people("Sofia")
    http = sofia.http
    changed = http.patch("/api/me", json={"display_name": "SofiaG", "language": "ES"})
    assert changed.status_code == 200, changed.text
    assert changed.json()["display_name"] == "SofiaG" and changed.json()["language"] == "es"
    assert http.get("/api/me").json()["language"] == "es"
    refused(http.patch("/api/me", json={"language": "klingon"}), 400, "bad_language")
    refused(http.patch("/api/me", json={"display_name": "no"}), 400, "bad_name")
    for hook in ("ftp://x", "http://", "https://:80/x", "http://x:99999/", "x.org", "http//x"):
        refused(http.patch("/api/me", json={"webhook_url": hook}), 400, "bad_webhook")
    # (a public address: webhooks reach nothing else, tests/security/test_webhooks.py)
    hooked = http.patch("/api/me", json={"webhook_url": " HTTPS://93.184.215.14:8443/t?x=1 "})
    assert hooked.json()["webhook_url"] == "HTTPS://93.184.215.14:8443/t?x=1"
    assert http.patch("/api/me", json={"webhook_url": ""}).json()["webhook_url"] is None
    refused(http.patch("/api/me", json={"display_name": 3}), 422, "bad_request")
    assert http.patch("/api/me", json={}).json()["display_name"] == "SofiaG"

    english = {"accept-language": "en"}
    # an engine refusal (a game option) and a server refusal, both in Spanish
    bad_option = http.post("/api/tables", headers=english, json={
        "game": "kami", "players": 2, "options": {"nope": True}})
    assert "opción desconocida" in refused(bad_option, 400, "bad_option")
    bad_name = http.patch("/api/me", headers=english, json={"display_name": "x"})
    assert refused(bad_name, 400, "bad_name").startswith("Un nombre")

    back = http.patch("/api/me", json={"language": "en"})
    assert back.json()["language"] == "en"
    bad_option = http.post("/api/tables", json={"game": "kami", "players": 2,
                                                "options": {"nope": True}})
    assert refused(bad_option, 400, "bad_option").startswith("unknown option")


def test_anonymous_requests_speak_the_browsers_language(server: Server) -> None:
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        english = refused(http.get("/api/me"), 401, "not_signed_in")
        spanish = refused(http.get("/api/me", headers={"accept-language": "es-ES,es;q=0.9"}),
                          401, "not_signed_in")
        assert english.startswith("Sign in") and spanish != english
        assert spanish.startswith("Inicia sesión")
        wrong = http.post("/api/signin", headers={"accept-language": "fr, es;q=0.5"},
                          json={"name": "nobody", "password": PASSWORD})
        assert refused(wrong, 401, "bad_credentials").startswith("Nombre o contraseña")
        # a guest starts in the language the browser asked for
        guest = http.post("/api/guest", headers={"accept-language": "es"}).json()
        assert guest["language"] == "es"


def test_limits_and_malformed_requests(server: Server) -> None:
    """Refusals that happen before any route runs are typed too."""
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        huge = http.post("/api/signin", json={"name": "x" * (64 * 1024), "password": "p"})
        assert "65536" in refused(huge, 413, "too_large")

        def chunks() -> Iterator[bytes]:
            for _ in range(80):
                yield b"x" * 1024

        streamed = http.post("/api/signin", content=chunks(),  # no Content-Length
                             headers={"content-type": "application/json"})
        refused(streamed, 413, "too_large")
        spanish = http.post("/api/signin", json={"name": "x" * 70000, "password": "p"},
                            headers={"accept-language": "es"})
        assert "65536" in refused(spanish, 413, "too_large")

        for raw in (b'{"name": "ana", ', b"not json", b"", b"[1, 2]", b'"text"',
                    b'{"name": "\xe9", "password": "x"}', b"x\xe9"):  # the last two not UTF-8
            bad = http.post("/api/signin", content=raw,
                            headers={"content-type": "application/json"})
            refused(bad, 422, "bad_request")
        refused(http.post("/api/signin", content=b"name=ana&password=x",
                          headers={"content-type": "application/x-www-form-urlencoded"}),
                422, "bad_request")

        assert "/api/nothing" in refused(http.get("/api/nothing"), 404, "not_found")
        refused(http.get("/nowhere/at/all"), 404, "not_found")
        refused(http.post("/api/users/x"), 405, "method_not_allowed")
        wrong_method = http.put("/api/session")
        assert "PUT" in refused(wrong_method, 405, "method_not_allowed")
        assert "GET" in {m.strip() for m in wrong_method.headers["allow"].split(",")}
        # Allow names every method the path takes, not only the first route's
        wrong_method = http.put("/api/me")
        refused(wrong_method, 405, "method_not_allowed")
        assert {"GET", "PATCH", "DELETE"} <= {
            m.strip() for m in wrong_method.headers["allow"].split(",")}
        wrong_method = http.put("/api/tables")
        refused(wrong_method, 405, "method_not_allowed")
        assert {"GET", "POST"} <= {m.strip() for m in wrong_method.headers["allow"].split(",")}
        refused(http.get("/api/tables", params={"status": "sideways"}), 422, "bad_request")


def test_sign_in_rate_limit(tmp_path: Path) -> None:
    """Sign-ins over the limit per client address are refused with 429, even with the right
    password, and say how long to wait."""
    server = Server(f"sqlite:///{tmp_path / 'rate.sqlite3'}", tmp_path, LUDOTECA_AUTH_RATE="5")
    server.start()
    try:
        with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
            made = http.post("/api/signup", json={"name": "Ramon", "password": PASSWORD})
            assert made.is_success, made.text
            for _ in range(4):
                refused(http.post("/api/signin", json={"name": "Ramon", "password": "nope!nope"}),
                        401, "bad_credentials")
            limited = http.post("/api/signin", json={"name": "Ramon", "password": PASSWORD})
            message = refused(limited, 429, "rate_limited")
            assert "seconds" in message
            refused(http.post("/api/guest"), 429, "rate_limited")
            refused(http.post("/api/signup", json={"name": "Other", "password": PASSWORD}),
                    429, "rate_limited")
            # the session already opened still works
            assert http.get("/api/me").json()["name"] == "Ramon"
    finally:
        server.stop()


def test_secure_cookie_over_https(tmp_path: Path) -> None:
    """Behind https (``request.url.scheme``) the session cookie is also Secure: the app in
    process, through an ASGI transport, with its lifespan run."""
    from ludoteca.server.app import create_app
    from ludoteca.server.settings import Settings

    logger = logging.getLogger("ludoteca")
    saved = (list(logger.handlers), logger.propagate, logger.level)

    async def run() -> tuple[str, str, int]:
        app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'https.sqlite3'}",
                                  bot_processes=1, allowed_hosts=("arena.test",)))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, headers=CLIENT,
                                         base_url="https://arena.test") as http:
                made = await http.post("/api/signup",
                                       json={"name": "Segura", "password": PASSWORD})
                me = await http.get("/api/me")
            async with httpx.AsyncClient(transport=transport, headers=CLIENT,
                                         base_url="http://arena.test") as plain:
                guest = await plain.post("/api/guest")
        assert made.status_code == 200, made.text
        return session_cookie(made), session_cookie(guest), me.status_code

    try:
        secure, plain, status = asyncio.run(run())
    finally:
        logger.handlers[:], logger.propagate = saved[0], saved[1]
        logger.setLevel(saved[2])
    assert {"secure", "httponly", "samesite=lax"} <= flags(secure)
    assert status == 200
    assert "secure" not in flags(plain) and "httponly" in flags(plain)


@pytest.mark.parametrize("header, lang", [
    ("es", "es"), ("es-MX,en;q=0.5", "es"), ("en-GB,es;q=0.9", "en"), ("fr", "en"),
    ("de, es;q=0.1", "es"), ("es;q=0, en", "en"), ("", "en"), ("es;q=bogus", "en"),
])
def test_accept_language(header: str, lang: str) -> None:
    from ludoteca.server.errors import language_from_header

    assert language_from_header(header) == lang
