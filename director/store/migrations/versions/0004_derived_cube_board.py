"""the pair's cube board is derived, not stored (RULES §4)

Revision ID: 0004_derived_cube_board
Revises: 0004_slips
Create Date: 2026-12-01 09:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_derived_cube_board"
down_revision = "0004_slips"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pair", schema=None) as batch_op:
        batch_op.drop_column("cube_board")


def downgrade() -> None:
    with op.batch_alter_table("pair", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cube_board", sa.Integer(), nullable=True))
