"""table leases: which process runs a live table's clocks and bots

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25 13:05:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'table_leases',
        sa.Column('table_id', sa.String(length=16), nullable=False),
        sa.Column('owner', sa.String(length=80), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('table_id'),
    )
    op.create_index('ix_table_leases_expires_at', 'table_leases', ['expires_at'])


def downgrade() -> None:
    op.drop_index('ix_table_leases_expires_at', table_name='table_leases')
    op.drop_table('table_leases')
