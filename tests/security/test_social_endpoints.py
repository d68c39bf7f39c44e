"""A hostile client on every route that landed with email, Web Push, friends and challenges
(issue 36), against a real ``ludoteca serve`` over HTTP on SQLite and PostgreSQL.

The routes are read from the server's own OpenAPI document and must equal ``ROUTES``: a route
added later under these prefixes fails here until it is listed, and so gets the same pass: no
session, another site's page, broken bodies, an oversized body, never a 500 or a traceback.
Then what a route list cannot say: someone else's device and challenge, CR/LF in an address or
a display name (the email's headers), and the documented 429s."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from mail_sink import Sink

from tests.security.accounts_support import PASSWORD, refused
from tests.server.client import CLIENT, Player
from tests.server.conftest import Server
from tests.server.test_email import with_email

PERSON, ANYONE = "person", "anyone"
ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/api/email"): ANYONE,
    ("POST", "/api/email"): PERSON,
    ("DELETE", "/api/email"): PERSON,
    ("POST", "/api/email/confirm"): ANYONE,
    ("POST", "/api/password/forgot"): ANYONE,
    ("POST", "/api/password/reset"): ANYONE,
    ("GET", "/api/notifications"): PERSON,
    ("PUT", "/api/notifications"): PERSON,
    ("GET", "/api/unsubscribe"): ANYONE,
    ("POST", "/api/unsubscribe"): ANYONE,
    ("GET", "/api/push"): ANYONE,
    ("GET", "/api/push/devices"): PERSON,
    ("POST", "/api/push/devices"): PERSON,
    ("DELETE", "/api/push/devices/{device_id}"): PERSON,
    ("GET", "/api/me/friends"): PERSON,
    ("GET", "/api/me/blocks"): PERSON,
    ("GET", "/api/me/challenges"): PERSON,
    ("PUT", "/api/users/{name}/follow"): PERSON,
    ("DELETE", "/api/users/{name}/follow"): PERSON,
    ("PUT", "/api/users/{name}/block"): PERSON,
    ("DELETE", "/api/users/{name}/block"): PERSON,
    ("POST", "/api/users/{name}/challenge"): PERSON,
    ("GET", "/api/users/{name}"): ANYONE,
    ("GET", "/api/challenges/{challenge_id}"): PERSON,
    ("POST", "/api/challenges/{challenge_id}/accept"): PERSON,
    ("POST", "/api/challenges/{challenge_id}/decline"): PERSON,
}
"""Every route under the new prefixes, and who may call it (docs/protocol.md, HTTP routes)."""
PREFIXES = ("/api/email", "/api/password/forgot", "/api/password/reset", "/api/notifications",
            "/api/unsubscribe", "/api/push", "/api/me/friends", "/api/me/blocks",
            "/api/me/challenges", "/api/users/", "/api/challenges")
BODIES: dict[str, dict[str, Any]] = {
    "/api/email": {"email": "someone@example.org"},
    "/api/email/confirm": {"token": "x"},
    "/api/password/forgot": {"email": "someone@example.org"},
    "/api/password/reset": {"token": "x", "password": PASSWORD},
    "/api/notifications": {"time_zone": "Europe/Madrid"},
    "/api/push/devices": {"endpoint": "https://push.example/x",
                          "keys": {"p256dh": "A" * 87, "auth": "A" * 22}},
    "/api/users/{name}/challenge": {"game": "kingdomino"},
}
"""A well-formed body for each route that reads one, to break in each way."""
WRONG_TYPES: dict[str, dict[str, Any]] = {
    "/api/email": {"email": 5},
    "/api/email/confirm": {"token": ["x"]},
    "/api/password/forgot": {"email": None},
    "/api/password/reset": {"token": "x", "password": 12345678},
    "/api/notifications": {"quiet_start": 22},
    "/api/push/devices": {"endpoint": "https://push.example/x", "keys": "p256dh"},
    "/api/users/{name}/challenge": {"game": "kingdomino", "players": "2"},
}


@pytest.fixture(scope="module")
def sink() -> Iterator[Sink]:
    found = Sink()
    yield found
    found.close()


@pytest.fixture(scope="module")
def server(arena_database: str, sink: Sink, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[Server]:
    """Email, push and low asking limits, so that each 429 comes within a few requests."""
    found = Server(arena_database, tmp_path_factory.mktemp("server"),
                   LUDOTECA_SMTP_URL=f"smtp://127.0.0.1:{sink.port}",
                   LUDOTECA_MAIL_FROM="arena@ludoteca.test",
                   LUDOTECA_PUSH_CONTACT="mailto:admin@ludoteca.test",
                   LUDOTECA_MAIL_ASK_RATE="4", LUDOTECA_RESET_RATE="2",
                   LUDOTECA_CREATE_RATE="6", LUDOTECA_TRUSTED_PROXIES="127.0.0.1")
    found.env["LUDOTECA_PUBLIC_URL"] = found.base
    found.start()
    try:
        yield found
    finally:
        found.stop()


@pytest.fixture(scope="module")
def pair(server: Server) -> Iterator[tuple[Player, Player]]:
    ana, bea = Player(server.base, "Hostile_ana"), Player(server.base, "Hostile_bea", "es")
    yield ana, bea
    ana.close()
    bea.close()


def concrete(path: str, other: str) -> str:
    return (path.replace("{name}", other).replace("{device_id}", "1")
            .replace("{challenge_id}", "abc123"))


def body_of(path: str) -> dict[str, Any] | None:
    return BODIES.get(path)


def typed(response: httpx.Response) -> dict[str, Any]:
    """A 4xx typed error, never a 500 or a traceback."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    assert "Traceback" not in response.text and 'File "' not in response.text, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] and body["message"], body
    return dict(body)


