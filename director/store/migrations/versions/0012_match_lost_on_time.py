"""the player of an individual match whose match reserve ran out (RULES §10): the match is
lost on time after its games, the winner's score raised to the match's length; NULL for
every other match, and for every match of a file written before

Revision ID: 0012_match_lost_on_time
Revises: 0011_player_person
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_match_lost_on_time"
down_revision = "0011_player_person"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(sa.Column("lost_on_time", sa.String(length=1), nullable=True))


def downgrade() -> None:
    # SQLite's own DROP COLUMN (3.35+), not a batch copy: the copy would write the table's
    # definition in another form than the migrations before made, which opening refuses
    op.drop_column("match", "lost_on_time")
