"""account names folded for look-alikes, last use and deletion of accounts

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27 02:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime
from ludoteca.server.names import fold

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name_fold', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('display_fold', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('seen_at', UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('deleted_at', UTCDateTime(), nullable=True))
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('name', sa.String),
                     sa.column('display_name', sa.String), sa.column('name_fold', sa.String),
                     sa.column('display_fold', sa.String), sa.column('created_at', UTCDateTime()),
                     sa.column('seen_at', UTCDateTime()))
    conn = op.get_bind()
    taken: set[str] = set()
    for user_id, name, display in conn.execute(
            sa.select(users.c.id, users.c.name, users.c.display_name).order_by(users.c.id)):
        # the older of two look-alike accounts keeps the fold; a later one gets its id
        # appended, so the unique index holds and neither account is lost
        folded = fold(name)
        if folded in taken:
            folded = f"{folded}#{user_id}"
        taken.add(folded)
        conn.execute(users.update().where(users.c.id == user_id).values(
            name_fold=folded, display_fold=fold(display)))
    conn.execute(users.update().values(seen_at=users.c.created_at))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('name_fold', existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column('display_fold', existing_type=sa.String(length=64),
                              nullable=False)
        batch_op.alter_column('seen_at', existing_type=UTCDateTime(), nullable=False)
        batch_op.create_unique_constraint('uq_users_name_fold', ['name_fold'])
        batch_op.create_index('ix_users_display_fold', ['display_fold'], unique=False)
        batch_op.create_index('ix_users_seen_at', ['seen_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_index('ix_users_seen_at')
        batch_op.drop_index('ix_users_display_fold')
        batch_op.drop_constraint('uq_users_name_fold', type_='unique')
        batch_op.drop_column('deleted_at')
        batch_op.drop_column('seen_at')
        batch_op.drop_column('display_fold')
        batch_op.drop_column('name_fold')
