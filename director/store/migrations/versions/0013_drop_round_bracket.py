"""the round's `bracket` column is dropped (#29): each match stores its own bracket, round in it
and slot since 0010_stored_brackets, and nothing has read the round's since; its value goes.

SQLite rebuilds the table (alembic's batch mode: a copy without the column, then renamed), with
foreign keys off while it does so (`store.upgrade`), so no match loses its round.

Revision ID: 0013_drop_round_bracket
Revises: 0012_match_lost_on_time
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_drop_round_bracket"
down_revision = "0012_match_lost_on_time"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_column("bracket")


def downgrade() -> None:
    # back as 0001 made it (NOT NULL, no default: opening compares the definition), each round
    # read as the main bracket's: first filled through a default, then the default taken off
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bracket", sa.String(length=20), nullable=False, server_default="main")
        )
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.alter_column("bracket", existing_type=sa.String(length=20), server_default=None)
