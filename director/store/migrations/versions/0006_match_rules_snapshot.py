"""each match keeps the rules it was paired with (#28): its format, length, scoring, cube and
forfeit options and time control, copied from the event's options; the event has a format.
Every file older than this revision is a Tandem event whose matches were played under the
event's options as they stand, so those are what each match keeps.

Revision ID: 0006_match_rules_snapshot
Revises: 0005_games_in_clock_order
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_match_rules_snapshot"
down_revision = "0005_games_in_clock_order"
branch_labels = None
depends_on = None

# (column, type) of the event's options each match keeps
_KEPT = (
    ("match_length", sa.Integer()),
    ("scoring", sa.String(length=30)),
    ("one_cube_threshold", sa.Integer()),
    ("no_cube_at_one_away", sa.Boolean()),
    ("agreed_lower_forfeit", sa.Boolean()),
    ("time_base_s", sa.Integer()),
    ("time_increment_s", sa.Integer()),
    ("clock_mode", sa.String(length=20)),
)


def upgrade() -> None:
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("format", sa.String(length=20), server_default="tandem", nullable=False)
        )
    with op.batch_alter_table("match", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("format", sa.String(length=20), server_default="tandem", nullable=False)
        )
        for name, kind in _KEPT:
            batch_op.add_column(sa.Column(name, kind, nullable=True))
    # one event per file: every match takes the options it was read with until now
    assignments = ", ".join(f"{name} = (SELECT event.{name} FROM event)" for name, _ in _KEPT)
    op.execute(f"UPDATE match SET {assignments}")
    with op.batch_alter_table("match", schema=None) as batch_op:
        for name, kind in _KEPT:
            batch_op.alter_column(name, existing_type=kind, nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("match", schema=None) as batch_op:
        for name, _ in reversed(_KEPT):
            batch_op.drop_column(name)
        batch_op.drop_column("format")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_column("format")
