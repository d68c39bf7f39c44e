"""push: Web Push subscriptions, their outbox and the turn pushes sent

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 07:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ludoteca.server.db import UTCDateTime

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'push_subscriptions',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  nullable=False),
        sa.Column('endpoint', sa.String(1024), nullable=False),
        sa.Column('p256dh', sa.String(128), nullable=False),
        sa.Column('auth', sa.String(64), nullable=False),
        sa.Column('label', sa.String(80), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.UniqueConstraint('endpoint', name='uq_push_subscriptions_endpoint'),
    )
    op.create_index('ix_push_subscriptions_user_id', 'push_subscriptions', ['user_id'])
    op.create_table(
        'push_outbox',
        sa.Column('id', sa.Integer, primary_key=True, autoincrement=True),
        sa.Column('subscription_id', sa.Integer,
                  sa.ForeignKey('push_subscriptions.id', ondelete='CASCADE'), nullable=False),
        sa.Column('payload', sa.JSON, nullable=False),
        sa.Column('kind', sa.String(24), nullable=False),
        sa.Column('created_at', UTCDateTime(), nullable=False),
        sa.Column('next_at', UTCDateTime(), nullable=False),
        sa.Column('claimed_until', UTCDateTime(), nullable=True),
        sa.Column('attempts', sa.Integer, nullable=False),
        sa.Column('sent_at', UTCDateTime(), nullable=True),
        sa.Column('failed_at', UTCDateTime(), nullable=True),
        sa.Column('error', sa.Text, nullable=True),
    )
    op.create_index('ix_push_outbox_subscription_id', 'push_outbox', ['subscription_id'])
    op.create_index('ix_push_outbox_next_at', 'push_outbox', ['next_at'])
    op.create_index('ix_push_outbox_sent_at', 'push_outbox', ['sent_at'])
    op.create_table(
        'push_turns',
        sa.Column('user_id', sa.Integer, sa.ForeignKey('users.id', ondelete='CASCADE'),
                  primary_key=True),
        sa.Column('table_id', sa.String(16), primary_key=True),
        sa.Column('mailed_at', UTCDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table('push_turns')
    op.drop_table('push_outbox')
    op.drop_table('push_subscriptions')
