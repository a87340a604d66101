"""The hall's tables as SQLAlchemy 2 typed declarative models (the schema of `docs/storage.md`)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# A 64-bit key; SQLite only auto-increments a column declared exactly INTEGER PRIMARY KEY.
BigId = BigInteger().with_variant(Integer(), "sqlite")

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every database (SQLite keeps no offset)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCDateTime(), dict[str, Any]: JSON(), list[Any]: JSON()}


class User(Base):
    """A player's account: a guest or a registered name with a password."""

    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role IN ('player', 'admin')", name="role"),
        CheckConstraint("(is_guest AND password_hash IS NULL) OR "
                        "(NOT is_guest AND password_hash IS NOT NULL)", name="guest_password"),
        Index("uq_users_name_skeleton", "name_skeleton", unique=True),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)  # casefolded, for uniqueness
    # its TR 39 skeleton (``names.name_skeleton``): no two names look alike; NULL only for
    # names given before the rule that look like an older one
    name_skeleton: Mapped[str | None] = mapped_column(String(128))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    is_guest: Mapped[bool] = mapped_column(Boolean)
    role: Mapped[str] = mapped_column(String(16))
    suspended: Mapped[bool] = mapped_column(Boolean)
    session_version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime]


class LoginSession(Base):
    """A signed-in browser: its cookie holds the token whose SHA-256 is kept here. Signing
    out deletes the row; so do registering a guest, a password change, a suspension."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime] = mapped_column(index=True)


class Wallet(Base):
    """A ledger account: one per user, plus the system accounts house, mint and bots."""

    __tablename__ = "wallets"
    __table_args__ = (
        CheckConstraint("kind IN ('user', 'house', 'mint', 'bots')", name="kind"),
        CheckConstraint("(kind = 'user') = (user_id IS NOT NULL)", name="user_owner"),
        CheckConstraint("(kind = 'user') = (balance IS NOT NULL)", name="cached_balance"),
        CheckConstraint("kind <> 'user' OR balance >= 0", name="user_not_negative"),
        CheckConstraint("(kind = 'user' AND system_kind IS NULL) OR system_kind = kind",
                        name="system_kind"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    # the system accounts are named by their kind: one row each (NULL user ids never collide)
    system_kind: Mapped[str | None] = mapped_column(String(8), unique=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    # a user's balance, the cached sum of its entries, updated with them; NULL for the system
    # accounts, whose balance is summed when asked (no hot row that every hand must lock)
    balance: Mapped[int | None] = mapped_column(BigInteger)


class LedgerTxn(Base):
    """One ledger transaction: its idempotency key, what was asked and the stored outcome."""

    __tablename__ = "ledger_txns"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    op: Mapped[str] = mapped_column(String(16))  # settle, escape, grant, reclaim
    fingerprint: Mapped[str] = mapped_column(String(64))  # SHA-256 of the request
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), index=True)
    outcome: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class LedgerEntry(Base):
    """One signed movement of 银子 on one account; a transaction's entries sum to zero."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        UniqueConstraint("txn_key", "wallet_id", "kind"),
        Index("ix_ledger_entries_wallet_id_id", "wallet_id", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    txn_key: Mapped[str] = mapped_column(ForeignKey("ledger_txns.key"))
    kind: Mapped[str] = mapped_column(String(16))  # grant, hand, fee, penalty, compensation
    wallet_id: Mapped[int] = mapped_column(ForeignKey("wallets.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    created_at: Mapped[datetime]


class GameTable(Base):
    """A table of the hall: its ruleset, number, rule options and hall configuration."""

    __tablename__ = "game_tables"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'closed')", name="status"),
        Index("ix_game_tables_ruleset_number", "ruleset", "number"),
        # an open table's code; closing a table clears it, so codes can be used again
        Index("uq_game_tables_room_code", "room_code", unique=True),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]]
    config: Mapped[dict[str, Any]]
    private: Mapped[bool] = mapped_column(Boolean)
    room_code: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(8))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]


class MatchRow(Base):
    """A match at a table: who sits where and the match state between hands."""

    __tablename__ = "matches"
    __table_args__ = (CheckConstraint("status IN ('playing', 'ended', 'abandoned')",
                                      name="status"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id"), index=True)
    seats: Mapped[list[Any]]
    state: Mapped[dict[str, Any]]
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class HandRow(Base):
    """One hand: its secret seed, the setup that re-deals it, and once ended its record."""

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        CheckConstraint("status IN ('playing', 'ended', 'voided')", name="status"),
        Index("ix_hands_status", "status"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    number: Mapped[int] = mapped_column(Integer)
    ruleset: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(128))  # hex; secret until the hand has ended
    commitment: Mapped[str] = mapped_column(String(64))
    setup: Mapped[dict[str, Any]]
    seats: Mapped[list[Any]]
    status: Mapped[str] = mapped_column(String(8))
    void_reason: Mapped[str | None] = mapped_column(String(200))
    record: Mapped[dict[str, Any] | None]
    result: Mapped[dict[str, Any] | None]
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]


class HandSeat(Base):
    """Who sat in which seat of a hand: the index behind "my hands"."""

    __tablename__ = "hand_seats"
    __table_args__ = (Index("ix_hand_seats_user_id_hand_id", "user_id", "hand_id"),)

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))


class HandAction(Base):
    """One action of a hand in play order; a hand is its seed and these actions."""

    __tablename__ = "hand_actions"

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]]


class TableLease(Base):
    """Which node owns a table (a hall of several nodes), until when, and its fencing epoch:
    every write of the owner carries the epoch, and a write with an older one is refused.
    ``expires`` is seconds since 1970 by the database's clock (the nodes' clocks never
    count). Table id 0 is the lease of setting up the standing tables."""

    __tablename__ = "table_leases"
    __table_args__ = (Index("ix_table_leases_owner", "owner"),)

    table_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    owner: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[float] = mapped_column(Float)


class HallNode(Base):
    """A node of the hall: where other nodes reach it, until when it is alive (renewed with
    its leases), whether it is draining, and how many tables it owned at its last renewal."""

    __tablename__ = "hall_nodes"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str | None] = mapped_column(String(200))
    expires: Mapped[float] = mapped_column(Float)
    draining: Mapped[bool] = mapped_column(Boolean)
    tables: Mapped[int] = mapped_column(Integer)


class PlayerReport(Base):
    """A person at a table reported another to the operator, with the reported person's last
    words there (``chat``, oldest first); ``handled_at`` and ``handled_by`` once an operator
    has dealt with it (null while open)."""

    __tablename__ = "player_reports"

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    at: Mapped[datetime]
    table_id: Mapped[int] = mapped_column(BigInteger)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    chat: Mapped[list[Any]]
    handled_at: Mapped[datetime | None]
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class Mute(Base):
    """A player does not want to read another's chat (屏蔽), on every device they sign in on."""

    __tablename__ = "mutes"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    muted_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    at: Mapped[datetime]
