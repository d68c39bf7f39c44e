"""What a hostile web page or a careless client can do with a browser's help, tried over real
sockets against a real ``ludoteca serve`` (``web_security.py``, ``api_docs.py``, the strict
request bodies): cross-site requests, DNS rebinding, framing and injected scripts, third-party
code on ``/docs``, private results on public pages, coerced inputs.

The browser tests use Debian's Chromium as ``tests/web`` does; without it they skip with a
reason, except under ``LUDOTECA_REQUIRE_SERVICES=1``, where they fail."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from arena_process import ServerProcess

from tests.security.raw_http import Answer, exchange, get, request_head
from tests.server.client import CLIENT, Player

CHROMIUM = os.environ.get("LUDOTECA_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("LUDOTECA_REQUIRE_SERVICES") == "1"
EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("web")
    server = ServerProcess(f"sqlite:///{folder / 'arena.sqlite3'}", folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def people(arena: ServerProcess) -> Iterator[Callable[..., Player]]:
    made: list[Player] = []

    def make(name: str | None = None, lang: str = "en") -> Player:
        player = Player(arena.base, name, lang)
        made.append(player)
        return player

    yield make
    for player in made:
        player.close()


def refused(answer: Answer | httpx.Response, status: int, code: str) -> str:
    status_code = answer.status if isinstance(answer, Answer) else answer.status_code
    assert status_code == status, (answer, answer.json())
    body = answer.json()
    assert body["type"] == "error" and body["code"] == code, body
    message: str = body["message"]
    return message


def session_of(player: Player) -> tuple[str, str]:
    return ("Cookie", f"ludoteca_session={player.http.cookies['ludoteca_session']}")


# ---- headers -------------------------------------------------------------------------------
def test_every_answer_carries_the_security_headers(arena: ServerProcess) -> None:
    answers = {
        "page": get(arena.port, "/"),
        "api": get(arena.port, "/api/games"),
        "health": get(arena.port, "/healthz"),
        "not found": get(arena.port, "/nothing/here"),
        "docs": get(arena.port, "/docs"),
        "refused by a route": exchange(arena.port, request_head(
            "/api/tables", CLIENT_HEADER, ("Content-Type", "application/json"),
            method="POST", body=b'{"game": "kami"}')),
        "refused for its origin": exchange(arena.port, request_head("/api/guest", method="POST")),
        "refused before parsing": get(arena.port, "/healthz", ("X-Long", "x" * 9000)),
    }
    for what, answer in answers.items():
        headers = answer.headers
        policy = headers.get("content-security-policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ") if d}
        assert directives.get("script-src") == ["'self'"], (what, policy)
        assert directives.get("style-src") == ["'self'"], (what, policy)
        assert directives.get("frame-ancestors") == ["'none'"], (what, policy)
        assert directives.get("object-src") == ["'none'"], (what, policy)
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, what
        assert headers.get("x-content-type-options") == "nosniff", what
        assert headers.get("referrer-policy") == "same-origin", what
        assert headers.get("x-frame-options") == "DENY", what
    # A script or a stylesheet is never a document: nosniff alone, and none of the page rules
    for path in ("/static/app.js", "/static/style.css", "/static/games/kingdomino/domino.js"):
        headers = get(arena.port, path).headers
        assert headers.get("x-content-type-options") == "nosniff", path
        assert "content-security-policy" not in headers and "x-frame-options" not in headers, path


CLIENT_HEADER = next(iter(CLIENT.items()))


class Tags(HTMLParser):
    """Every tag with its attributes, and the text of inline scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline: list[str] = []
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.append((tag, found))
        self._open = tag if tag in ("script", "style") else None

    def handle_data(self, data: str) -> None:
        if self._open and data.strip():
            self.inline.append(f"{self._open}: {data.strip()[:80]}")

    def handle_endtag(self, tag: str) -> None:
        self._open = None


def page_tags(arena: ServerProcess, path: str) -> Tags:
    answer = get(arena.port, path)
    assert answer.status == 200, answer
    tags = Tags()
    tags.feed(answer.body.decode())
    return tags


def test_the_pages_have_no_inline_script_or_style(arena: ServerProcess) -> None:
    for path in ("/", "/docs"):
        tags = page_tags(arena, path)
        assert tags.inline == [], (path, tags.inline)
        for tag, attrs in tags.tags:
            assert "style" not in attrs, (path, tag)
            assert not [a for a in attrs if a.startswith("on")], (path, tag, attrs)


