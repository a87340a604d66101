"""Server-side sessions (a row per signed-in browser) and the look-alike key of names.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    from baida.server.store.names import name_skeleton

    op.add_column("users", sa.Column("name_skeleton", sa.String(128), nullable=True))
    users = sa.table("users", sa.column("id", ID), sa.column("name", sa.String),
                     sa.column("name_skeleton", sa.String))
    connection = op.get_bind()
    seen: set[str] = set()
    for uid, name in connection.execute(sa.select(users.c.id, users.c.name)
                                        .order_by(users.c.id)).all():
        key = name_skeleton(name)
        if key in seen:  # an older name looks like it: this one keeps no key (NULL)
            continue
        seen.add(key)
        connection.execute(users.update().where(users.c.id == uid).values(name_skeleton=key))
    op.create_index("uq_users_name_skeleton", "users", ["name_skeleton"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", ID, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_sessions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sessions_token_hash")),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"])
    op.create_index(op.f("ix_sessions_expires_at"), "sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_table("sessions")
    op.drop_index("uq_users_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
