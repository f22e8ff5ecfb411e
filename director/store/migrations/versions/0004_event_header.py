"""event header: the last day, the organiser and the director, printed on every report

Revision ID: 0004_event_header
Revises: 0004_derived_cube_board
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_event_header"
down_revision = "0004_derived_cube_board"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("end_date", sa.String(length=10), server_default="", nullable=False)
        )
        batch_op.add_column(
            sa.Column("organiser", sa.String(length=200), server_default="", nullable=False)
        )
        batch_op.add_column(
            sa.Column("director", sa.String(length=200), server_default="", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("director")
        batch_op.drop_column("organiser")
        batch_op.drop_column("end_date")
