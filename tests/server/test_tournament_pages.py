"""A tournament's page is built once per change (``tournament_pages.py``): every write to the
tournament, its entrants, rounds or games moves its ``version`` in the same transaction, a
write that changes nothing does not, and a page cached in one process is rebuilt when another
process wrote (the version is read from the database with each request). An arena's result
makes every watcher ask for the page again (benchmarks/arena.py, issue 35)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ludoteca.engine.i18n import Voice
from ludoteca.server import migrate
from ludoteca.server.db import Tournament, utcnow
from ludoteca.server.errors import voice
from ludoteca.server.store import Store
from ludoteca.server.tournament_pages import Page, TournamentPages
from ludoteca.server.tournament_store import TournamentStore
from ludoteca.tournament.model import result_from_scores

SEATS = ["user:1", "bot:random@1#1"]


def _arena(host: int) -> Tournament:
    return Tournament(
        id="t1", name="Pages", game="kingdomino", players=2, options={},
        format={"kind": "arena", "table_size": 2, "minutes": 10}, rated=False,
        mode="live", bank_seconds=60.0, increment_seconds=5.0, turn_hours=0.0,
        round_minutes=5.0, min_entrants=2, max_entrants=8, seed=7,
        status="registering", created_by=host, round=0)


def test_every_write_moves_the_version_and_a_write_that_changes_nothing_does_not(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pages.sqlite3'}"
    migrate.upgrade(url)

    async def run() -> None:
        store = Store(url)
        rows = TournamentStore(store.write, store.sessions, postgres=False)
        try:
            host = await store.add_user("pages_host", None, False, "en")
            await rows.add(_arena(host.id))

            async def version() -> int:
                found = await rows.get("t1")
                assert found is not None
                return found.version

            seen = [await version()]

            async def moved(by: int = 1) -> None:
                now = await version()
                assert now == seen[-1] + by, (seen, now)
                seen.append(now)

            assert seen == [0]
            assert await rows.register("t1", "user:1", 1, 10.0, while_running=True) == "ok"
            await moved()
            assert await rows.register("t1", "user:1", 1, 10.0, while_running=True) == "already"
            await moved(0)
            for who in ("bot:random@1#1", "bot:random@1#2"):
                assert await rows.register("t1", who, None, 10.0, while_running=True) == "ok"
            await moved(2)
            assert await rows.move_status("t1", "registering", "running", started_at=utcnow(),
                                          ends_at=utcnow().replace(year=2999))
            await moved()
            assert not await rows.move_status("t1", "registering", "running")
            await moved(0)
            assert await rows.withdraw("t1", "bot:random@1#2") == "running"
            await moved()
            assert await rows.withdraw("t1", "bot:random@1#2") is None
            await moved(0)
            assert await rows.register("t1", "bot:random@1#2", None, 10.0,
                                       while_running=True) == "ok"  # an arena: back again
            await moved()
            assert await rows.pair("t1", 1, {"round": 1, "tables": [], "byes": []}, [
                {"board": 1, "seats": SEATS, "table_id": "g1"}], utcnow(), before_end=True)
            await moved()
            assert not await rows.pair("t1", 1, {"tables": [], "byes": []}, [], utcnow())
            await moved(0)
            await rows.set_opened("t1", 1, 1)
            await moved()
            await rows.set_opened("t1", 1, 1)
            await moved(0)
            assert await rows.decide("t1", 1, 1, {"ranks": [0, 1]}, "played")
            await moved()
            assert not await rows.decide("t1", 1, 1, {"ranks": [1, 0]}, "deadline")
            await moved(0)
        finally:
            await store.close()

    asyncio.run(run())


def test_a_page_is_built_once_per_change_and_rebuilt_after_another_process_writes(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pages.sqlite3'}"
    migrate.upgrade(url)

    async def run() -> None:
        ours, theirs = Store(url), Store(url)  # two processes' stores on one database
        rows = TournamentStore(ours.write, ours.sessions, postgres=False)
        other = TournamentStore(theirs.write, theirs.sessions, postgres=False)
        pages = TournamentPages(rows, ours)
        english, spanish = voice("en"), voice("es")
        try:
            host = await ours.add_user("pages_host", None, False, "en")
            await rows.add(_arena(host.id))
            for who, user_id in ((SEATS[0], 1), (SEATS[1], None)):
                assert await rows.register("t1", who, user_id, 10.0) == "ok"

            async def page(speak: Voice = english) -> Page:
                t = await rows.get("t1")
                assert t is not None
                return await pages.page(t, speak)

            first = await page()
            assert pages.built == 1 and await page() is first and pages.built == 1
            spanish_page = await page(spanish)
            assert pages.built == 2 and spanish_page is not first
            assert spanish_page.shared["rules"] != first.shared["rules"]
            assert first.registered == frozenset(SEATS)
            assert first.open_tables == {}

            # Another process starts it, pairs, opens and decides the table: each write is
            # seen by our next read, which rebuilds the page once.
            assert await other.move_status("t1", "registering", "running", started_at=utcnow(),
                                           ends_at=utcnow().replace(year=2999))
            assert await other.pair("t1", 1, {"round": 1, "tables": [], "byes": []}, [
                {"board": 1, "seats": SEATS, "table_id": "g1"}], utcnow(), before_end=True)
            await other.set_opened("t1", 1, 1)
            playing = await page()
            assert pages.built == 3 and await page() is playing
            assert playing.open_tables == {SEATS[0]: "g1", SEATS[1]: "g1"}
            assert playing.shared["rounds"][0]["games"][0]["result"] is None

            won = result_from_scores(1, 1, SEATS, [40.0, 30.0]).to_json()
            assert await other.decide("t1", 1, 1, won, "played")
            decided = await page()
            assert pages.built == 4
            assert decided.open_tables == {}
            game = decided.shared["rounds"][0]["games"][0]
            assert game["result"] == won and game["table"] == "g1"
            points = {r["entrant"]: r["points"] for r in decided.shared["standings"]["rows"]}
            assert points[SEATS[0]] > points[SEATS[1]]

            assert await other.withdraw("t1", SEATS[1]) == "running"
            gone = await page()
            assert pages.built == 5 and gone.registered == frozenset({SEATS[0]})
            assert gone.entered == frozenset(SEATS)
        finally:
            await ours.close()
            await theirs.close()

    asyncio.run(run())
