"""each match keeps the rules it was paired with (#28): its format, length, scoring, cube and
forfeit options and time control, copied from the event's options; the event has a format.
Every file older than this revision is a Tandem event whose matches were played under the
event's options as they stand, so those are what each match keeps.

The columns are added with the rule book's defaults (what `MatchRules()` and `TimeControl()`
say) and no table is rebuilt, so a downgrade's plain DROP COLUMN gives back the tables exactly
as the revision before made them.

Revision ID: 0006_match_rules_snapshot
Revises: 0005_games_in_clock_order
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_match_rules_snapshot"
down_revision = "0005_games_in_clock_order"
branch_labels = None
depends_on = None


def _kept() -> tuple[sa.Column[object], ...]:
    """The event's options each match keeps, with the defaults an older match is read with."""
    return (
        sa.Column("match_length", sa.Integer(), server_default="5", nullable=False),
        sa.Column("scoring", sa.String(length=30), server_default="standard", nullable=False),
        sa.Column("one_cube_threshold", sa.Integer(), server_default="2", nullable=False),
        sa.Column("no_cube_at_one_away", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("agreed_lower_forfeit", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("time_base_s", sa.Integer(), server_default="120", nullable=False),
        sa.Column("time_increment_s", sa.Integer(), server_default="12", nullable=False),
        sa.Column("clock_mode", sa.String(length=20), server_default="fischer", nullable=False),
    )


def _format() -> sa.Column[str]:
    return sa.Column("format", sa.String(length=20), server_default="tandem", nullable=False)


def upgrade() -> None:
    op.add_column("event", _format())
    op.add_column("match", _format())
    for column in _kept():
        op.add_column("match", column)
    # one event per file: every match takes the options it was read with until now
    names = [column.name for column in _kept()]
    assignments = ", ".join(f"{name} = (SELECT event.{name} FROM event)" for name in names)
    op.execute(f'UPDATE "match" SET {assignments} WHERE EXISTS (SELECT 1 FROM event)')


def downgrade() -> None:
    # a plain DROP COLUMN (SQLite 3.35+, PostgreSQL) leaves the rest of each table as it was
    for column in reversed(_kept()):
        op.execute(f'ALTER TABLE "match" DROP COLUMN {column.name}')
    op.execute('ALTER TABLE "match" DROP COLUMN format')
    op.execute("ALTER TABLE event DROP COLUMN format")