def test_the_routes_are_the_ones_listed(server: Server) -> None:
    """A route added under these prefixes must be listed here (and so get this pass)."""
    spec = httpx.get(server.base + "/openapi.json", timeout=30).json()
    found = {(method.upper(), path) for path, item in spec["paths"].items()
             for method in item if path.startswith(PREFIXES)}
    assert found == set(ROUTES)


def test_no_session_and_another_sites_page(server: Server, pair: tuple[Player, Player]
                                           ) -> None:
    ana, bea = pair
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as nobody:
        for (method, path), who in ROUTES.items():
            if who == PERSON:
                url, body = concrete(path, bea.name), body_of(path)
                answer = nobody.request(method, url, json=body)
                refused(answer, 401, "not_signed_in")
        spanish = nobody.get("/api/notifications", headers={"accept-language": "es"})
        english = nobody.get("/api/notifications", headers={"accept-language": "en"})
        assert refused(spanish, 401, "not_signed_in") == (
            "Inicia sesión primero (o juega como invitado).")
        assert refused(english, 401, "not_signed_in") == "Sign in first (or play as a guest)."
    # a signed-in player's browser on another site's page: refused, nothing changed
    cookies = dict(ana.http.cookies.items())
    with httpx.Client(base_url=server.base, cookies=cookies, timeout=30) as browser:
        for (method, path), _ in ROUTES.items():
            if method == "GET" or path == "/api/unsubscribe":
                continue
            url, body = concrete(path, bea.name), body_of(path)
            for origin, code in (("https://evil.example", "bad_origin"), ("null", "bad_origin"),
                                 (None, "no_origin")):
                headers = {} if origin is None else {"origin": origin}
                refused(browser.request(method, url, json=body, headers=headers), 403, code)
    assert ana.ok(ana.http.get("/api/me/friends")) == []
    assert ana.ok(ana.http.get("/api/notifications"))["time_zone"] != "Europe/Madrid"
    # the documented exception: a mail client's one-click post needs no Origin nor client
    # name (a bad token changes nothing and says so on a page); an Origin sent must still be
    # allowed
    with httpx.Client(base_url=server.base, cookies=cookies, timeout=30) as mailer:
        form = {"content-type": "application/x-www-form-urlencoded"}
        page = mailer.post("/api/unsubscribe?token=forged", headers=form,
                           content=b"List-Unsubscribe=One-Click")
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert "Traceback" not in page.text
        refused(mailer.post("/api/unsubscribe?token=forged", content=b"x",
                            headers={**form, "origin": "https://evil.example"}), 403,
                "bad_origin")


