"""Every table's model in one ``Base.metadata``: ``db.py``'s and those of the modules that keep
their own rows (``friend_rows``, ``push_rows``) or indexes (``pools``). The migrations compare
against this (``migrate.py``, ``migrations/env.py``)."""

from __future__ import annotations

from ludoteca.server import friend_rows, pools, push_rows
from ludoteca.server.db import Base

__all__ = ["Base", "friend_rows", "pools", "push_rows"]
