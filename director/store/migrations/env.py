"""Alembic environment: runs on the connection the app hands over (SQLite or PostgreSQL)."""

from alembic import context

from director.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite cannot ALTER most things: batch mode copies the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
