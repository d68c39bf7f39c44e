"""What hostile requests cost a real ``ludoteca serve`` process, on this tree and, with
``--against TREE``, on another checkout (a ``git worktree`` of an older commit), one after the
other on the same machine:

    python benchmarks/http_edge.py [--against /tmp/base] [--cookie-bytes 1000000]
                                   [--connections 8] [--header-mib 48]

- **cookie bomb**: one client sends ``GET /api/session`` with a ``Cookie`` header of about
  ``--cookie-bytes`` bytes built so that the standard library's cookie unquoting is quadratic
  on Python before 3.11.10 / 3.12.6 (CVE-2024-7592); 0.2 s after it is sent, a second client
  asks ``/healthz``. Printed: how long the second client waited, and what the first got.
- **half-sent headers**: ``--connections`` clients each send a request line and one header
  of ``--header-mib`` MiB that never ends, all at once. Printed: the server's resident memory
  before, its peak and its CPU seconds meanwhile, and how each connection ended.
- **slow headers**: one client sends a request one byte a second. Printed: when the server
  closed it (or that it had not after 40 s).

The attacks come from ``tests/security/raw_http.py`` (the edge tests run the same ones).
Every run starts its own server on a new SQLite file, on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "tests" / "support"))

from arena_process import ServerProcess  # noqa: E402

from tests.security.raw_http import (  # noqa: E402
    Answer,
    cookie_bomb,
    cpu_seconds,
    exchange,
    get,
    peak_rss,
    request_head,
    rss,
)

MIB = 1024 * 1024


def cookie_stall(server: ServerProcess, size: int) -> None:
    bombed: list[Answer] = []
    bomb = request_head("/api/session", ("Cookie", cookie_bomb(size)))
    sender = threading.Thread(target=lambda: bombed.append(exchange(server.port, bomb, 600)))
    sender.start()
    time.sleep(0.2 + len(bomb) / (500 * MIB))  # the bomb is on the wire
    health = get(server.port, "/healthz", timeout=600)
    sender.join()
    print(f"  cookie bomb of {len(bomb):,} bytes: /healthz answered {health.status} after "
          f"{health.seconds:.3f} s; the bomb got {bombed[0].status} after "
          f"{bombed[0].seconds:.3f} s")


def half_sent(server: ServerProcess, connections: int, mib: int) -> None:
    before, cpu = rss(server.pid), cpu_seconds(server.pid)
    ends: list[str] = []
    sockets: list[socket.socket] = []

    def send() -> None:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=120)
        sockets.append(sock)
        start = time.monotonic()
        sent = 0
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: ")
            chunk = b"a" * MIB
            for _ in range(mib):
                sock.sendall(chunk)
                sent += 1
            ends.append(f"all {mib} MiB sent in {time.monotonic() - start:.1f} s, still open")
        except OSError as exc:
            ends.append(f"cut after {sent} MiB, {time.monotonic() - start:.2f} s "
                        f"({type(exc).__name__})")

    threads = [threading.Thread(target=send) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(1)
    print(f"  {connections} half-sent {mib} MiB headers: server RSS {before / MIB:.0f} MiB "
          f"before, {rss(server.pid) / MIB:.0f} MiB after, peak {peak_rss(server.pid) / MIB:.0f}"
          f" MiB; {cpu_seconds(server.pid) - cpu:.2f} CPU s")
    for end in sorted(set(ends)):
        print(f"    {ends.count(end)} x {end}")
    for sock in sockets:
        sock.close()


def slow_headers(server: ServerProcess, limit: float = 40) -> None:
    data = request_head("/healthz")
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        for i in range(len(data)):
            if time.monotonic() - start > limit:
                print(f"  slow headers: still open after {limit:.0f} s ({i} bytes sent)")
                return
            try:
                sock.sendall(data[i:i + 1])
            except OSError:
                break
            time.sleep(1)
        answer = b""
        with contextlib.suppress(OSError):
            answer = sock.recv(200)
    status = answer.split(b"\r\n", 1)[0].decode("latin-1") or "closed"
    print(f"  slow headers: ended after {time.monotonic() - start:.1f} s ({status})")


def run(tree: Path, args: argparse.Namespace) -> None:
    print(f"{tree}:")
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{folder}/arena.sqlite3", Path(folder),
                               PYTHONPATH=str(tree))
        server.start()
        try:
            cookie_stall(server, args.cookie_bytes)
            half_sent(server, args.connections, args.header_mib)
            slow_headers(server)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure too")
    parser.add_argument("--cookie-bytes", type=int, default=1_000_000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--header-mib", type=int, default=48)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} ({sys.executable}), pid {os.getpid()}")
    if args.against is not None:
        run(args.against.resolve(), args)
    run(HERE, args)


if __name__ == "__main__":
    main()
