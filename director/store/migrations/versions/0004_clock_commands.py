"""clock commands: the desk's start, pause, resume and time restore for the phone clocks,
kept in the event so a restart of the table service loses none

Revision ID: 0004_clock_commands
Revises: 0004_event_header
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_clock_commands"
down_revision = "0004_event_header"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clock_command",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ident", sa.String(length=32), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=1), nullable=True),
        sa.Column("value", sa.BigInteger(), nullable=True),
        sa.Column("pair_number", sa.Integer(), nullable=True),
        sa.Column("at_ns", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("audited", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_clock_command_match_id_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clock_command")),
        sa.UniqueConstraint("ident", name=op.f("uq_clock_command_ident")),
    )
    with op.batch_alter_table("clock_command", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_clock_command_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("clock_command", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_clock_command_match_id"))
    op.drop_table("clock_command")
