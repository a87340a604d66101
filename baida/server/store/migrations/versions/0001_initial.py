"""The hall's first schema: accounts, the ledger, tables, matches, hands and their actions.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# Written out here rather than imported from the models: a revision must not change later.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _id() -> sa.Column:
    return sa.Column("id", ID, nullable=False)


def _time(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _ref(name: str, target: str, table: str, nullable: bool = False) -> list:
    return [sa.Column(name, ID, nullable=nullable),
            sa.ForeignKeyConstraint([name], [f"{target}.id"],
                                    name=op.f(f"fk_{table}_{name}_{target}"))]


def upgrade() -> None:
    op.create_table(
        "users",
        _id(),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("session_version", sa.Integer(), nullable=False),
        _time("created_at"),
        sa.CheckConstraint("role IN ('player', 'admin')", name=op.f("ck_users_role")),
        sa.CheckConstraint("(is_guest AND password_hash IS NULL) OR "
                           "(NOT is_guest AND password_hash IS NOT NULL)",
                           name=op.f("ck_users_guest_password")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name_key", name=op.f("uq_users_name_key")),
    )
    op.create_table(
        "wallets",
        _id(),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("system_kind", sa.String(8), nullable=True),
        *_ref("user_id", "users", "wallets", nullable=True),
        sa.Column("balance", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("kind IN ('user', 'house', 'mint', 'bots')",
                           name=op.f("ck_wallets_kind")),
        sa.CheckConstraint("(kind = 'user') = (user_id IS NOT NULL)",
                           name=op.f("ck_wallets_user_owner")),
        sa.CheckConstraint("(kind = 'user') = (balance IS NOT NULL)",
                           name=op.f("ck_wallets_cached_balance")),
        sa.CheckConstraint("kind <> 'user' OR balance >= 0",
                           name=op.f("ck_wallets_user_not_negative")),
        sa.CheckConstraint("(kind = 'user' AND system_kind IS NULL) OR system_kind = kind",
                           name=op.f("ck_wallets_system_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_wallets")),
        sa.UniqueConstraint("system_kind", name=op.f("uq_wallets_system_kind")),
        sa.UniqueConstraint("user_id", name=op.f("uq_wallets_user_id")),
    )
    op.create_table(
        "game_tables",
        _id(),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("room_code", sa.String(16), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        *_ref("created_by", "users", "game_tables", nullable=True),
        _time("created_at"),
        _time("closed_at", nullable=True),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_game_tables_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_tables")),
    )
    op.create_index("ix_game_tables_ruleset_number", "game_tables", ["ruleset", "number"])
    op.create_index("uq_game_tables_open_room_code", "game_tables", ["room_code"], unique=True,
                    sqlite_where=sa.text("status = 'open'"),
                    postgresql_where=sa.text("status = 'open'"))
    op.create_table(
        "matches",
        _id(),
        *_ref("table_id", "game_tables", "matches"),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        _time("created_at"),
        _time("updated_at"),
        sa.CheckConstraint("status IN ('playing', 'ended', 'abandoned')",
                           name=op.f("ck_matches_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    op.create_index("ix_matches_table_id", "matches", ["table_id"])
    op.create_table(
        "hands",
        _id(),
        *_ref("match_id", "matches", "hands"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("void_reason", sa.String(200), nullable=True),
        sa.Column("record", sa.JSON(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        _time("started_at"),
        _time("ended_at", nullable=True),
        sa.CheckConstraint("status IN ('playing', 'ended', 'voided')",
                           name=op.f("ck_hands_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_hands_match_id_number")),
    )
    op.create_index("ix_hands_status", "hands", ["status"])
    op.create_table(
        "hand_seats",
        *_ref("hand_id", "hands", "hand_seats"),
        sa.Column("seat", sa.Integer(), nullable=False),
        *_ref("user_id", "users", "hand_seats"),
        sa.PrimaryKeyConstraint("hand_id", "seat", name=op.f("pk_hand_seats")),
    )
    op.create_index("ix_hand_seats_user_id_hand_id", "hand_seats", ["user_id", "hand_id"])
    op.create_table(
        "hand_actions",
        *_ref("hand_id", "hands", "hand_actions"),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("hand_id", "seq", name=op.f("pk_hand_actions")),
    )
    op.create_table(
        "ledger_txns",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("op", sa.String(16), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        *_ref("hand_id", "hands", "ledger_txns", nullable=True),
        sa.Column("outcome", sa.JSON(), nullable=False),
        _time("created_at"),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_ledger_txns")),
    )
    op.create_index("ix_ledger_txns_hand_id", "ledger_txns", ["hand_id"])
    op.create_table(
        "ledger_entries",
        _id(),
        sa.Column("txn_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        *_ref("wallet_id", "wallets", "ledger_entries"),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        *_ref("hand_id", "hands", "ledger_entries", nullable=True),
        _time("created_at"),
        sa.ForeignKeyConstraint(["txn_key"], ["ledger_txns.key"],
                                name=op.f("fk_ledger_entries_txn_key_ledger_txns")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("txn_key", "wallet_id", "kind",
                            name=op.f("uq_ledger_entries_txn_key_wallet_id_kind")),
    )
    op.create_index("ix_ledger_entries_wallet_id_id", "ledger_entries", ["wallet_id", "id"])
    # the system accounts: fees and kept penalties, issuance, the bots' stake
    wallets = sa.table("wallets", sa.column("kind", sa.String), sa.column("system_kind", sa.String))
    op.bulk_insert(wallets, [{"kind": kind, "system_kind": kind}
                             for kind in ("house", "mint", "bots")])


def downgrade() -> None:
    for table in ("ledger_entries", "ledger_txns", "hand_actions", "hand_seats", "hands",
                  "matches", "game_tables", "wallets", "users"):
        op.drop_table(table)
