"""The analyses' rows (``analysis_store.py``) on a real SQLite store: one analysis per table,
a stalled one taken over once, a failed one said in the asker's language and started again."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from ludoteca.server import errors as E
from ludoteca.server import migrate
from ludoteca.server.analysis_jobs import state_of
from ludoteca.server.db import Table, utcnow
from ludoteca.server.errors import voice
from ludoteca.server.store import Store


def test_one_analysis_per_table_taken_over_once_and_retried_after_a_failure(
    tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'arena.sqlite3'}"
    migrate.upgrade(url)

    async def run() -> None:
        store = Store(url)
        try:
            user = await store.add_user("ana_rows", None, True, "en")
            await store.add_table(Table(id="t1", game="kingdomino", players=2, options={},
                                        seed=1, mode="live", invite="i", status="finished",
                                        host_id=user.id), [])
            rows = store.analyses
            assert await rows.start("t1", 48, 8, 0, user.id)
            assert not await rows.start("t1", 48, 8, 0, user.id)  # one per table
            assert await rows.running_for(user.id) == 1
            soon = utcnow() + timedelta(minutes=5)
            assert await rows.claim("t1", soon)  # stalled: one process takes it over
            assert not await rows.claim("t1", utcnow() - timedelta(minutes=5))  # not stale
            assert not await rows.retry("t1")  # only a failed analysis starts again
            await rows.progress("t1", 4, {"moves": [{}] * 4, "luck": []})
            await rows.fail("t1", E.ANALYSIS_FAILED)
            row = await rows.get("t1")
            assert row is not None and row.status == "failed" and row.done == 4
            told = state_of(row, voice("es"))  # said in the asker's language
            assert told["status"] == "failed" and told["error"].startswith("El análisis")
            assert await rows.running_for(user.id) == 0
            assert await rows.retry("t1")
            row = await rows.get("t1")
            assert row is not None and (row.status, row.done) == ("running", 0)
            assert row.result == {"moves": [], "luck": []}
        finally:
            await store.close()

    asyncio.run(run())
