"""Attacks on a request's head, from outside over plain sockets, against a real ``ludoteca
serve`` (``http_limits.py``): long lines, large heads, cookie bombs, slow heads, and many
half-sent heads. Each is refused with a typed error before anything parses it, and the server
stays quick and small meanwhile.

The server runs on this suite's Python; on one before 3.11.10 / 3.12.6 (this machine's 3.11.7)
the cookie tests meet the real quadratic parser (CVE-2024-7592)."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from arena_process import ServerProcess

from ludoteca.server.python_check import cookie_parser_is_quadratic
from tests.security.raw_http import (
    Answer,
    cookie_bomb,
    cpu_seconds,
    exchange,
    get,
    peak_rss,
    read_answer,
    request_head,
    rss,
)

MIB = 1024 * 1024
TIMEOUT = 3.0
"""The head and body deadline these tests' server runs with (LUDOTECA_REQUEST_TIMEOUT;
default 10 s)."""


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("edge")
    server = ServerProcess(f"sqlite:///{folder / 'arena.sqlite3'}", folder,
                           LUDOTECA_REQUEST_TIMEOUT=str(TIMEOUT))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def refused(answer: Answer, status: int, code: str) -> str:
    assert answer.status == status, answer
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["connection"] == "close"
    body = answer.json()
    assert body["type"] == "error" and body["code"] == code, body
    message: str = body["message"]
    return message


def test_the_server_says_when_its_python_parses_cookies_slowly(arena: ServerProcess) -> None:
    """One warning line at start on an affected Python (this machine's 3.11.7 is one)."""
    assert cookie_parser_is_quadratic((3, 11, 7)) and cookie_parser_is_quadratic((3, 12, 1))
    assert not cookie_parser_is_quadratic((3, 11, 10))
    assert not cookie_parser_is_quadratic((3, 12, 6))
    assert not cookie_parser_is_quadratic((3, 13, 0))
    log = "".join(p.read_text() for p in arena.folder.glob("server-*.log"))
    said = [line for line in log.splitlines() if "CVE-2024-7592" in line]
    assert len(said) == (1 if cookie_parser_is_quadratic() else 0), said
    assert all('"level": "warning"' in line for line in said)


def test_make_run_picks_a_python_without_the_quadratic_parser() -> None:
    """``tools/safe_python.py`` (what ``make run`` serves with): a fixed Python when the
    machine has one (this one has 3.13.0 under pyenv), and nothing otherwise."""
    root = Path(__file__).resolve().parents[2]
    found = subprocess.run([sys.executable, "-m", "tools.safe_python", sys.executable],
                           cwd=root, capture_output=True, text=True, timeout=120, check=True)
    chosen = found.stdout.strip()
    if not chosen:
        assert cookie_parser_is_quadratic()
        return
    version = subprocess.run([chosen, "-c", "import sys; print(*sys.version_info[:3])"],
                             capture_output=True, text=True, timeout=60, check=True)
    parts = tuple(int(p) for p in version.stdout.split())
    assert parts >= (3, 11) and not cookie_parser_is_quadratic(parts)


def test_a_long_header_line_or_address_is_refused(arena: ServerProcess) -> None:
    long_header = request_head("/api/session", ("Accept-Language", "es"), ("X-Long", "a" * 9000))
    message = refused(exchange(arena.port, long_header), 431, "header_too_large")
    assert message == "Una cabecera de la petición es demasiado larga (8192 bytes como mucho)."
    long_url = request_head("/api/session?x=" + "a" * 9000)
    assert "8192" in refused(exchange(arena.port, long_url), 414, "url_too_long")
    # one just under the limit is served
    assert get(arena.port, "/healthz", ("X-Long", "a" * 8000)).status == 200


def test_large_headers_altogether_are_refused(arena: ServerProcess) -> None:
    many = [(f"X-Part-{i}", "b" * 4000) for i in range(9)]  # each line fine, 36 KB together
    message = refused(exchange(arena.port, request_head("/healthz", *many)), 431,
                      "headers_too_large")
    assert "32768" in message
    assert get(arena.port, "/healthz", *many[:7]).status == 200  # 28 KB: served


def test_a_cookie_bomb_stalls_nobody(arena: ServerProcess) -> None:
    """A 2 MB cookie built to make the old unquoting quadratic (19 s for 1 MB on 3.11.7)
    is refused as it arrives, and another client's /healthz is answered meanwhile."""
    bomb = request_head("/api/session", ("Cookie", cookie_bomb(2_000_000)))
    bombed: list[Answer] = []
    sender = threading.Thread(target=lambda: bombed.append(exchange(arena.port, bomb)))
    sender.start()
    time.sleep(0.2)
    health = get(arena.port, "/healthz", timeout=10)
    sender.join(30)
    assert health.status == 200 and health.seconds < 1.0, health
    message = refused(bombed[0], 431, "cookie_too_large")
    assert "8192" in message


def test_cookies_under_the_limit_never_reach_the_quadratic_parser(arena: ServerProcess) -> None:
    """Quoted cookie values just under the size limit, the arena's own cookie name included:
    on an affected Python each would cost the parser about 70 ms. The app gets only plain
    values of its own cookies, so forty of them cost the server almost nothing."""
    values = [cookie_bomb(8100 - len("Cookie: \r\n")),
              "ludoteca_session=" + cookie_bomb(8050).partition("=")[2]]
    before = cpu_seconds(arena.pid)
    for i in range(40):
        answer = get(arena.port, "/api/session", ("Cookie", values[i % 2]))
        assert answer.status == 200 and answer.json() == {"me": None}, answer
    assert cpu_seconds(arena.pid) - before < 1.0


def test_slow_headers_are_cut_off(arena: ServerProcess) -> None:
    """A head sent a byte every 0.2 s does not arrive within the deadline: 408, closed."""
    data = request_head("/healthz", ("X-Padding", "p" * 40))
    start = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", arena.port), timeout=10) as sock:
        try:
            for byte in data:
                sock.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.2)
        except OSError:  # the server closed it
            pass
        answer = read_answer(sock, 10)
    elapsed = time.monotonic() - start
    assert sent < len(data)
    assert TIMEOUT - 0.5 < elapsed < TIMEOUT + 3, elapsed
    message = refused(answer, 408, "request_timeout")
    assert "3" in message


