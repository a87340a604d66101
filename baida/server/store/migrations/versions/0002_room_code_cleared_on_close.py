"""A closed table gives up its room code: one plain unique index instead of a partial one.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("UPDATE game_tables SET room_code = NULL WHERE status = 'closed'")
    op.drop_index("uq_game_tables_open_room_code", table_name="game_tables")
    op.create_index("uq_game_tables_room_code", "game_tables", ["room_code"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_game_tables_room_code", table_name="game_tables")
    op.create_index("uq_game_tables_open_room_code", "game_tables", ["room_code"], unique=True,
                    sqlite_where=sa.text("status = 'open'"),
                    postgresql_where=sa.text("status = 'open'"))