def test_broken_bodies_get_typed_errors(server: Server, pair: tuple[Player, Player]) -> None:
    ana, bea = pair
    ana.http.headers["x-forwarded-for"] = "10.9.0.1"
    for (method, path), _ in ROUTES.items():
        body = body_of(path)
        if body is None or method not in ("POST", "PUT"):
            continue
        url = concrete(path, bea.name)
        broken: list[tuple[bytes, int, str]] = [
            (b'{"email": ', 422, "bad_request"),
            (b"[1, 2]", 422, "bad_request"),
            (b'"text"', 422, "bad_request"),
            (json.dumps({**body, "surprise": 1}).encode(), 422, "bad_request"),
            (json.dumps(WRONG_TYPES[path]).encode(), 422, "bad_request"),
            (b'{"pad": "' + b"x" * 70_000 + b'"}', 413, "too_large"),
        ]
        for raw, status, code in broken:
            answer = ana.http.request(method, url, content=raw,
                                      headers={"content-type": "application/json"})
            got = typed(answer)
            assert (answer.status_code, got["code"]) == (status, code), (method, url, raw[:40],
                                                                         got)
    # in the person's language
    spanish = typed(bea.http.put("/api/notifications", content=b"[1]",
                                 headers={"content-type": "application/json"}))
    english = typed(ana.http.put("/api/notifications", content=b"[1]",
                                 headers={"content-type": "application/json"}))
    assert spanish["code"] == english["code"] == "bad_request"
    assert spanish["message"] != english["message"]


def test_someone_elses_device_challenge_and_preferences(
    server: Server, pair: tuple[Player, Player]
) -> None:
    ana, bea = pair
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as http:
        http.post("/api/signup", json={"name": "Hostile_cid", "password": PASSWORD})
        made = http.post("/api/users/Hostile_bea/challenge", json={"game": "kingdomino"})
        assert made.status_code == 200, made.text
        theirs = made.json()["id"]
        # another's challenge: not to read, accept or withdraw
        refused(ana.http.get(f"/api/challenges/{theirs}"), 403, "not_your_challenge")
        for verb in ("accept", "decline"):
            answer = typed(ana.http.post(f"/api/challenges/{theirs}/{verb}"))
            assert answer["code"] in ("not_your_challenge", "no_such_challenge"), answer
        # the challenger cannot accept in the challenged's place
        typed(http.post(f"/api/challenges/{theirs}/accept"))
        assert http.get(f"/api/challenges/{theirs}").json()["status"] == "open"
        # preferences are one's own only: nothing in the body names another account
        before = bea.ok(bea.http.get("/api/notifications"))
        typed(ana.http.put("/api/notifications", json={"user": "Hostile_bea",
                                                       "time_zone": "Asia/Tokyo"}))
        typed(ana.http.put("/api/notifications?user=Hostile_bea", json={"events": {
            "your_turn": {"email": True, "everything": True}}}))
        assert bea.ok(bea.http.get("/api/notifications")) == before
    # another's device id, and ids that are no device at all
    for device in ("999999", "-1", "0", str(2**31), str(2**63)):
        refused(ana.http.delete(f"/api/push/devices/{device}"), 404, "no_such_device")
    for device in ("abc", "1e3", "9" * 40):
        assert typed(ana.http.delete(f"/api/push/devices/{device}"))["code"] in (
            "bad_request", "no_such_device")


