"""friends: who follows whom, who blocks whom, challenges, and a seat kept for one person

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06 07:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats') as batch:
        batch.add_column(sa.Column('reserved_for', sa.Integer, nullable=True))
    op.create_table(
        'follows',
        sa.Column('follower_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('followed_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
    )
    op.create_index('ix_follows_followed_id', 'follows', ['followed_id'])
    op.create_table(
        'blocks',
        sa.Column('blocker_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('blocked_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('created_at', UTCDateTime(), nullable=False),
    )
    op.create_index('ix_blocks_blocked_id', 'blocks', ['blocked_id'])
    op.create_table(
        'challenges',
        sa.Column('id', sa.String(16), primary_key=True),
        sa.Column('challenger_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('challenged_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('table_id', sa.String(16), sa.ForeignKey('tables.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('status', sa.String(10), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
    )
    op.create_index('ix_challenges_challenger_id', 'challenges', ['challenger_id'])
    op.create_index('ix_challenges_challenged_id', 'challenges', ['challenged_id'])
    op.create_index('ix_challenges_status', 'challenges', ['status'])


def downgrade() -> None:
    op.drop_table('challenges')
    op.drop_table('blocks')
    op.drop_table('follows')
    with op.batch_alter_table('seats') as batch:
        batch.drop_column('reserved_for')
