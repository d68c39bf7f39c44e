"""Migration 0005 on a database of the schema before it (0004) holding finished tables, on
SQLite and PostgreSQL: every finished table gets its results row and seats (a bot as its rated
identity), every stored result the ``sides`` its outcome says, the all-time ratings move to
pool ``all`` unchanged, and the season pools are replayed from the matches that were rated."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import command

from ludoteca.bots import identity
from ludoteca.engine.game import Outcome
from ludoteca.server import migrate
from ludoteca.server.db import UTCDateTime, make_sync_engine, sync_url
from ludoteca.server.pools import MODEL

WHEN = datetime(2026, 5, 4, 10, tzinfo=UTC)


def test_finished_tables_become_results_and_ratings_become_pools(database_url: str) -> None:
    command.upgrade(migrate.alembic_config(database_url), "0004")
    engine = (make_sync_engine(database_url) if database_url.startswith("sqlite")
              else sa.create_engine(sync_url(database_url)))
    meta = sa.MetaData()
    meta.reflect(engine)
    users, tables, seats, ratings = (meta.tables[n] for n in ("users", "tables", "seats",
                                                              "ratings"))
    four = Outcome(scores=(5, 9, 5, 9), ranks=(3, 1, 3, 1), teams=((0, 2), (1, 3))).to_json()
    four.pop("sides")  # stored before outcomes said their sides
    rated = {**Outcome(scores=(7, 3), ranks=(1, 2)).to_json(), "ratings": [
        {"seat": 0, "before": 0.0, "after": 1.2, "delta": 1.2}]}
    with engine.begin() as db:
        db.execute(sa.insert(users), [
            {"id": i, "name": n, "name_key": n, "display_name": n, "name_fold": n,
             "display_fold": n, "guest": False, "language": "en", "created_at": WHEN,
             "seen_at": WHEN} for i, n in ((1, "mig_a"), (2, "mig_b"), (3, "mig_c"))])
        for tid, players, result, is_rated in (("old4", 4, four, False), ("oldr", 2, rated, True),
                                                ("open1", 2, None, False)):
            db.execute(sa.insert(tables), [{
                "id": tid, "game": "kami", "players": players, "options": {}, "seed": 1,
                "mode": "live", "bank_seconds": 60.0, "increment_seconds": 0.0,
                "turn_hours": 0.0, "rated": is_rated, "private": False, "hints": False,
                "invite": "i", "status": "finished" if result else "open", "host_id": 1,
                "zombie": False, "result": result, "created_at": WHEN,
                "finished_at": WHEN if result else None}])
        db.execute(sa.insert(seats), [
            {"table_id": "old4", "seat": s, "user_id": u, "bot": b, "zombie": False,
             "bank_seconds": 0.0} for s, u, b in ((0, 1, None), (1, None, "hard"),
                                                  (2, 2, None), (3, None, "easy"))] + [
            {"table_id": "oldr", "seat": s, "user_id": u, "bot": None, "zombie": False,
             "bank_seconds": 0.0} for s, u in ((0, 1), (1, 3))])
        db.execute(sa.insert(ratings), [{"user_id": 1, "game": "kami", "mu": 26.5,
                                         "sigma": 8.0, "games": 1},
                                        {"user_id": 3, "game": "kami", "mu": 23.5,
                                         "sigma": 8.0, "games": 1}])

    migrate.upgrade(database_url)
    results = sa.table("results", sa.column("table_id"), sa.column("rated", sa.Boolean),
                       sa.column("outcome", sa.JSON), sa.column("pools", sa.JSON),
                       sa.column("rated_at", UTCDateTime()), sa.column("id"))
    with engine.connect() as db:
        found = {r.table_id: r for r in db.execute(sa.select(results).order_by(results.c.id))}
        held = db.execute(sa.text("SELECT table_id, seat, participant, side, rank, score "
                                  "FROM result_seats ORDER BY table_id, seat")).all()
        pools = db.execute(sa.text("SELECT pool, participant, mu, sigma, games, user_id "
                                   "FROM pool_ratings ORDER BY pool, participant")).all()
        stored = dict(db.execute(sa.select(tables.c.id, tables.c.result)).all())
    assert set(found) == {"old4", "oldr"}  # the open table has no result
    assert found["old4"].rated is False and found["old4"].pools is None
    assert found["oldr"].rated is True and found["oldr"].pools == ["all", "season:2026Q2"]
    assert found["oldr"].rated_at == WHEN and "ratings" not in found["oldr"].outcome
    assert [tuple(r) for r in held] == [
        ("old4", 0, "user:1", 0, 2, 5), ("old4", 1, identity("hard"), 1, 1, 9),
        ("old4", 2, "user:2", 0, 2, 5), ("old4", 3, identity("greedy"), 1, 1, 9),
        ("oldr", 0, "user:1", 0, 1, 7), ("oldr", 1, "user:3", 1, 2, 3)]
    assert stored["old4"]["sides"] == [{"seats": [0, 2], "score": 5, "rank": 2},
                                       {"seats": [1, 3], "score": 9, "rank": 1}]
    assert stored["oldr"]["ratings"] == rated["ratings"]  # what the end screen said stays
    season = [MODEL.rating(), MODEL.rating()]
    new = MODEL.rate([[season[0]], [season[1]]], ranks=[1.0, 2.0])
    assert [tuple(r) for r in pools] == [
        ("all", "user:1", 26.5, 8.0, 1, 1), ("all", "user:3", 23.5, 8.0, 1, 3),
        ("season:2026Q2", "user:1", new[0][0].mu, new[0][0].sigma, 1, 1),
        ("season:2026Q2", "user:3", new[1][0].mu, new[1][0].sigma, 1, 3)]
    engine.dispose()
