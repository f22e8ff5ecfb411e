"""stored brackets (#29, RULES §11): each match knows its bracket, its round in that bracket and
its slot there, apart from its table number, and the event keeps its bracket plan as JSON.

A knockout file older than this revision was paired by the one-boolean consolation: its main
matches sit at tables 1 … size ÷ 2^round and its consolation matches (first-round losers, from
event round 2) at the tables after them, so that is how its matches are read into brackets
here. Any other event's matches have no bracket (NULL), and an event without a plan ("") is
read as the old single bracket, or single + consolation when its consolation option is on.

Revision ID: 0010_stored_brackets
Revises: 0009_clock_adjust_reason
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_stored_brackets"
down_revision = "0009_clock_adjust_reason"
branch_labels = None
depends_on = None

_MATCH = ("bracket", "bracket_round", "slot")


def upgrade() -> None:
    op.add_column("event", sa.Column("bracket_plan", sa.Text(), server_default="", nullable=False))
    op.add_column("match", sa.Column("bracket", sa.String(length=30), nullable=True))
    op.add_column("match", sa.Column("bracket_round", sa.Integer(), nullable=True))
    op.add_column("match", sa.Column("slot", sa.Integer(), nullable=True))
    bind = op.get_bind()
    knockout = bind.execute(sa.text("SELECT 1 FROM event WHERE pairing_system = 'knockout'"))
    if knockout.first() is None:
        return
    rows = bind.execute(
        sa.text(
            'SELECT m.id, m.table_no, r.number FROM "match" m JOIN round r ON r.id = m.round_id'
        )
    ).all()
    first = sum(1 for _, _, number in rows if number == 1)
    size = 2 * first  # round 1 has one table per slot pair of the seeded bracket
    for match_id, table, number in rows:
        main_tables = size >> number
        if table <= main_tables:
            bracket, rnd, slot = "main", number, table
        else:
            bracket, rnd, slot = "consolation", number - 1, table - main_tables
        bind.execute(
            sa.text('UPDATE "match" SET bracket = :b, bracket_round = :r, slot = :s WHERE id = :i'),
            {"b": bracket, "r": rnd, "s": slot, "i": match_id},
        )


def downgrade() -> None:
    # a plain DROP COLUMN (SQLite 3.35+, PostgreSQL) leaves the rest of each table as it was
    for name in reversed(_MATCH):
        op.execute(f'ALTER TABLE "match" DROP COLUMN {name}')
    op.execute("ALTER TABLE event DROP COLUMN bracket_plan")
