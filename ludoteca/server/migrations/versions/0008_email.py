"""email: players' addresses, quiet hours and notification choices; email links, the outbox,
turn emails sent and the server's keys

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 07:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.add_column(sa.Column('email', sa.String(254), nullable=True))
        batch.add_column(sa.Column('email_key', sa.String(254), nullable=True))
        batch.add_column(sa.Column('time_zone', sa.String(64), nullable=False,
                                   server_default='UTC'))
        batch.add_column(sa.Column('quiet_start', sa.Integer, nullable=True))
        batch.add_column(sa.Column('quiet_end', sa.Integer, nullable=True))
        batch.add_column(sa.Column('notify', sa.JSON, nullable=True))
        batch.create_unique_constraint('uq_users_email_key', ['email_key'])
    op.create_table(
        'email_tokens',
        sa.Column('token_hash', sa.String(64), primary_key=True),
        sa.Column('kind', sa.String(8), nullable=False),
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('email', sa.String(254), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('expires_at', UTCDateTime(), nullable=False),
        sa.Column('used_at', UTCDateTime(), nullable=True),
    )
    op.create_index('ix_email_tokens_user_id', 'email_tokens', ['user_id'])
    op.create_index('ix_email_tokens_expires_at', 'email_tokens', ['expires_at'])
    op.create_table(
        'outbox',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id', ondelete='SET NULL'),
                  nullable=True),
        sa.Column('to_addr', sa.String(254), nullable=False),
        sa.Column('subject', sa.String(300), nullable=False),
        sa.Column('text', sa.Text, nullable=False),
        sa.Column('html', sa.Text, nullable=False),
        sa.Column('headers', sa.JSON, nullable=False),
        sa.Column('kind', sa.String(24), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('next_at', UTCDateTime(), nullable=False),
        sa.Column('claimed_until', UTCDateTime(), nullable=True),
        sa.Column('attempts', sa.Integer, nullable=False),
        sa.Column('sent_at', UTCDateTime(), nullable=True),
        sa.Column('failed_at', UTCDateTime(), nullable=True),
        sa.Column('error', sa.Text, nullable=True),
    )
    op.create_index('ix_outbox_user_id', 'outbox', ['user_id'])
    op.create_index('ix_outbox_next_at', 'outbox', ['next_at'])
    op.create_index('ix_outbox_sent_at', 'outbox', ['sent_at'])
    op.create_table(
        'turn_mails',
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('table_id', sa.String(16), primary_key=True),
        sa.Column('mailed_at', UTCDateTime(), nullable=False),
    )
    op.create_table(
        'server_keys',
        sa.Column('name', sa.String(32), primary_key=True),
        sa.Column('value', sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('server_keys')
    op.drop_table('turn_mails')
    op.drop_table('outbox')
    op.drop_table('email_tokens')
    with op.batch_alter_table('users') as batch:
        batch.drop_constraint('uq_users_email_key', type_='unique')
        batch.drop_column('notify')
        batch.drop_column('quiet_end')
        batch.drop_column('quiet_start')
        batch.drop_column('time_zone')
        batch.drop_column('email_key')
        batch.drop_column('email')
