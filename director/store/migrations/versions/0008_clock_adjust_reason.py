"""an adjustment's reason kept with its clock event: the clock log shows it without matching
the audit's line by instant (the window took two readings of the clock for them)

Revision ID: 0008_clock_adjust_reason
Revises: 0007_team_slip_tokens
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_clock_adjust_reason"
down_revision = "0007_team_slip_tokens"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clock_event", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("clock_event", schema=None) as batch_op:
        batch_op.drop_column("reason")
