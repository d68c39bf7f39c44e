"""results rows and rating pools: one row per finished match, ratings kept per pool

The finished tables get their ``results`` rows (and their stored results the ``sides`` the
outcome now says); the all-time ratings move to ``pool_ratings`` as pool ``all``, unchanged;
the season pools are replayed from the matches that were rated, in the order they ended.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06 03:14:01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from ludoteca.engine.game import Outcome
from ludoteca.server.db import UTCDateTime
from ludoteca.server.pools import one_match
from ludoteca.server.result_rows import result_row, result_seat_rows, user_of
from ludoteca.server.settings import seasons

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None

TABLES = sa.table(
    'tables', sa.column('id', sa.String), sa.column('game', sa.String),
    sa.column('players', sa.Integer), sa.column('options', sa.JSON),
    sa.column('rated', sa.Boolean), sa.column('zombie', sa.Boolean),
    sa.column('status', sa.String), sa.column('result', sa.JSON),
    sa.column('finished_at', UTCDateTime()))
SEATS = sa.table('seats', sa.column('table_id', sa.String), sa.column('seat', sa.Integer),
                 sa.column('user_id', sa.Integer), sa.column('bot', sa.String))
USERS = sa.table('users', sa.column('id', sa.Integer), sa.column('deleted_at', UTCDateTime()))
RATINGS = sa.table('ratings', sa.column('user_id', sa.Integer), sa.column('game', sa.String),
                   sa.column('mu', sa.Float), sa.column('sigma', sa.Float),
                   sa.column('games', sa.Integer))


def upgrade() -> None:
    pool_ratings = op.create_table(
        'pool_ratings',
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('pool', sa.String(length=40), nullable=False),
        sa.Column('participant', sa.String(length=40), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game', 'pool', 'participant'),
    )
    op.create_index('ix_pool_ratings_user_id', 'pool_ratings', ['user_id'])
    results = op.create_table(
        'results',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('players', sa.Integer(), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.Column('finished_at', UTCDateTime(), nullable=False),
        sa.Column('outcome', sa.JSON(), nullable=False),
        sa.Column('rated_at', UTCDateTime(), nullable=True),
        sa.Column('pools', sa.JSON(), nullable=True),
        sa.Column('changes', sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('table_id'),
    )
    op.create_index('ix_results_game', 'results', ['game'])
    result_seats = op.create_table(
        'result_seats',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('participant', sa.String(length=40), nullable=False),
        sa.Column('side', sa.Integer(), nullable=False),
        sa.Column('rank', sa.Integer(), nullable=False),
        sa.Column('score', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['results.table_id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id', 'seat'),
    )
    op.create_index('ix_result_seats_participant', 'result_seats', ['participant'])

    conn = op.get_bind()
    kept = [{"game": r.game, "pool": "all", "participant": f"user:{r.user_id}",
             "user_id": r.user_id, "mu": r.mu, "sigma": r.sigma, "games": r.games}
            for r in conn.execute(sa.select(RATINGS))]
    if kept:
        conn.execute(sa.insert(pool_ratings), kept)
    op.drop_index('ix_ratings_game', table_name='ratings')
    op.drop_table('ratings')
    _results(conn, results, result_seats, pool_ratings)


def _results(conn: Any, results: sa.Table, result_seats: sa.Table,
             pool_ratings: sa.Table) -> None:
    """A results row per finished table, in the order they ended; the season pools replayed."""
    held: dict[str, list[tuple[int, int | None, str | None]]] = {}
    for seat in conn.execute(sa.select(SEATS).order_by(SEATS.c.table_id, SEATS.c.seat)):
        held.setdefault(seat.table_id, []).append((seat.seat, seat.user_id, seat.bot))
    gone = {f"user:{uid}" for uid in conn.execute(
        sa.select(USERS.c.id).where(USERS.c.deleted_at.is_not(None))).scalars()}
    quarters = seasons("LUDOTECA_SEASONS")
    state: dict[tuple[str, str], dict[str, tuple[float, float, int]]] = {}
    finished = conn.execute(sa.select(TABLES).where(
        TABLES.c.status == 'finished', TABLES.c.result.is_not(None),
        TABLES.c.finished_at.is_not(None)).order_by(TABLES.c.finished_at, TABLES.c.id)).all()
    for table in finished:
        outcome = dict(table.result)
        outcome["sides"] = [side.to_json() for side in Outcome.from_json(outcome).sides]
        conn.execute(sa.update(TABLES).where(TABLES.c.id == table.id).values(result=outcome))
        row = result_row({**table._mapping, "result": outcome})
        row["outcome"] = {k: v for k, v in outcome.items() if k != "ratings"}
        seats = result_seat_rows({**table._mapping, "result": outcome}, held.get(table.id, []))
        if row["rated"]:  # counted as it was when it ended: rated if ratings were told
            season = quarters.of(table.finished_at)
            counted = bool(outcome.get("ratings"))
            row["rated_at"] = table.finished_at
            row["pools"] = (["all"] + ([season.pool] if season else [])) if counted else []
            if counted and season is not None:
                ratings = state.setdefault((table.game, season.pool), {})
                known = {p: (mu, sigma) for p, (mu, sigma, _) in ratings.items()}
                for name, values in one_match(known, {}, [_Seat(s) for s in seats]).items():
                    games = ratings[name][2] + 1 if name in ratings else 1
                    ratings[name] = (values[2], values[3], games)
        conn.execute(sa.insert(results), [row])
        if seats:
            conn.execute(sa.insert(result_seats), seats)
    rows = [{"game": game, "pool": pool, "participant": name, "user_id": user_of(name),
             "mu": mu, "sigma": sigma, "games": games}
            for (game, pool), ratings in state.items()
            for name, (mu, sigma, games) in ratings.items() if name not in gone]
    if rows:
        conn.execute(sa.insert(pool_ratings), rows)


class _Seat:
    """A result seat row as ``one_match`` reads it."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.seat, self.participant = row["seat"], row["participant"]
        self.side, self.rank = row["side"], row["rank"]


def downgrade() -> None:
    op.create_table(
        'ratings',
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.Column('games', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
        sa.PrimaryKeyConstraint('user_id', 'game'),
    )
    op.create_index('ix_ratings_game', 'ratings', ['game'])
    conn = op.get_bind()
    kept = conn.execute(sa.text(
        "SELECT user_id, game, mu, sigma, games FROM pool_ratings "
        "WHERE pool = 'all' AND user_id IS NOT NULL")).all()
    if kept:
        conn.execute(sa.insert(RATINGS), [dict(r._mapping) for r in kept])
    op.drop_index('ix_result_seats_participant', table_name='result_seats')
    op.drop_table('result_seats')
    op.drop_index('ix_results_game', table_name='results')
    op.drop_table('results')
    op.drop_index('ix_pool_ratings_user_id', table_name='pool_ratings')
    op.drop_table('pool_ratings')
