"""The tournaments' reads (``tournament_store.py``) on a real SQLite store: entrants, waves and
games come back as plain rows with the stored values (times in UTC, JSON decoded), in their
order; the active count leaves out who withdrew; ``undecided`` and a table's game find theirs.
An arena's director and page read these several times a second (benchmarks/arena.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC
from pathlib import Path

from ludoteca.server import migrate
from ludoteca.server.db import Tournament, utcnow
from ludoteca.server.store import Store
from ludoteca.server.tournament_store import EntrantRow, GameRow, RoundRow, TournamentStore


def test_reads_are_plain_rows_with_the_stored_values(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'arena.sqlite3'}"
    migrate.upgrade(url)

    async def run() -> None:
        store = Store(url)
        rows = TournamentStore(store.write, store.sessions, postgres=False)
        try:
            host = await store.add_user("rows_host", None, False, "en")
            await rows.add(Tournament(
                id="t1", name="Rows", game="kingdomino", players=2, options={},
                format={"kind": "arena", "table_size": 2, "minutes": 10}, rated=False,
                mode="live", bank_seconds=60.0, increment_seconds=5.0, turn_hours=0.0,
                round_minutes=5.0, min_entrants=3, max_entrants=8, seed=7,
                status="registering", created_by=host.id, round=0))
            for who, user_id in (("user:1", 1), ("bot:random@1#1", None),
                                 ("bot:random@1#2", None)):
                assert await rows.register("t1", who, user_id, 10.0, while_running=True) == "ok"
            assert await rows.move_status("t1", "registering", "running", started_at=utcnow(),
                                          ends_at=utcnow().replace(year=2999))
            assert await rows.withdraw("t1", "bot:random@1#2") == "running"

            entrants = await rows.entrants("t1")
            assert all(type(e) is EntrantRow for e in entrants)
            assert [e.participant for e in entrants] == ["user:1", "bot:random@1#1",
                                                         "bot:random@1#2"]
            assert entrants[0].user_id == 1 and entrants[1].user_id is None
            assert entrants[0].registered_at.tzinfo is UTC
            assert [e.withdrawn_at is None for e in entrants] == [True, True, False]
            assert await rows.active_count("t1") == 2

            seats = ["user:1", "bot:random@1#1"]
            assert await rows.pair("t1", 1, {"tables": [], "byes": []}, [
                {"board": 1, "seats": seats, "table_id": "g1"}], utcnow(), before_end=True)
            assert await rows.rounds("t1") == [RoundRow(1, {"tables": [], "byes": []})]
            games = await rows.games("t1", undecided=True)
            assert games == [GameRow(1, 1, "g1", seats, False, None, None, None)]
            await rows.set_opened("t1", 1, 1)
            assert await rows.decide("t1", 1, 1, {"ranks": [0, 1]}, "played")
            assert await rows.games("t1", undecided=True) == []
            found = await rows.game_of_table("g1")
            assert found is not None and found.opened and found.result == {"ranks": [0, 1]}
            assert found.decided_by == "played" and found.decided_at is not None
            assert await rows.games("t1") == [found]
            assert await rows.game_of_table("nope") is None
        finally:
            await store.close()

    asyncio.run(run())
