"""games in the clock log's order: each game keeps the seq the match's clock log had reached
when it was recorded, so clock events and games are ordered by one sequence, never by the
wall clocks of the stations that wrote them

Revision ID: 0005_games_in_clock_order
Revises: 0004_clock_commands
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_games_in_clock_order"
down_revision = "0004_clock_commands"
branch_labels = None
depends_on = None

# An older file has only the wall times to go by: a game follows the clock events written
# before it, the order the app read from those times until this revision.
_FROM_WALL_TIMES = """
UPDATE game SET clock_seq = (
    SELECT COALESCE(MAX(clock_event.seq) + 1, 0) FROM clock_event
    WHERE clock_event.match_id = game.match_id AND clock_event.wall_time < game.recorded_at
)
"""


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("clock_seq", sa.Integer(), nullable=True))
    op.execute(_FROM_WALL_TIMES)
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("clock_seq", existing_type=sa.Integer(), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("clock_seq")
