"""What one client may cost the table sockets (issue 23): a message rate per connection, and
a cap on open table sockets per client address and per account.

A flood is answered once (``rate_limited``) and then the socket is closed with
``FLOOD_CLOSE`` and a reason, rather than read on: every message read costs the server work,
so a client that ignores the refusal must not keep the server busy. The caps refuse the socket
before it loads its table (``too_many_sockets``, then the same close code).
"""

from __future__ import annotations

import logging
from collections import Counter, deque
from collections.abc import Iterable

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError

log = logging.getLogger("ludoteca.server")

FLOOD_CLOSE = 1008
"""WebSocket close code (policy violation) for a flood and a socket over the caps."""
RATE_WINDOW = 10.0
"""Seconds over which a socket's messages are counted."""


class MessageRate:
    """At most ``count`` messages per ``RATE_WINDOW`` seconds on one socket (a sliding
    window on the monotonic clock)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.times: deque[float] = deque()

    def allows(self, now: float) -> bool:
        """Count one message at ``now``; False once the window is full."""
        times = self.times
        while times and times[0] <= now - RATE_WINDOW:
            times.popleft()
        if len(times) >= self.count:
            return False
        times.append(now)
        return True

    def refusal(self) -> ServerError:
        return ServerError("rate_limited", E.SOCKET_FLOOD, 429, count=self.count,
                           seconds=int(RATE_WINDOW))

    def close_reason(self) -> str:
        """Sent with the close frame (at most 123 bytes, ASCII: read by programs)."""
        return f"rate_limited: more than {self.count} messages in {int(RATE_WINDOW)} s"


class SocketCounts:
    """Open table sockets by client address and by account, against their caps."""

    def __init__(self, per_address: int, per_account: int) -> None:
        self.per_address = per_address
        self.per_account = per_account
        self.by_address: Counter[str] = Counter()
        self.by_account: Counter[int] = Counter()

    def enter(self, address: str, user_id: int | None) -> ServerError | None:
        """Count a new socket, or the refusal when it would pass a cap (nothing counted)."""
        if self.by_address[address] >= self.per_address:
            log.warning("too many table sockets from one address",
                        extra={"address": address, "limit": self.per_address})
            return ServerError("too_many_sockets", E.SOCKETS_PER_ADDRESS, 429,
                               count=self.per_address)
        if user_id is not None and self.by_account[user_id] >= self.per_account:
            log.warning("too many table sockets for one account",
                        extra={"user_id": user_id, "limit": self.per_account})
            return ServerError("too_many_sockets", E.SOCKETS_PER_ACCOUNT, 429,
                               count=self.per_account)
        self.by_address[address] += 1
        if user_id is not None:
            self.by_account[user_id] += 1
        return None

    def leave(self, address: str, user_id: int | None) -> None:
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        if user_id is not None:
            self.by_account[user_id] -= 1
            if self.by_account[user_id] <= 0:
                del self.by_account[user_id]


def too_deep(data: object, limit: int) -> bool:
    """Whether a parsed JSON value nests lists and objects more than ``limit`` levels deep
    (walked without recursion: the value may be deep enough to exhaust the stack)."""
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
