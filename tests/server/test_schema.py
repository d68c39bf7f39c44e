"""The migrations build exactly the schema the models describe (``db.py``): a model changed
without its migration, or the other way round, fails here."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from ludoteca.server import migrate
from ludoteca.server.schema import Base


def test_the_migrated_schema_is_the_models_schema(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'arena.sqlite3'}"
    migrate.upgrade(url)
    engine = create_engine(url)
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert differences == []
