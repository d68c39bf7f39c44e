"""Rating pools as a projection of the results rows, on a real database (SQLite and
PostgreSQL): a match's result row is written with its last log entry; people's rated matches
count all-time and in their season, matches against bots only in ``bots`` (the bot's ladder
anchor never moves, a bot with no anchor leaves the match unrated); rebuilding every pool from
the results gives exactly the ratings kept as the matches ended, whatever order the ends were
counted in."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select
from typer.testing import CliRunner

from ludoteca import cli
from ludoteca.bots import BOT_VERSION
from ludoteca.engine.game import Outcome
from ludoteca.server import migrate, ratings
from ludoteca.server.db import LogEntry, PoolRating, Result, ResultSeat, Seat, Table
from ludoteca.server.pools import PoolRules
from ludoteca.server.seasons import Seasons
from ludoteca.server.store import Store

GREEDY = {"level": "greedy", "identity": f"bot:greedy@{BOT_VERSION}", "mu": 31.0, "sigma": 1.2,
          "games": 400}
OLD_HARD = {"level": "hard", "identity": "bot:hard@0", "mu": 36.0, "sigma": 1.1, "games": 400}
"""Calibrated with bots of another version: it anchors nothing today."""
Q3 = datetime(2026, 8, 10, 12, tzinfo=UTC)
Q4 = datetime(2026, 11, 2, 12, tzinfo=UTC)


def test_pools_follow_the_results_and_rebuild_exactly(database_url: str, tmp_path: Path) -> None:
    (tmp_path / "kingdomino.json").write_text(json.dumps(
        {"game": "kingdomino", "players": 2, "rungs": [GREEDY, OLD_HARD], "meta": {}}))
    migrate.upgrade(database_url)
    kept = asyncio.run(_check(Store(database_url, PoolRules(Seasons(), tmp_path))))
    # the command line rebuilds every pool of the game from the results: the same ratings
    done = CliRunner().invoke(cli.app, ["recompute-ratings", "--game", "KINGDOMINO",
                                        "--database-url", database_url])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == [
        "kingdomino all: rebuilt from 3 results", "kingdomino bots: rebuilt from 3 results",
        "kingdomino season:2026Q3: rebuilt from 1 results",
        "kingdomino season:2026Q4: rebuilt from 2 results"]
    assert asyncio.run(_pools(database_url, list(kept))) == kept
    refused = CliRunner().invoke(cli.app, ["recompute-ratings", "--game", "chess",
                                           "--database-url", database_url])
    assert refused.exit_code == 2 and refused.output.startswith("error: ")


async def _pools(url: str, names: list[str]) -> dict[str, dict[str, tuple[float, float, int]]]:
    store = Store(url)
    try:
        return {name: await pool(store, "kingdomino", name) for name in names}
    finally:
        await store.close()


class Arena:
    """Tables finished through the store's log writer, as the table actor finishes them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.made = 0

    async def finish(self, seats: list[int | str], ranks: list[int], when: datetime,
                     rated: bool = True, teams: tuple[tuple[int, ...], ...] = (),
                     game: str = "kingdomino") -> tuple[Table, list[Seat]]:
        """A match of ``seats`` (user ids or bot levels) that ended at ``when`` with ``ranks``."""
        self.made += 1
        host = next(s for s in seats if isinstance(s, int))
        table = Table(id=f"pool{self.made}", game=game, players=len(seats), options={},
                      seed=self.made, mode="live", bank_seconds=60.0, increment_seconds=0.0,
                      turn_hours=0.0, rated=rated, private=False, invite="i",
                      status="playing", host_id=host, zombie=False, result=None)
        rows = [Seat(table_id=table.id, seat=i, user_id=s if isinstance(s, int) else None,
                     bot=s if isinstance(s, str) else None, zombie=False, bank_seconds=60.0,
                     deadline=None) for i, s in enumerate(seats)]
        await self.store.add_table(table, rows)
        outcome = Outcome(scores=tuple(100 - 10 * r for r in ranks), ranks=tuple(ranks),
                          teams=teams)
        table.status, table.finished_at, table.result = "finished", when, outcome.to_json()
        await self.store.append(LogEntry(table.id, 1, 0, "act", {"type": "x"}, when), [], table)
        return table, rows


async def pool(store: Store, game: str, name: str) -> dict[str, tuple[float, float, int]]:
    async with store.sessions() as db:
        found = await db.execute(select(PoolRating).where(
            PoolRating.game == game, PoolRating.pool == name))
        return {r.participant: (r.mu, r.sigma, r.games) for r in found.scalars()}


