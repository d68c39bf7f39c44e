"""post-game analyses of finished matches, and tables that allow the coach's hints

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27 05:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'analyses',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('done', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('budget', sa.Integer(), nullable=False),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('requested_by', sa.Integer(), nullable=True),
        sa.Column('updated_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['requested_by'], ['users.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_analyses_updated_at', 'analyses', ['updated_at'])
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hints', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('hints')
    op.drop_index('ix_analyses_updated_at', table_name='analyses')
    op.drop_table('analyses')
