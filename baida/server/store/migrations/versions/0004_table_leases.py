"""Tables owned by lease (a hall of several nodes): ``table_leases`` and ``hall_nodes``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name="pk_table_leases"),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"])
    op.create_table(
        "hall_nodes",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(200), nullable=True),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("draining", sa.Boolean(), nullable=False),
        sa.Column("tables", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_hall_nodes"),
    )


def downgrade() -> None:
    op.drop_table("hall_nodes")
    op.drop_index("ix_table_leases_owner", table_name="table_leases")
    op.drop_table("table_leases")