def test_an_idle_connection_is_closed(arena: ServerProcess) -> None:
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", arena.port), timeout=10) as sock:
        assert sock.recv(100) == b""  # closed without a word: it asked nothing
    assert TIMEOUT - 0.5 < time.monotonic() - start < TIMEOUT + 3


def test_memory_stays_bounded_under_half_sent_headers(arena: ServerProcess) -> None:
    """Eight clients each start a 48 MiB header and never finish it. Each is refused once
    its head passes the limit; the server's memory hardly moves (before the limits: from 102
    to 632 MiB, benchmarks/http_edge.py)."""
    before = rss(arena.pid)
    sent: list[int] = []

    def send() -> None:
        done = 0
        with socket.create_connection(("127.0.0.1", arena.port), timeout=30) as sock:
            try:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ")
                for _ in range(48):
                    sock.sendall(b"a" * MIB)
                    done += 1
            except OSError:
                pass
        sent.append(done)

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(sent) == 8 and max(sent) < 16, sent  # every one cut off early
    assert peak_rss(arena.pid) - before < 48 * MIB
    assert get(arena.port, "/healthz").status == 200


def test_a_slow_body_is_cut_off(arena: ServerProcess) -> None:
    """The head arrives at once, the body a byte every 0.2 s: 408 once the body's deadline
    passes, and the route that waited for it ends quietly."""
    body = b'{"name": "Lento", "password": "correct horse"}'
    head = request_head("/api/signin", ("Content-Type", "application/json"),
                        ("X-Ludoteca-Client", "tests"), method="POST", body=body)
    head = head[:-len(body)]
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", arena.port), timeout=10) as sock:
        sock.sendall(head)
        try:
            for byte in body:
                sock.sendall(bytes([byte]))
                time.sleep(0.2)
        except OSError:
            pass
        answer = read_answer(sock, 10)
    assert TIMEOUT - 0.5 < time.monotonic() - start < TIMEOUT + 3
    refused(answer, 408, "request_timeout")
    assert "request failed" not in arena.log() and "Traceback" not in arena.log()
