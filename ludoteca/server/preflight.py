"""What ``ludoteca serve`` does before it starts anything: check that the database answers,
bring its schema up to date, and bind the address it will listen on.

Each would otherwise fail inside uvicorn's start-up, which prints a traceback (an unreachable
database, a database user who may not create tables) or logs the error after the arena has
started and stopped again (a port in use). Here each becomes a ``SettingError``: one line,
naming what to fix.
"""

from __future__ import annotations

import contextlib
import errno
import socket
from pathlib import Path

from sqlalchemy import create_engine, pool, text

from ludoteca.server import migrate
from ludoteca.server.db import sync_url
from ludoteca.server.settings import SettingError, hide_password

CONNECT_SECONDS = 5
"""How long the first connection to PostgreSQL may take before the arena gives up."""

_HINTS = {
    errno.EADDRINUSE: "another program listens there; choose another --port",
    errno.EACCES: "ports below 1024 need privileges; choose a --port from 1024",
    errno.EADDRNOTAVAIL: "not an address of this machine; see --host",
}


def first_line(exc: BaseException) -> str:
    """The first line of what ``exc`` says, without SQLAlchemy's wrapping: driver messages
    run over several lines, and the operator gets one."""
    found = getattr(exc, "orig", None) or exc
    lines = [line.strip() for line in str(found).splitlines() if line.strip()]
    return lines[0] if lines else type(found).__name__


def check_database(url: str) -> None:
    """Connect once and run ``SELECT 1``; a SQLite file's folder is created as the migrations
    would. Raises a ``SettingError`` saying why the database cannot be used."""
    shown = hide_password(url)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SettingError(f"cannot use the database {shown}: cannot create its "
                                   f"folder ({exc.strerror})") from None
    connect_args = {"connect_timeout": CONNECT_SECONDS} if url.startswith("postgres") else {}
    try:
        engine = create_engine(sync_url(url), poolclass=pool.NullPool, connect_args=connect_args)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        finally:
            engine.dispose()
    except Exception as exc:
        raise SettingError(f"cannot use the database {shown}: {first_line(exc)}") from None


def migrate_database(url: str) -> None:
    """Apply the pending migrations (the server's start then finds none left to apply)."""
    try:
        migrate.upgrade(url)
    except Exception as exc:
        raise SettingError(f"cannot migrate the database {hide_password(url)}: "
                           f"{first_line(exc)}") from None


def listen(host: str, port: int) -> list[socket.socket]:
    """Bound sockets for every address ``host`` names (``localhost``: IPv4 and IPv6), as
    uvicorn would bind them, for it to serve on."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise SettingError(f"--host {host!r} is not an address to listen on ({reason})") from None
    sockets: list[socket.socket] = []
    seen: set[tuple[int, object]] = set()
    try:
        for family, kind, proto, _, address in found:
            if (family, address) in seen:
                continue
            seen.add((family, address))
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                hint = _HINTS.get(exc.errno or 0, "")
                raise SettingError(f"cannot listen on {host} port {port}: {exc.strerror}"
                                   + (f" ({hint})" if hint else "")) from None
    except BaseException:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.close()
        raise
    return sockets
