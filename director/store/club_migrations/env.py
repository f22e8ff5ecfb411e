"""Alembic environment of the club file: its own scripts and its own version table, so the
club's revisions never mix with an event file's."""

from alembic import context

from director.store.club_models import ClubBase
from director.store.revisions import CLUB_VERSION_TABLE

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=ClubBase.metadata,
    render_as_batch=True,
    compare_type=True,
    version_table=CLUB_VERSION_TABLE,
)
with context.begin_transaction():
    context.run_migrations()
