"""A report of a player is marked handled by the operator who dealt with it.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("player_reports") as batch:
        batch.add_column(sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("handled_by", ID, nullable=True))
        batch.create_foreign_key(op.f("fk_player_reports_handled_by_users"), "users",
                                 ["handled_by"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("player_reports") as batch:
        batch.drop_constraint(op.f("fk_player_reports_handled_by_users"), type_="foreignkey")
        batch.drop_column("handled_by")
        batch.drop_column("handled_at")
