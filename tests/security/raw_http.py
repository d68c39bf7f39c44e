"""HTTP written byte for byte over plain sockets, as an attacker writes it (no client library
tidies the request up), and what the server process costs meanwhile (read from /proc).

Used by the edge tests (``test_http_edge.py``, ``test_web.py``) and by
``benchmarks/http_edge.py``, which measures the same attacks on two trees.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Answer:
    """An HTTP answer as it came over the socket; ``status`` 0 when the server closed or
    reset the connection without one."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    seconds: float = 0.0

    def json(self) -> Any:
        return json.loads(self.body)


def request_head(path: str = "/healthz", *headers: tuple[str, str], method: str = "GET",
                 host: str = "127.0.0.1", body: bytes = b"") -> bytes:
    """A complete request: request line, ``Host``, the given headers, ``Connection: close``."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close",
             *(f"{name}: {value}" for name, value in headers)]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def read_answer(sock: socket.socket, timeout: float) -> Answer:
    """Read until the server closes (every request here says ``Connection: close``)."""
    start = time.monotonic()
    sock.settimeout(timeout)
    data = b""
    with contextlib.suppress(ConnectionResetError, BrokenPipeError):
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return parse_answer(data, time.monotonic() - start)


def parse_answer(data: bytes, seconds: float = 0.0) -> Answer:
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/"):
        return Answer(0, seconds=seconds)
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding") == "chunked":
        body = _unchunk(body)
    return Answer(int(lines[0].split()[1]), headers, body, seconds)


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2:]
    return out


def exchange(port: int, data: bytes, timeout: float = 30) -> Answer:
    """Send ``data`` whole (as far as the server reads it), then read the answer; the time
    is from the first byte sent to the connection's end."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            sock.sendall(data)
        answer = read_answer(sock, timeout)
    answer.seconds = time.monotonic() - start
    return answer


def get(port: int, path: str = "/healthz", *headers: tuple[str, str],
        timeout: float = 30, host: str = "127.0.0.1") -> Answer:
    return exchange(port, request_head(path, *headers, host=host), timeout)


def cookie_bomb(size: int) -> str:
    """A ``Cookie`` header value of about ``size`` bytes that the standard library's
    ``http.cookies._unquote`` takes quadratic time over before Python 3.11.10 / 3.12.6
    (CVE-2024-7592): a quoted value that starts with a long run of escaped quotes. About 1 MB
    of it took 19 s on Python 3.11.7."""
    escapes = min((size - 2) // 2, 50_000)
    value = '"' + '\\"' * escapes + "a" * max(0, size - 2 * escapes - 2) + '"'
    return f"ludoteca_theme={value}"


def rss(pid: int) -> int:
    """The process's resident memory now, in bytes."""
    return _status(pid, "VmRSS")


def peak_rss(pid: int) -> int:
    """The most resident memory the process has had, in bytes."""
    return _status(pid, "VmHWM")


def _status(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise LookupError(key)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
