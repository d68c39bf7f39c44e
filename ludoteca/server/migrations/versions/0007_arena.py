"""arena: a tournament's end time (an arena's time box)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 07:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.add_column(sa.Column('ends_at', UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tournaments') as batch:
        batch.drop_column('ends_at')