def test_header_injection_in_addresses_and_names(
    server: Server, sink: Sink, pair: tuple[Player, Player]
) -> None:
    ana, _ = pair
    ana.http.headers["x-forwarded-for"] = "10.9.0.2"
    for n, address in enumerate((
            "eve@example.org\r\nBcc: all@evil.example", "eve@example.org\nBcc: x@y.z",
            "eve@example.org\rX: y", "Eve <eve@example.org>, all@evil.example",
            "eve@example.org\x00", "=?utf-8?q?x=0D=0ABcc:_a@b.c?=@example.org")):
        got = typed(ana.http.post("/api/email", json={"email": address}))
        assert got["code"] == "bad_email", (address, got)
        with httpx.Client(base_url=server.base, headers={**CLIENT, "x-forwarded-for":
                                                         f"10.9.0.{10 + n}"}, timeout=30) as anyone:
            got = typed(anyone.post("/api/password/forgot", json={"email": address}))
            assert got["code"] == "bad_email", (address, got)
    # a display name reaches the subject of the challenged person's email: line breaks in it
    # are refused or folded into a space before it is kept
    dan = Player(server.base, "Hostile_dan")
    eve = Player(server.base, "Hostile_eve")
    try:
        dan.http.headers["x-forwarded-for"] = "10.9.0.4"
        with_email(dan, sink, "dan@ludoteca.test")
        for name in ("Eve\r\nBcc: all@evil.example", "Eve\nX-Evil: 1", "Eve\x00", "Eve\u2028X",
                     "Eve\rBcc\n"):
            answer = eve.http.patch("/api/me", json={"display_name": name})
            if answer.status_code >= 400:
                assert typed(answer)["code"] == "bad_name", (name, answer.text)
            else:
                kept = answer.json()["display_name"]
                assert not any(c in kept for c in "\r\n\x00\u2028\u2029"), (name, kept)
        eve.ok(eve.http.patch("/api/me", json={"display_name": "Eve\r\nBcc"}))
        eve.ok(eve.http.post("/api/users/Hostile_dan/challenge", json={"game": "kingdomino"}))
        message = sink.to("dan@ludoteca.test")
        assert "Bcc" not in message and "X-Evil" not in message
        assert message["Subject"].startswith("Eve Bcc "), message["Subject"]
        assert not any(c in str(message["Subject"]) for c in "\r\n")
        assert message.get_all("To") == ["dan@ludoteca.test"]
    finally:
        dan.close()
        eve.close()
    sink.nothing(0.5)


def test_rate_limits_answer_429(server: Server, sink: Sink, pair: tuple[Player, Player]
                                ) -> None:
    ana, bea = pair
    # asking for confirmation mail: 4 an hour for one account
    ana.http.headers["x-forwarded-for"] = "10.9.1.1"
    codes = [ana.http.post("/api/email", json={"email": f"ana{i}@example.org"}).status_code
             for i in range(4)]
    assert codes == [202] * 4
    assert sorted(sink.next()["To"] for _ in range(4)) == [f"ana{i}@example.org"
                                                          for i in range(4)]
    ana.http.headers["x-forwarded-for"] = "10.9.1.2"
    message = refused(ana.http.post("/api/email", json={"email": "ana9@example.org"}), 429,
                      "rate_limited")
    assert any(ch.isdigit() for ch in message)
    # reset links: 2 an hour for one address, from wherever asked
    for n in range(2):
        with httpx.Client(base_url=server.base, timeout=30, headers={
                **CLIENT, "x-forwarded-for": f"10.9.2.{n}"}) as anyone:
            assert anyone.post("/api/password/forgot",
                               json={"email": "target@example.org"}).status_code == 202
    with httpx.Client(base_url=server.base, timeout=30, headers={
            **CLIENT, "x-forwarded-for": "10.9.2.9", "accept-language": "es"}) as anyone:
        spanish = refused(anyone.post("/api/password/forgot",
                                      json={"email": "TARGET@example.org"}), 429,
                          "rate_limited")
    assert spanish.startswith("Demasiados intentos; espera "), spanish
    # a challenge flood: the table creation limit (6 a minute here) answers first
    with httpx.Client(base_url=server.base, headers=CLIENT, timeout=30) as flood:
        flood.post("/api/signup", json={"name": "Hostile_flood", "password": PASSWORD})
        answers = [flood.post(f"/api/users/{bea.name}/challenge", json={"game": "kingdomino"})
                   for _ in range(7)]
        assert [a.status_code for a in answers[:6]] == [200] * 6, answers[-1].text
        refused(answers[6], 429, "rate_limited")