async def _check(store: Store) -> dict[str, dict[str, tuple[float, float, int]]]:
    try:
        ana, ben, cy, dee = [(await store.add_user(n, None, False, "en")).id
                             for n in ("pool_ana", "pool_ben", "pool_cy", "pool_dee")]
        arena = Arena(store)
        # the result row is written with the last log entry, its seats as participants
        first = await arena.finish([ana, ben], [1, 2], Q3)
        async with store.sessions() as db:
            row = (await db.execute(select(Result).where(Result.table_id == "pool1"))).scalar_one()
            seats = (await db.execute(select(ResultSeat).where(
                ResultSeat.table_id == "pool1").order_by(ResultSeat.seat))).scalars().all()
        assert (row.game, row.players, row.rated, row.finished_at) == ("kingdomino", 2, True, Q3)
        assert row.outcome["ranks"] == [1, 2] and row.rated_at is None
        assert [(s.participant, s.side, s.rank, s.score) for s in seats] == [
            (f"user:{ana}", 0, 1, 90), (f"user:{ben}", 1, 2, 80)]

        changes = await ratings.rate(store, *first)
        assert changes[ana][1] > changes[ana][0] == 1500 and changes[ben][1] < 1500
        assert set(await pool(store, "kingdomino", "all")) == {f"user:{ana}", f"user:{ben}"}
        assert await pool(store, "kingdomino", "season:2026Q3") == await pool(
            store, "kingdomino", "all")

        # two matches end; the later is counted first: both go in, in the order they ended
        second = await arena.finish([ben, cy, dee], [1, 2, 2], Q4)
        third = await arena.finish([cy, ana], [2, 1], Q4)
        late = await ratings.rate(store, *third)
        early = await ratings.rate(store, *second)
        assert set(early) == {ben, cy, dee} and set(late) == {cy, ana}
        assert late[cy][0] == early[cy][1]  # cy's second match started from the first's end
        q4 = await pool(store, "kingdomino", "season:2026Q4")
        assert {p: g for p, (_, _, g) in q4.items()} == {
            f"user:{ben}": 1, f"user:{cy}": 2, f"user:{dee}": 1, f"user:{ana}": 1}
        assert (await pool(store, "kingdomino", "all"))[f"user:{ana}"][2] == 2
        assert (await pool(store, "kingdomino", "season:2026Q3"))[f"user:{ana}"][2] == 1

        # against an anchored bot: the bots pool only, the person moves, the bot does not
        people_before = await pool(store, "kingdomino", "all")
        for rank in (1, 2, 1):
            bot_match = await arena.finish([dee, "greedy"], [rank, 3 - rank], Q4)
            assert dee in await ratings.rate(store, *bot_match)
        bots = await pool(store, "kingdomino", "bots")
        assert set(bots) == {f"user:{dee}"} and bots[f"user:{dee}"][2] == 3
        assert await pool(store, "kingdomino", "all") == people_before
        async with store.sessions() as db:
            stored = (await db.execute(select(Result.changes).where(
                Result.table_id == bot_match[0].id))).scalar_one()
        assert stored["bots"][f"bot:greedy@{BOT_VERSION}"] == [31.0, 1.2, 31.0, 1.2]
        # a bot calibrated with other bots, a bot with no ladder, an unrated table: not rated
        for seats, game, rated in (([dee, "hard"], "kingdomino", True),
                                   ([dee, "random"], "kami", True),
                                   ([ana, ben], "kingdomino", False)):
            unrated = await arena.finish(seats, [1, 2], Q4, rated=rated, game=game)
            assert await ratings.rate(store, *unrated) == {}
        # partners are one side
        teams = await arena.finish([ana, ben, cy, dee], [1, 3, 1, 3], Q4, teams=((0, 2), (1, 3)),
                                   game="kami")
        team_changes = await ratings.rate(store, *teams)
        assert team_changes[ana] == team_changes[cy] != team_changes[ben] == team_changes[dee]

        # a deleted account keeps no rating, and its opponents' ratings stay as they were
        await store.forget_user(ben, "anonymous_1")
        kept = {name: await pool(store, "kingdomino", name)
                for name in ("all", "season:2026Q3", "season:2026Q4", "bots")}
        kami = await pool(store, "kami", "all")
        assert f"user:{ben}" not in kept["all"]
        assert await store.pools.pools_of("kingdomino") == sorted(kept)
        for name, rows in kept.items():
            assert await store.pools.recompute("kingdomino", name) > 0
            assert await pool(store, "kingdomino", name) == rows, name  # exactly
        await store.pools.recompute("kami", "all")
        assert await pool(store, "kami", "all") == kami
        return kept
    finally:
        await store.close()


def test_the_take_in_finds_its_results_by_their_index(database_url: str) -> None:
    """Each match's take-in asks for the results not yet counted; with the partial index
    ``ix_results_waiting`` (migration 0011) it reads only those, not every result of the
    game (13 ms a match at 100,000 results on SQLite without it)."""
    from sqlalchemy import create_engine, text

    from ludoteca.server.db import sync_url
    from ludoteca.server.pools import waiting

    migrate.upgrade(database_url)
    engine = create_engine(sync_url(database_url))
    try:
        with engine.connect() as conn:
            query = waiting("kingdomino").compile(
                conn, compile_kwargs={"literal_binds": True})
            explain = "EXPLAIN QUERY PLAN" if conn.dialect.name == "sqlite" else "EXPLAIN"
            if conn.dialect.name == "postgresql":
                conn.execute(text("SET enable_seqscan = off"))  # an empty table: ask anyway
            plan = " ".join(str(row) for row in conn.execute(text(f"{explain} {query}")))
    finally:
        engine.dispose()
    assert "ix_results_waiting" in plan, plan
