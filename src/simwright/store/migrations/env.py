"""Alembic environment: runs migrations on the connection simwright passes in."""

from alembic import context

from simwright.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - simwright always passes a connection
    raise RuntimeError("simwright migrations must be run through simwright.store.migrate")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
