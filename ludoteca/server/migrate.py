"""Schema migrations (Alembic), applied when the server starts.

Writing the next migration after a change to the models is ``python -m
ludoteca.server.migrate "what changed"`` (docs/server.md): it prints the file written, or one
line saying why nothing was written."""

from __future__ import annotations

import sys
import tempfile
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


class NothingToWrite(ValueError):
    """The models match the newest migration: autogenerate has nothing to put in a new one."""


def new_revision(message: str, autogenerate: bool = True) -> Path:
    """Write the next migration for a change to the models in ``db.py``; the file's path.

    It is numbered after the newest one (``0003`` after ``0002``: Alembic's random ids, or a
    number typed by hand, would collide or read out of order), and with ``autogenerate`` holds
    what Alembic finds between the models and a scratch SQLite database brought to the newest
    schema in a temporary folder (nothing else is touched). Finding nothing is an error
    (``NothingToWrite``) rather than an empty file; ``autogenerate=False`` writes an empty one
    to fill by hand."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from alembic.script import Script, ScriptDirectory

    from ludoteca.server.schema import Base

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'scratch.sqlite3'}"
        upgrade(url)
        config = alembic_config(url)
        if autogenerate:
            engine = create_engine(sync_url(url), poolclass=pool.NullPool)
            try:
                with engine.connect() as connection:
                    changes = compare_metadata(MigrationContext.configure(connection),
                                               Base.metadata)
            finally:
                engine.dispose()
            if not changes:
                raise NothingToWrite("the models in db.py match the newest migration: nothing "
                                     "to write (--empty writes an empty one to fill by hand)")
        head = ScriptDirectory.from_config(config).get_current_head()
        script = command.revision(config, message=message, autogenerate=autogenerate,
                                  rev_id=f"{int(head or 0) + 1:04d}")
    assert isinstance(script, Script)
    return Path(script.path)


def main(argv: list[str]) -> int:
    """``python -m ludoteca.server.migrate MESSAGE [--empty]``: the path written, or one
    ``error:`` line on stderr and status 1 (no traceback for a reason a person can act on)."""
    args = [a for a in argv if a != "--empty"]
    if len(args) != 1 or not args[0].strip() or args[0].startswith("-"):
        print('usage: python -m ludoteca.server.migrate "what changed" [--empty]',
              file=sys.stderr)
        return 2
    try:
        path = new_revision(args[0], autogenerate="--empty" not in argv)
    except NothingToWrite as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"Wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
