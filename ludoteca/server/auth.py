"""Passwords (Argon2), session tokens, guest names and the sign-in rate limits (names
themselves are ``names.py``'s)."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import deque

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ludoteca.server import errors as E
from ludoteca.server.errors import ServerError

COOKIE = "ludoteca_session"

_hasher = PasswordHasher()
HASHING = threading.BoundedSemaphore(4)
"""Argon2 holds 64 MiB while it hashes, and the thread pool runs up to 40 at once: a crowd
signing in together (a club night, a tournament's entrants) would take 2.5 GiB. Four at a
time is what the CPU gets through anyway (each hash runs 4 lanes); the rest wait their turn."""


def check_password(password: str) -> str:
    if not 8 <= len(password) <= 128:
        raise ServerError("bad_password", E.BAD_PASSWORD)
    return password


def hash_password(password: str) -> str:
    """Slow on purpose (tens of ms): call it off the event loop."""
    with HASHING:
        return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Off the event loop too. A missing hash still costs a verification, so the time taken
    does not tell whether a name exists."""
    try:
        with HASHING:
            return _hasher.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


_DUMMY = _hasher.hash("not a password of anyone")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """Sessions are stored by hash: a copy of the database opens no one's session."""
    return hashlib.sha256(token.encode()).hexdigest()


def guest_name() -> str:
    return "guest_" + secrets.token_hex(3)


class RateLimit:
    """At most ``count`` events per ``seconds`` for each key (a sliding window in memory)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count = count
        self.seconds = seconds
        self._hits: dict[str, deque[float]] = {}

    def hit(self, key: str) -> None:
        """Count one event for ``key``, or raise ``too_many`` (and count nothing)."""
        self.check(key)
        self.count_one(key)

    def check(self, key: str) -> None:
        """Raise ``too_many`` if ``key`` used up its window, counting nothing (the per-account
        sign-in limit counts only failures, but refuses every attempt once reached)."""
        now = time.monotonic()
        hits = self._hits.get(key)
        if not hits:
            return
        while hits and hits[0] <= now - self.seconds:
            hits.popleft()
        if len(hits) >= self.count:
            wait = int(hits[0] + self.seconds - now) + 1
            raise ServerError("rate_limited", E.TOO_MANY, 429, seconds=wait)

    def count_one(self, key: str) -> None:
        now = time.monotonic()
        self._hits.setdefault(key, deque()).append(now)
        if len(self._hits) > 10_000:
            self._forget(now)

    def _forget(self, now: float) -> None:
        for key in [k for k, h in self._hits.items() if not h or h[-1] <= now - self.seconds]:
            del self._hits[key]