# ---- cross-site requests -------------------------------------------------------------------
def test_changes_without_a_same_origin_origin_are_refused(
    arena: ServerProcess, people: Callable[..., Player]
) -> None:
    """A page on another site posts with the person's cookie (a form, or fetch with
    credentials): refused, whether it names its origin or hides it."""
    player = people("Victima")
    table = player.create("kami", 2)
    cookie = session_of(player)
    here = f"http://127.0.0.1:{arena.port}"
    changes = [
        ("/api/tables", b'{"game": "kami", "players": 2}'),
        (f"/api/tables/{table['id']}/leave", b""),
        (f"/api/tables/{table['id']}/rematch", b""),
        ("/api/signout", b""),
        ("/api/guest", b""),
    ]
    for path, body in changes:
        json_type = ("Content-Type", "application/json")
        for origin in (EVIL, "null", f"http://127.0.0.1:{arena.port + 1}"):
            answer = exchange(arena.port, request_head(
                path, cookie, ("Origin", origin), json_type, method="POST", body=body))
            assert origin in refused(answer, 403, "bad_origin")
        answer = exchange(arena.port, request_head(path, cookie, json_type, method="POST",
                                                   body=body))
        assert "X-Ludoteca-Client" in refused(answer, 403, "no_origin")
        patch = exchange(arena.port, request_head(
            "/api/me", cookie, json_type, ("Origin", EVIL), method="PATCH",
            body=b'{"display_name": "Hacked"}'))
        refused(patch, 403, "bad_origin")
    spanish = exchange(arena.port, request_head("/api/guest", ("Accept-Language", "es"),
                                                method="POST"))
    assert "X-Ludoteca-Client" in refused(spanish, 403, "no_origin")
    assert refused(spanish, 403, "no_origin").startswith("Una petición que cambia algo")
    # nothing changed: still seated, still signed in, no new table
    assert player.ok(player.http.get("/api/me"))["display_name"] == "Victima"
    mine = player.ok(player.http.get("/api/me/tables"))
    assert [t["id"] for t in mine] == [table["id"]]
    # this site's own pages, and programs that name themselves, go through
    same = exchange(arena.port, request_head(
        f"/api/tables/{table['id']}/leave", cookie, ("Origin", here), method="POST",
        host=f"127.0.0.1:{arena.port}"))
    assert same.status == 200, same
    named = exchange(arena.port, request_head("/api/guest", CLIENT_HEADER, method="POST"))
    assert named.status == 200 and named.json()["guest"] is True


def test_foreign_host_names_are_refused(arena: ServerProcess) -> None:
    """DNS rebinding: another site's name made to point at this machine; its page's requests
    name that site in ``Host``."""
    for host in ("evil.example", f"evil.example:{arena.port}", "127.0.0.1.nip.example"):
        for path in ("/", "/api/session", "/healthz"):
            answer = get(arena.port, path, host=host)
            assert host in refused(answer, 400, "bad_host")
    upgrade = exchange(arena.port, ws_handshake("/ws/tables/nope", host="evil.example"), 10)
    refused(upgrade, 400, "bad_host")
    for host in (f"127.0.0.1:{arena.port}", f"localhost:{arena.port}", "[::1]", "localhost"):
        assert get(arena.port, "/healthz", host=host).status == 200, host


def ws_handshake(path: str, *headers: tuple[str, str], host: str = "127.0.0.1") -> bytes:
    return request_head(path, ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                        ("Sec-WebSocket-Version", "13"), *headers, host=host
                        ).replace(b"Connection: close\r\n", b"")


def test_a_websocket_from_a_foreign_origin_is_refused(
    arena: ServerProcess, people: Callable[..., Player]
) -> None:
    """The upgrade is answered 403 ``bad_origin`` before any handshake: another site's page
    cannot open a table socket with the person's cookie. Same-origin pages and programs
    (no ``Origin``) are let in."""
    player = people()
    table = player.create("kami", 2, bots=["random"])
    path = f"/ws/tables/{table['id']}"
    for origin in (EVIL, "null"):
        answer = exchange(arena.port, ws_handshake(path, session_of(player), ("Origin", origin)),
                          10)
        assert origin in refused(answer, 403, "bad_origin")
    with socket.create_connection(("127.0.0.1", arena.port), timeout=10) as sock:
        sock.sendall(ws_handshake(path, session_of(player),
                                  ("Origin", f"http://127.0.0.1:{arena.port}"),
                                  host=f"127.0.0.1:{arena.port}"))
        assert sock.recv(12) == b"HTTP/1.1 101"
    sock_ = player.socket(table["id"])  # a program: no Origin
    assert sock_.first["type"] == "full"


# ---- /docs ---------------------------------------------------------------------------------
def test_docs_load_nothing_from_elsewhere(arena: ServerProcess) -> None:
    tags = page_tags(arena, "/docs")
    urls = [a.get("src") or a.get("href") for t, a in tags.tags if t in ("script", "link")]
    assert any(u and u.endswith("swagger-ui-bundle.js") for u in urls)
    for url in urls:
        assert url is not None and url.startswith("/") and not url.startswith("//"), url
        assert get(arena.port, url).status == 200, url
    assert get(arena.port, "/redoc").status == 404


