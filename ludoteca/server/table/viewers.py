"""The open sockets of one table, grouped so that each message is built once per (viewer,
language) and the same text goes to every socket of that kind."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

from ludoteca.server.connection import Connection
from ludoteca.server.table.state import utcnow

Build = Callable[[int | None, str, datetime], str]
"""A message for a viewer (a seat, or None for a spectator) in a language, as of ``now``."""


class Viewers:
    def __init__(self) -> None:
        self._conns: set[Connection] = set()

    def __len__(self) -> int:
        return len(self._conns)

    def __bool__(self) -> bool:
        return bool(self._conns)

    def __iter__(self) -> Iterator[Connection]:
        return iter(list(self._conns))

    def add(self, conn: Connection) -> None:
        self._conns.add(conn)

    def discard(self, conn: Connection) -> None:
        self._conns.discard(conn)

    def reseat(self, seat_of: Callable[[int | None], int | None]) -> None:
        """Seats changed: each socket's viewer is its person's seat now."""
        for conn in self._conns:
            conn.seat = seat_of(conn.user_id)

    def send_each(self, build: Build) -> int:
        """Build once per kind of viewer, send to each socket; the number of sockets told."""
        groups: dict[tuple[int | None, str], list[Connection]] = {}
        for conn in self._conns:
            groups.setdefault((conn.seat, conn.lang), []).append(conn)
        now = utcnow()
        for (viewer, lang), conns in groups.items():
            text = build(viewer, lang, now)
            for conn in conns:
                conn.send(text)
        return len(self._conns)

    def send_all(self, text: str) -> None:
        for conn in self._conns:
            conn.send(text)
