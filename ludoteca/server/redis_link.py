"""How a process of the arena reaches Redis, and the name it goes by there."""

from __future__ import annotations

import os
import secrets
import socket

from redis.asyncio import Redis


def process_name() -> str:
    """This process among the arena's: host, pid and a random tag (pids repeat)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def connect(url: str) -> Redis:
    return Redis.from_url(
        url, socket_connect_timeout=2, socket_timeout=None, health_check_interval=5,
        retry_on_timeout=False,
    )