# ---- private results -----------------------------------------------------------------------
def test_private_results_stay_out_of_public_histories(
    arena: ServerProcess, people: Callable[..., Player]
) -> None:
    player = people("Discreta")
    played = {}
    for private in (True, False):
        table = player.create("kami", 2, options={"target": 10}, bots=["random"],
                              private=private)
        sock = player.socket(table["id"])
        sock.play(random.Random(3))
        sock.close()
        played[private] = table["id"]
    with httpx.Client(base_url=arena.base, timeout=30) as anyone:
        page = anyone.get("/api/users/Discreta").json()
    assert [m["id"] for m in page["matches"]] == [played[False]]
    stranger = people()
    seen = stranger.ok(stranger.http.get("/api/users/Discreta"))
    assert [m["id"] for m in seen["matches"]] == [played[False]]
    own = player.ok(player.http.get("/api/users/Discreta"))
    assert {m["id"] for m in own["matches"]} == set(played.values())


# ---- strict inputs -------------------------------------------------------------------------
def test_wrong_types_are_refused_not_coerced(
    arena: ServerProcess, people: Callable[..., Player]
) -> None:
    player = people()
    wrong: list[tuple[dict[str, Any], str]] = [
        ({"game": "kami", "players": "3"}, "players"),
        ({"game": "kami", "players": 2.0}, "players"),
        ({"game": "kami", "players": 2, "rated": "true"}, "rated"),
        ({"game": "kami", "players": 2, "private": 1}, "private"),
        ({"game": "kami", "players": 2, "bank_seconds": "600"}, "bank_seconds"),
        ({"game": "kami", "players": 2, "privte": True}, "privte"),
    ]
    for body, field in wrong:
        message = refused(player.http.post("/api/tables", json=body), 422, "bad_request")
        assert field in message, (body, message)
    option = player.http.post("/api/tables", json={"game": "kami", "players": 2,
                                                  "options": {"target": "10"}})
    assert "target" in refused(option, 400, "bad_option")
    table = player.create("kami", 2)
    seat = player.http.post(f"/api/tables/{table['id']}/bots",
                            json={"level": "random", "seat": "1"})
    assert "seat" in refused(seat, 422, "bad_request")
    mine = player.ok(player.http.get("/api/me/tables"))
    assert [t["id"] for t in mine] == [table["id"]]  # nothing else was made
    assert [s["bot"] for s in mine[0]["seats"]] == [None, None]
    # the account routes read their bodies the same way
    for route, body, field in [
        ("/api/signup", {"name": "Strict1", "password": "a long password", "admin": True},
         "admin"),
        ("/api/signup", {"name": 12345, "password": "a long password"}, "name"),
    ]:
        assert field in refused(player.http.post(route, json=body), 422, "bad_request")
    profile = player.http.patch("/api/me", json={"language": "es", "role": "admin"})
    assert "role" in refused(profile, 422, "bad_request")
    assert player.ok(player.http.get("/api/me"))["language"] == "en"


def test_more_bots_than_seats_are_refused(
    arena: ServerProcess, people: Callable[..., Player]
) -> None:
    player = people(lang="es")
    too_many = player.http.post("/api/tables", json={
        "game": "kami", "players": 2, "bots": ["random", "random", None]})
    message = refused(too_many, 422, "extra_bots")
    assert message.startswith("3 bots para 2 asientos")
    assert player.ok(player.http.get("/api/me/tables")) == []
    made = player.create("kami", 4, bots=["random", None, "greedy"])  # exactly the seats
    assert [s["bot"] for s in made["seats"]][1:] == ["random", None, "greedy"]


# ---- in a real browser ---------------------------------------------------------------------
def test_the_browser_client_and_docs_run_under_the_policy(arena: ServerProcess) -> None:
    """The pages do everything they do with the policy on, in Chromium: a guest signs in (a
    same-origin POST the browser marks with ``Origin``), and Swagger UI draws the API from
    this server's files only (``browser_check.py``, in its own process)."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        if REQUIRED:
            pytest.fail(f"no Chromium at {CHROMIUM} (required: LUDOTECA_REQUIRE_SERVICES=1)")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    script = Path(__file__).with_name("browser_check.py")
    done = subprocess.run([sys.executable, str(script), arena.base, CHROMIUM],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout)
    assert seen["violations"] == [] and seen["errors"] == [], seen
    assert seen["hosts"] == [f"127.0.0.1:{arena.port}"], seen
    assert "Ludoteca arena" in seen["title"]
