"""tournaments: the director's tournaments, entrants, rounds and games, its lease, and the
table's tournament

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-08 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('tournament', sa.String(16), nullable=True))
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(16), primary_key=True),
        sa.Column('name', sa.String(80), nullable=False),
        sa.Column('game', sa.String(32), nullable=False),
        sa.Column('players', sa.Integer, nullable=False),
        sa.Column('options', sa.JSON, nullable=False),
        sa.Column('format', sa.JSON, nullable=False),
        sa.Column('rated', sa.Boolean, nullable=False),
        sa.Column('mode', sa.String(8), nullable=False),
        sa.Column('bank_seconds', sa.Float, nullable=False),
        sa.Column('increment_seconds', sa.Float, nullable=False),
        sa.Column('turn_hours', sa.Float, nullable=False),
        sa.Column('round_minutes', sa.Float, nullable=False),
        sa.Column('starts_at', UTCDateTime(), nullable=True),
        sa.Column('min_entrants', sa.Integer, nullable=False),
        sa.Column('max_entrants', sa.Integer, nullable=False),
        sa.Column('invite', sa.String(32), nullable=True),
        sa.Column('seed', sa.BigInteger, nullable=False),
        sa.Column('status', sa.String(12), nullable=False),
        sa.Column('created_by', sa.Integer, sa.ForeignKey('users.id'), nullable=False),
        sa.Column('round', sa.Integer, nullable=False),
        sa.Column('round_deadline', UTCDateTime(), nullable=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('started_at', UTCDateTime(), nullable=True),
        sa.Column('finished_at', UTCDateTime(), nullable=True),
    )
    op.create_index('ix_tournaments_game', 'tournaments', ['game'])
    op.create_index('ix_tournaments_status', 'tournaments', ['status'])
    op.create_table(
        'tournament_entrants',
        sa.Column('tournament_id', sa.String(16),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('participant', sa.String(40), primary_key=True),
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id'), nullable=True),
        sa.Column('rating', sa.Float, nullable=False),
        sa.Column('registered_at', UTCDateTime(), nullable=False),
        sa.Column('withdrawn_at', UTCDateTime(), nullable=True),
    )
    op.create_index('ix_tournament_entrants_user_id', 'tournament_entrants', ['user_id'])
    op.create_table(
        'tournament_rounds',
        sa.Column('tournament_id', sa.String(16),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('round', sa.Integer, primary_key=True),
        sa.Column('draw', sa.JSON, nullable=False),
        sa.Column('paired_at', UTCDateTime(), nullable=False),
    )
    op.create_table(
        'tournament_games',
        sa.Column('tournament_id', sa.String(16),
                  sa.ForeignKey('tournaments.id', ondelete='CASCADE'), primary_key=True),
        sa.Column('round', sa.Integer, primary_key=True),
        sa.Column('board', sa.Integer, primary_key=True),
        sa.Column('table_id', sa.String(16), nullable=False, unique=True),
        sa.Column('seats', sa.JSON, nullable=False),
        sa.Column('opened', sa.Boolean, nullable=False),
        sa.Column('result', sa.JSON, nullable=True),
        sa.Column('decided_by', sa.String(10), nullable=True),
        sa.Column('decided_at', UTCDateTime(), nullable=True),
    )
    op.create_table(
        'director_lease',
        sa.Column('name', sa.String(16), primary_key=True),
        sa.Column('owner', sa.String(80), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('director_lease')
    op.drop_table('tournament_games')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_entrants')
    op.drop_table('tournaments')
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('tournament')
