"""``ludoteca serve`` in a real process on a free port, for the integration tests, the browser
tests and the benchmarks (one launcher, so they all start the server the same way)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """One ``ludoteca serve`` process: ``start``, ``kill`` (SIGKILL) and ``start`` again on the
    same database and port, or ``stop`` (SIGTERM, the graceful shutdown). Bots move at once and
    the rate limits and the per-address socket cap are lifted unless ``env`` says otherwise."""

    def __init__(self, database_url: str, folder: Path, module: str = "ludoteca.cli",
                 **env: str) -> None:
        self.database_url = database_url
        self.folder = folder
        self.module = module
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "LUDOTECA_BOT_DELAY": "0", "LUDOTECA_BOT_PROCESSES": "1",
                    "LUDOTECA_AUTH_RATE": "1000000", "LUDOTECA_CREATE_RATE": "1000000",
                    # every client here is on 127.0.0.1 (the benchmarks open 600 sockets), and
                    # some tests probe a table with many messages on one socket
                    "LUDOTECA_SOCKETS_PER_ADDRESS": "1000000", "LUDOTECA_SOCKET_RATE": "1000000",
                    **env}
        self.process: subprocess.Popen[bytes] | None = None
        self.runs = 0

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        self.runs += 1
        with (self.folder / f"server-{self.port}-{self.runs}.log").open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", self.module, "serve", "--port", str(self.port),
                 "--database-url", self.database_url],
                env=self.env, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
                start_new_session=True,  # its bot pool too is killed with it
            )
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log()}")

    def log(self) -> str:
        return self.log_text()[-4000:]

    def log_text(self) -> str:
        """Everything the server wrote, over all its starts."""
        logs = sorted(self.folder.glob(f"server-{self.port}-*.log"))
        return "\n".join(p.read_text(errors="replace") for p in logs)

    def kill(self) -> None:
        """SIGKILL to the server and every process it started, as when its machine dies."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM (graceful shutdown), then SIGKILL after 20 s."""
        assert self.process is not None
        if self.process.poll() is None:
            try:
                return terminate(self.process)
            finally:  # whatever of its bot pool outlived it
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
        return int(self.process.returncode)


def terminate(process: subprocess.Popen[bytes], grace: float = 20) -> int:
    """SIGTERM, then SIGKILL if it has not exited after ``grace`` seconds; its exit code."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            return process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
    return int(process.returncode)


class RedisServer:
    """A ``redis-server`` of one test's or benchmark's own on a free port, keeping nothing on
    disk: ``start``, ``kill`` (SIGKILL) and ``start`` again on the same port, or ``stop``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> None:
        with (self.folder / f"redis-{self.port}.log").open("ab") as log:
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no"],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
                start_new_session=True,  # Ctrl-C reaches it through whoever started it
            )
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=1):
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        """SIGKILL, as when Redis crashes."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None:
            terminate(self.process, grace=10)


@contextlib.contextmanager
def sqlite_arena(folder: Path) -> Iterator[ServerProcess]:
    """A started server on a new SQLite database in ``folder``, stopped at the end."""
    server = ServerProcess(f"sqlite:///{folder / 'arena.sqlite3'}", folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
