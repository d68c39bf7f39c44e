"""Schema migrations (Alembic), applied when the server starts."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, pool, text

from ludoteca.server.db import sync_url

LOCK = 0x4C75646F
"""PostgreSQL advisory lock held while migrating: several processes starting at once (issue
16) migrate one after another, and the later ones find nothing to do."""

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (creating a SQLite file's folder)."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    if not sync_url(url).startswith("postgresql"):
        command.upgrade(alembic_config(url), "head")
        return
    engine = create_engine(sync_url(url), poolclass=pool.NullPool)
    try:
        with engine.connect() as lock:
            lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": LOCK})
            try:
                command.upgrade(alembic_config(url), "head")
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": LOCK})
    finally:
        engine.dispose()
