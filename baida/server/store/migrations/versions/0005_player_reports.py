"""Reports of players by others at their table: ``player_reports``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# Written out here rather than imported from the models: a revision must not change later.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "player_reports",
        sa.Column("id", ID, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("table_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("reporter_id", ID, nullable=False),
        sa.Column("chat", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"],
                                name=op.f("fk_player_reports_user_id_users")),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"],
                                name=op.f("fk_player_reports_reporter_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_reports")),
    )
    op.create_index(op.f("ix_player_reports_user_id"), "player_reports", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_player_reports_user_id"), table_name="player_reports")
    op.drop_table("player_reports")
