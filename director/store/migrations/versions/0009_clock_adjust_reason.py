"""an adjustment's reason kept with its clock event: the clock log shows it without matching
the audit's line by instant (the window took two readings of the clock for them)

Revision ID: 0009_clock_adjust_reason
Revises: 0008_name_keys
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_clock_adjust_reason"
down_revision = "0008_name_keys"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clock_event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("clock_event", schema=None) as batch_op:
        batch_op.drop_column("reason")
