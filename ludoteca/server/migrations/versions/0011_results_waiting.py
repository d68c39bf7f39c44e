"""results_waiting: an index of the results the rating pools have yet to take in

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 15:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('ix_results_waiting', 'results', ['game', 'rated', 'id'],
                    sqlite_where=sa.text('rated_at IS NULL'),
                    postgresql_where=sa.text('rated_at IS NULL'))


def downgrade() -> None:
    op.drop_index('ix_results_waiting', table_name='results')
