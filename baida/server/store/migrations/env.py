"""Alembic's environment, configured by ``baida.server.store.migrate`` (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from baida.server.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_offline() -> None:
    """Write the SQL to standard output (``alembic upgrade --sql``)."""
    url = config.get_main_option("sqlalchemy.url") or ""
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=url.startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate on the connection ``migrate.py`` passes in ``config.attributes``."""
    connection = config.attributes["connection"]
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
