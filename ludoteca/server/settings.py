"""Server settings: command-line flags over environment variables over defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from platformdirs import user_data_path

DEFAULT_PORT = 8000
MESSAGE_LIMIT = 64 * 1024
"""The largest WebSocket message or HTTP body a client may send (bytes)."""


def default_database_url() -> str:
    """A SQLite file in the user data directory: nothing to install."""
    folder = user_data_path("ludoteca", appauthor=False, ensure_exists=True)
    return f"sqlite:///{folder / 'arena.sqlite3'}"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "")
    return float(raw) if raw.strip() else default


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def _names(name: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in os.environ.get(name, "").split(",") if n.strip())


@dataclass
class Settings:
    database_url: str = field(
        default_factory=lambda: os.environ.get("LUDOTECA_DATABASE_URL") or default_database_url()
    )
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    bot_delay: float = field(default_factory=lambda: _float("LUDOTECA_BOT_DELAY", 0.8))
    """Least seconds between a table's last move and a bot's answer, so people can follow."""
    bot_processes: int = field(default_factory=lambda: _int("LUDOTECA_BOT_PROCESSES", 0))
    """Processes that choose bot moves (0: one per core, at least 1)."""
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o.strip() for o in os.environ.get("LUDOTECA_ALLOWED_ORIGINS", "").split(",")
            if o.strip()
        )
    )
    """WebSocket origins accepted besides the server's own address."""
    auth_rate: int = field(default_factory=lambda: _int("LUDOTECA_AUTH_RATE", 10))
    """Sign-ins, sign-ups and guest accounts per minute and client address."""
    create_rate: int = field(default_factory=lambda: _int("LUDOTECA_CREATE_RATE", 20))
    """Tables a user may create per minute."""
    chat_rate: int = 5
    """Chat lines a user may send per 10 seconds and table."""
    redis_url: str | None = field(
        default_factory=lambda: os.environ.get("LUDOTECA_REDIS_URL") or None
    )
    """Set: this process is one of several serving the arena (docs/deploy.md); table messages
    and notifications go through this Redis. None: everything stays in this process."""
    lease_seconds: float = field(default_factory=lambda: _float("LUDOTECA_LEASE_SECONDS", 10.0))
    """How long a process's hold on a table's clocks and bots lasts unless renewed: when a
    process dies, another takes its tables over within about this time."""
    bots: str = field(default_factory=lambda: os.environ.get("LUDOTECA_BOTS") or "local")
    """``local``: bot moves in this process's own pool; ``queue``: sent through Redis to
    ``ludoteca worker`` processes (this pool only when no worker is seen)."""
    rematch_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_REMATCH_SECONDS", 120.0))
    """How long a rematch offer waits for the other players' answers."""
    session_days: int = 30
    webhook_timeout: float = 5.0
    allowed_hosts: tuple[str, ...] = field(default_factory=lambda: _names("LUDOTECA_ALLOWED_HOSTS"))
    """Host names this server answers to besides IP addresses, localhost and the machine's own
    name (``web_security.py``); ``.example.org`` also takes its subdomains, ``*`` any name."""
    header_line_limit: int = field(
        default_factory=lambda: _int("LUDOTECA_HEADER_LINE_LIMIT", 8192))
    """Bytes of the request line or of one header (``http_limits.py``)."""
    header_limit: int = field(default_factory=lambda: _int("LUDOTECA_HEADER_LIMIT", 32768))
    """Bytes of a request's whole head: request line and headers."""
    cookie_limit: int = field(default_factory=lambda: _int("LUDOTECA_COOKIE_LIMIT", 8192))
    """Bytes of a request's ``Cookie`` headers together."""
    request_timeout: float = field(
        default_factory=lambda: _float("LUDOTECA_REQUEST_TIMEOUT", 10.0))
    """Seconds a client has to send a request's head, from its first byte (or from opening
    the connection), and then again to send its body."""

    @property
    def data_dir(self) -> Path:
        return user_data_path("ludoteca", appauthor=False)
