"""team slip tokens: each team of a match has its own token (its own QR code), so a slip is
confirmed only with the other team's; an older shared token names no team and opens nothing

Revision ID: 0006_team_slip_tokens
Revises: 0005_games_in_clock_order
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_team_slip_tokens"
down_revision = "0005_games_in_clock_order"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("slip_token", schema=None) as batch_op:
        batch_op.add_column(sa.Column("side", sa.String(length=1), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("slip_token", schema=None) as batch_op:
        batch_op.drop_column("side")
