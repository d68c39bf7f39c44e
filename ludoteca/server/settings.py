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
    # ---- accounts and the lobby (docs/server.md "Accounts and the lobby") -------------------
    account_signin_rate: int = field(
        default_factory=lambda: _int("LUDOTECA_ACCOUNT_SIGNIN_RATE", 10))
    """Failed sign-ins per account name per 15 minutes, from all addresses together; then that
    name's sign-ins are refused until the window moves on."""
    trusted_proxies: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            p.strip() for p in os.environ.get("LUDOTECA_TRUSTED_PROXIES", "").split(",")
            if p.strip()
        )
    )
    """Addresses (or networks) of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed; empty: nobody's, the socket's address counts."""
    open_table_minutes: float = field(
        default_factory=lambda: _float("LUDOTECA_OPEN_TABLE_MINUTES", 60.0))
    """An open table that has not started this long after it was opened is abandoned."""
    guest_days: float = field(default_factory=lambda: _float("LUDOTECA_GUEST_DAYS", 30.0))
    """A guest account not used for this long is purged with its sessions."""
    housekeeping_seconds: float = field(
        default_factory=lambda: _float("LUDOTECA_HOUSEKEEPING_SECONDS", 60.0))
    """How often the server looks for open tables and guests to let go of."""
    webhook_timeout: float = 5.0
    # ---- what one client or account may cost the arena (issue 23; docs/server.md) ----
    socket_rate: int = field(default_factory=lambda: _int("LUDOTECA_SOCKET_RATE", 200))
    """Messages one table socket may send per 10 seconds; a flood is closed."""
    sockets_per_address: int = field(
        default_factory=lambda: _int("LUDOTECA_SOCKETS_PER_ADDRESS", 100))
    sockets_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_SOCKETS_PER_ACCOUNT", 20))
    tables_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_TABLES_PER_ACCOUNT", 10))
    """Open and running tables one account may host at once."""
    search_bots_per_account: int = field(
        default_factory=lambda: _int("LUDOTECA_SEARCH_BOTS_PER_ACCOUNT", 4))
    """Bots at search levels (medium, hard) at the open and running tables one account hosts."""
    webhook_test_networks: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            n.strip() for n in os.environ.get("LUDOTECA_WEBHOOK_TEST_NETWORKS", "").split(",")
            if n.strip()))
    """For tests only (default empty): networks webhooks may reach besides public ones, such
    as ``127.0.0.1/32`` for a receiver in the test itself. Never set it on a real server."""
    webhook_test_hosts: str | None = field(
        default_factory=lambda: os.environ.get("LUDOTECA_WEBHOOK_TEST_HOSTS") or None)
    """For tests only (default unset): a hosts file webhook hosts are looked up in before
    DNS, read at every lookup (a test changes it to play a rebinding DNS server)."""
    # ---- requests and the web (issue 23; docs/server.md "Requests and the web") ----
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: _names("LUDOTECA_ALLOWED_HOSTS"))
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
