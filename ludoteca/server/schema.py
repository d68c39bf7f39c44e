"""Every table's model in one ``Base.metadata``: ``db.py``'s and those of the modules that keep
their own rows (``push_rows``). The migrations compare against this (``migrate.py``,
``migrations/env.py``)."""

from __future__ import annotations

from ludoteca.server import push_rows
from ludoteca.server.db import Base

__all__ = ["Base", "push_rows"]
