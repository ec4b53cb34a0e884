"""Alembic's environment: migrations run on the connection `attn_class.migrate` hands over
(online only; there is no offline SQL script mode)."""

from alembic import context
from sqlalchemy import create_engine

from attn_class.schema import Base

connection = context.config.attributes.get("connection")
if connection is None:  # the `alembic` command line, with sqlalchemy.url set
    engine = create_engine(context.config.get_main_option("sqlalchemy.url"))
    connection = engine.connect()

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters a table by copying it
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
