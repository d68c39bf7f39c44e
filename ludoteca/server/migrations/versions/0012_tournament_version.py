"""tournament_version: a counter each write to a tournament moves, the key of its page's cache

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('version')
