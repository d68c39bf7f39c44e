"""Alembic's entry point: run the migrations on the configured URL (synchronous driver)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, pool

from ludoteca.server.schema import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "", poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run()
