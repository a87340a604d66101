"""Alembic migrations of the hall's schema (applied by ``Store.migrate``)."""
