"""name keys: each team and each player keeps the key its name is compared by
(`domain.teamlist.name_key`), under a unique index, so two stations writing at once cannot both
register one team name or one player (the rules were checked by reading before writing)

Revision ID: 0008_name_keys
Revises: 0007_team_slip_tokens
"""

import sqlalchemy as sa
from alembic import op

from director.domain.teamlist import name_key

revision = "0008_name_keys"
down_revision = "0007_team_slip_tokens"
branch_labels = None
depends_on = None

KEY_LENGTH = 400  # a name of 100 characters folds (NFKC, case) to at most a few times that


def _fill(table: str) -> None:
    """Each row's key; a name already taken in a file written before (two stations raced)
    keeps its key apart with its id, so the index holds; `check` names those rows."""
    connection = op.get_bind()
    seen: set[str] = set()
    rows = connection.execute(sa.text(f"SELECT id, name FROM {table} ORDER BY id")).all()
    for row_id, name in rows:
        key = name_key(str(name))
        if key in seen:
            key = f"{key}\x01{row_id}"  # no name holds a control character
        seen.add(key)
        connection.execute(
            sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id"),
            {"key": key, "id": row_id},
        )


def upgrade() -> None:
    for table in ("team", "player"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column(
                    "name_key", sa.String(length=KEY_LENGTH), server_default="", nullable=False
                )
            )
        _fill(table)
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_index(batch_op.f(f"ix_{table}_name_key"), ["name_key"], unique=True)


def downgrade() -> None:
    for table in ("player", "team"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f"ix_{table}_name_key"))
            batch_op.drop_column("name_key")
