"""A player's mutes (屏蔽) kept with the account: ``mutes``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "mutes",
        sa.Column("user_id", ID, nullable=False),
        sa.Column("muted_id", ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_mutes_user_id_users")),
        sa.ForeignKeyConstraint(["muted_id"], ["users.id"],
                                name=op.f("fk_mutes_muted_id_users")),
        sa.PrimaryKeyConstraint("user_id", "muted_id", name=op.f("pk_mutes")),
    )


def downgrade() -> None:
    op.drop_table("mutes")
