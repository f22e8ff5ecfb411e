"""a player's person: the id of the person picked from the club's register when the player was
registered (#30, RULES §12), so publishing needs no name matching for them; NULL for a player
typed without the club, and for every player of a file written before

Revision ID: 0011_player_person
Revises: 0010_stored_brackets
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_player_person"
down_revision = "0010_stored_brackets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.add_column(sa.Column("person_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    # SQLite's own DROP COLUMN (3.35+), not a batch copy: the copy would write the table's
    # definition in another form than the migrations before made, which opening refuses
    op.drop_column("player", "person_id")
