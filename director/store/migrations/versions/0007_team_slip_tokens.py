"""team slip tokens: each team of a match has its own token (its own QR code), so a slip is
confirmed only with the other team's; an older shared token names no team and opens nothing.

The column is added and no table is rebuilt, so a downgrade's plain DROP COLUMN gives back the
table exactly as the revision before made it.

Revision ID: 0007_team_slip_tokens
Revises: 0006_match_rules_snapshot
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_team_slip_tokens"
down_revision = "0006_match_rules_snapshot"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("slip_token", sa.Column("side", sa.String(length=1), nullable=True))


def downgrade() -> None:
    # a plain DROP COLUMN (SQLite 3.35+, PostgreSQL) leaves the rest of the table as it was
    op.execute("ALTER TABLE slip_token DROP COLUMN side")
