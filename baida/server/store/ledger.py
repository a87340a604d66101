"""The 银子 ledger: double-entry transactions, each idempotent under its key.

Every operation is one database transaction that writes a ``ledger_txns`` row (the key, a
fingerprint of the request, the outcome) and its entries, and updates the cached balance of
each user it touches. Called again with the same key and the same request, it writes nothing
and returns the stored outcome; with the same key and another request it raises
``IdempotencyConflict``.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from .database import Sessions
from .errors import IdempotencyConflict, InvalidRequest, NotFound
from .leases import Fence, check_fence
from .models import LedgerEntry, LedgerTxn, Wallet
from .settlement import check_amount, check_hand, escape_amounts, settle_amounts

SYSTEM_KINDS = ("house", "mint", "bots")
# what an entry on an account is for (the player's history shows it by name)
ENTRY_KINDS = ("grant", "hand", "fee", "penalty", "compensation", "reclaim")
MAX_KEY_LENGTH = 200
# the most 银子 a grant may leave one account holding: far above any table's stakes, far below
# what a 64-bit column and the ledger's sums hold
MAX_BALANCE = 10**12

# The hot path's statements, built once.
_LOCK_USERS = (select(Wallet.user_id, Wallet.id, Wallet.balance)
               .where(Wallet.user_id.in_(bindparam("users", expanding=True)))
               .order_by(Wallet.id).with_for_update())
_STORED = (select(LedgerTxn.op, LedgerTxn.fingerprint, LedgerTxn.outcome)
           .where(LedgerTxn.key == bindparam("key")))
_ADD_TXN = insert(LedgerTxn)
_ADD_ENTRIES = insert(LedgerEntry)
_CHANGE_BALANCE = (update(Wallet).where(Wallet.id == bindparam("wallet"))
                   .values(balance=Wallet.balance + bindparam("change")))


@dataclass(frozen=True)
class SeatSettlement:
    """One seat of a settled hand (``user_id`` None: a bot seat, paid by the house's stake)."""

    user_id: int | None
    owed: int
    amount: int  # signed: what the seat paid (negative) or received (positive) for the hand
    fee: int
    balance_after: int | None  # None for a bot seat


@dataclass(frozen=True)
class Settlement:
    """The outcome of ``settle_hand``; ``replayed`` when a retry found it already stored."""

    txn_key: str
    hand_id: int | None
    seats: tuple[SeatSettlement, ...]
    replayed: bool = False

    @property
    def fees(self) -> int:
        return sum(seat.fee for seat in self.seats)


@dataclass(frozen=True)
class EscapeShare:
    user_id: int | None  # None: a bot seat
    amount: int


@dataclass(frozen=True)
class EscapeResult:
    """The outcome of ``escape``: what the escaper paid and where it went."""

    txn_key: str
    hand_id: int | None
    escaper: int
    penalty_paid: int
    fee_paid: int
    shares: tuple[EscapeShare, ...]
    to_house: int  # the penalty's indivisible remainder (the fee goes to the house too)
    balance_after: int
    replayed: bool = False


@dataclass(frozen=True)
class GrantResult:
    txn_key: str
    user_id: int
    amount: int
    balance_after: int
    replayed: bool = False


@dataclass(frozen=True)
class HistoryEntry:
    """One entry on a player's account, newest first in ``history``; ``id`` is the cursor."""

    id: int
    txn_key: str
    kind: str  # one of ENTRY_KINDS
    amount: int
    hand_id: int | None
    created_at: datetime


@dataclass(frozen=True)
class LedgerTotals:
    """Sums over the whole ledger: per account kind, per (account kind, entry kind)."""

    by_account: dict[str, int]  # user, house, mint, bots
    by_entry: dict[tuple[str, str], int]  # (account kind, entry kind) -> sum
    entries_sum: int  # every entry added up: 0 in a sound ledger
    transactions: int

    def to_json(self) -> dict[str, Any]:
        return {
            "by_account": dict(self.by_account),
            "by_entry": [{"account": a, "kind": k, "sum": v}
                         for (a, k), v in sorted(self.by_entry.items())],
            "entries_sum": self.entries_sum,
            "transactions": self.transactions,
        }


@dataclass(frozen=True)
class LedgerCheck:
    """What ``check`` found wrong; empty lists when the ledger is sound."""

    unbalanced: list[tuple[str, int]]  # (txn key, sum of its entries)
    cache_mismatches: list[tuple[int, int, int]]  # (user id, cached balance, sum of entries)
    negative: list[tuple[int, int]]  # (user id, balance)

    @property
    def ok(self) -> bool:
        return not (self.unbalanced or self.cache_mismatches or self.negative)


def _fingerprint(op: str, request: dict[str, Any]) -> str:
    text = json.dumps({"op": op, **request}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        raise InvalidRequest(f"a ledger key is a non-empty string of at most "
                             f"{MAX_KEY_LENGTH} characters, got {key!r}")
    return key


def _check_user(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidRequest(f"{what}: expected a user id, got {value!r}")
    return value


def _check_seat_users(seats: Sequence[int | None], what: str) -> list[int | None]:
    users = [None if u is None else _check_user(u, f"{what}[{i}]") for i, u in enumerate(seats)]
    humans = [u for u in users if u is not None]
    if len(set(humans)) != len(humans):
        raise InvalidRequest(f"{what}: a user sits in two seats: {list(seats)}")
    return users


@dataclass(frozen=True)
class UserWallet:
    """A user's wallet row, locked for the transaction."""

    id: int
    balance: int


class SystemAccounts:
    """The ids of the house, mint and bots accounts (fixed by the first migration)."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def id(self, session: Session, kind: str) -> int:
        if kind not in self._ids:
            rows = session.execute(select(Wallet.system_kind, Wallet.id)
                                   .where(Wallet.system_kind.is_not(None))).all()
            self._ids.update({k: i for k, i in rows if k is not None})
            if kind not in self._ids:
                raise NotFound(f"the {kind} account is missing: run Store.migrate()")
        return self._ids[kind]


class LedgerWriter:
    """The ledger's operations inside a caller's transaction (``Hands.finish`` shares it).

    Written with SQLAlchemy Core rather than ORM objects: a hand's settlement is on the
    hall's hot path."""

    def __init__(self, session: Session, now: datetime, system: SystemAccounts) -> None:
        self.session = session
        self.connection = session.connection()
        self.now = now
        self._system = system

    def system_wallet(self, kind: str) -> int:
        return self._system.id(self.session, kind)

    def lock_users(self, user_ids: Sequence[int]) -> dict[int, UserWallet]:
        """The users' wallets, locked for this transaction in id order (no deadlocks)."""
        wanted = sorted(set(user_ids))
        rows = self.connection.execute(_LOCK_USERS, {"users": wanted}).all()
        found = {u: UserWallet(i, b or 0) for u, i, b in rows if u is not None}
        for user_id in wanted:
            if user_id not in found:
                raise NotFound(f"no account with id {user_id}")
        return found

    def stored(self, key: str, op: str, fingerprint: str) -> dict[str, Any] | None:
        """The outcome stored under ``key`` for this same request, or None if the key is new."""
        row = self.connection.execute(_STORED, {"key": key}).first()
        if row is None:
            return None
        if row.op != op or row.fingerprint != fingerprint:
            raise IdempotencyConflict(f"ledger key {key!r} was already used for another "
                                      f"{row.op} request")
        return row.outcome

    def write(self, key: str, op: str, fingerprint: str, hand_id: int | None,
              outcome: dict[str, Any], entries: dict[tuple[int, str], int],
              users: dict[int, UserWallet]) -> None:
        """The transaction row, its nonzero entries (summing to 0) and the cached balances."""
        moves = {k: v for k, v in entries.items() if v != 0}
        if sum(moves.values()) != 0:
            raise AssertionError(f"unbalanced ledger transaction {key}: {moves}")
        execute = self.connection.execute
        # the key first: a concurrent duplicate fails here, before anything else is written
        execute(_ADD_TXN, {"key": key, "op": op, "fingerprint": fingerprint, "hand_id": hand_id,
                           "outcome": outcome, "created_at": self.now})
        if not moves:
            return
        execute(_ADD_ENTRIES, [
            {"txn_key": key, "kind": kind, "wallet_id": wallet_id, "amount": amount,
             "hand_id": hand_id, "created_at": self.now}
            for (wallet_id, kind), amount in moves.items()])
        user_wallets = {w.id for w in users.values()}
        changes: dict[int, int] = defaultdict(int)
        for (wallet_id, _), amount in moves.items():
            if wallet_id in user_wallets:
                changes[wallet_id] += amount
        balance_changes = [{"wallet": wallet_id, "change": change}
                           for wallet_id, change in changes.items() if change]
        if balance_changes:  # a user's entries may cancel out (won 1, paid a fee of 1)
            execute(_CHANGE_BALANCE, balance_changes)

    # ------------------------------------------------------------------ operations

    def grant(self, key: str, user_id: int, amount: int) -> GrantResult:
        _check_key(key)
        _check_user(user_id, "user")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidRequest(f"a grant is a whole number of 银子 > 0, got {amount!r}")
        if amount > MAX_BALANCE:
            raise InvalidRequest(f"a grant is at most {MAX_BALANCE} 银子, got {amount}")
        fingerprint = _fingerprint("grant", {"user": user_id, "amount": amount})
        wallets = self.lock_users([user_id])
        outcome = self.stored(key, "grant", fingerprint)
        if outcome is not None:
            return GrantResult(**outcome, replayed=True)
        wallet = wallets[user_id]
        if wallet.balance + amount > MAX_BALANCE:
            raise InvalidRequest(f"the grant would leave the account {wallet.balance + amount} "
                                 f"银子, more than the most one account holds ({MAX_BALANCE})")
        entries = {(self.system_wallet("mint"), "grant"): -amount, (wallet.id, "grant"): amount}
        result = GrantResult(key, user_id, amount, wallet.balance + amount)
        outcome = asdict(result)
        del outcome["replayed"]
        self.write(key, "grant", fingerprint, None, outcome, entries, wallets)
        return result

    def reclaim(self, key: str, user_id: int, amount: int) -> GrantResult:
        """Take ``amount`` 银子 back to the mint (a guest's balance above the starting grant,
        when it registers); a grant's mirror, with its own entry kind."""
        _check_key(key)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidRequest(f"a reclaim is a whole number of 银子 > 0, got {amount!r}")
        fingerprint = _fingerprint("reclaim", {"user": user_id, "amount": amount})
        wallets = self.lock_users([user_id])
        outcome = self.stored(key, "reclaim", fingerprint)
        if outcome is not None:
            return GrantResult(**outcome, replayed=True)
        wallet = wallets[user_id]
        if wallet.balance < amount:
            raise InvalidRequest(f"cannot take back {amount} 银子 of {wallet.balance}")
        entries = {(self.system_wallet("mint"), "reclaim"): amount,
                   (wallet.id, "reclaim"): -amount}
        result = GrantResult(key, user_id, -amount, wallet.balance - amount)
        outcome = asdict(result)
        del outcome["replayed"]
        self.write(key, "reclaim", fingerprint, None, outcome, entries, wallets)
        return result

    def settle_hand(self, key: str, seats: Sequence[int | None], owed: Sequence[int], fee: int,
                    hand_id: int | None = None) -> Settlement:
        _check_key(key)
        if len(seats) != 4:
            raise InvalidRequest(f"seats: a hand has four seats, got {len(seats)}")
        users = _check_seat_users(seats, "seats")
        check_hand(owed, fee)
        request = {"seats": users, "owed": list(owed), "fee": fee, "hand": hand_id}
        fingerprint = _fingerprint("settle", request)
        wallets = self.lock_users([u for u in users if u is not None])
        outcome = self.stored(key, "settle", fingerprint)
        if outcome is not None:
            return _settlement_from_json(outcome, replayed=True)
        balances: list[int | None] = [None if u is None else wallets[u].balance for u in users]
        parts = settle_amounts(owed, balances, fee)
        entries: dict[tuple[int, str], int] = defaultdict(int)
        bots, house = self.system_wallet("bots"), self.system_wallet("house")
        for user_id, part in zip(users, parts, strict=True):
            wallet_id = bots if user_id is None else wallets[user_id].id
            entries[wallet_id, "hand"] += part.amount
            entries[wallet_id, "fee"] -= part.fee
            entries[house, "fee"] += part.fee
        result = Settlement(key, hand_id, tuple(
            SeatSettlement(u, p.owed, p.amount, p.fee, p.balance_after)
            for u, p in zip(users, parts, strict=True)))
        self.write(key, "settle", fingerprint, hand_id, _settlement_to_json(result),
                   entries, wallets)
        return result

    def escape(self, key: str, escaper: int, penalty: int, others: Sequence[int | None],
               fee: int = 0, hand_id: int | None = None) -> EscapeResult:
        _check_key(key)
        _check_user(escaper, "escaper")
        users = _check_seat_users(others, "others")
        if escaper in users:
            raise InvalidRequest("others: the escaper cannot be paid their own penalty")
        if len(users) > 3:
            raise InvalidRequest(f"others: at most three other seats, got {len(users)}")
        check_amount("penalty", penalty)
        check_amount("fee", fee)
        request = {"escaper": escaper, "penalty": penalty, "others": users, "fee": fee,
                   "hand": hand_id}
        fingerprint = _fingerprint("escape", request)
        wallets = self.lock_users([escaper, *[u for u in users if u is not None]])
        outcome = self.stored(key, "escape", fingerprint)
        if outcome is not None:
            return _escape_from_json(outcome, replayed=True)
        parts = escape_amounts(wallets[escaper].balance, penalty, fee, len(users))
        bots, house = self.system_wallet("bots"), self.system_wallet("house")
        entries: dict[tuple[int, str], int] = defaultdict(int)
        entries[wallets[escaper].id, "penalty"] -= parts.penalty_paid
        entries[wallets[escaper].id, "fee"] -= parts.fee_paid
        for user_id, share in zip(users, parts.shares, strict=True):
            entries[bots if user_id is None else wallets[user_id].id, "compensation"] += share
        entries[house, "penalty"] += parts.to_house
        entries[house, "fee"] += parts.fee_paid
        result = EscapeResult(
            key, hand_id, escaper, parts.penalty_paid, parts.fee_paid,
            tuple(EscapeShare(u, s) for u, s in zip(users, parts.shares, strict=True)),
            parts.to_house, parts.balance_after)
        self.write(key, "escape", fingerprint, hand_id, _escape_to_json(result), entries, wallets)
        return result


def _settlement_to_json(result: Settlement) -> dict[str, Any]:
    return {"txn_key": result.txn_key, "hand_id": result.hand_id,
            "seats": [asdict(seat) for seat in result.seats]}


def _settlement_from_json(obj: dict[str, Any], *, replayed: bool) -> Settlement:
    return Settlement(obj["txn_key"], obj["hand_id"],
                      tuple(SeatSettlement(**seat) for seat in obj["seats"]), replayed)


def _escape_to_json(result: EscapeResult) -> dict[str, Any]:
    out = asdict(result)
    del out["replayed"]
    return out


def _escape_from_json(obj: dict[str, Any], *, replayed: bool) -> EscapeResult:
    shares = tuple(EscapeShare(**share) for share in obj["shares"])
    return EscapeResult(**{**obj, "shares": shares}, replayed=replayed)


class Ledger:
    """The ledger's public operations, each in its own transaction (any thread may call)."""

    def __init__(self, sessions: Sessions, clock: Callable[[], datetime]) -> None:
        self._sessions = sessions
        self._clock = clock
        self._system = SystemAccounts()

    def writer(self, session: Session, now: datetime | None = None) -> LedgerWriter:
        """The ledger inside another operation's transaction (account creation, hand end)."""
        return LedgerWriter(session, now or self._clock(), self._system)

    def _run(self, operation: Callable[[LedgerWriter], Any]) -> Any:
        return self._sessions.transact(lambda s: operation(self.writer(s)))

    def grant(self, txn_key: str, user_id: int, amount: int) -> GrantResult:
        """Credit ``amount`` 银子 from the mint (admin top-up, starting balance)."""
        return self._run(lambda w: w.grant(txn_key, user_id, amount))

    def settle_hand(self, txn_key: str, seats: Sequence[int | None], owed: Sequence[int],
                    fee: int, *, hand_id: int | None = None) -> Settlement:
        """Pay a hand: ``owed`` per seat (sums to 0), losers capped at their balance, then fees."""
        return self._run(lambda w: w.settle_hand(txn_key, seats, owed, fee, hand_id))

    def escape(self, txn_key: str, escaper: int, penalty: int, others: Sequence[int | None],
               *, fee: int = 0, hand_id: int | None = None,
               fence: Fence | None = None) -> EscapeResult:
        """The escaper pays ``penalty`` (shared equally by ``others``) and ``fee``, capped.
        With a ``fence`` (the table's lease): refused (``LeaseLost``), nothing written,
        unless the table is still the fence's node's, in the same transaction."""

        def run(w: LedgerWriter) -> EscapeResult:
            check_fence(w.session, fence)
            return w.escape(txn_key, escaper, penalty, others, fee, hand_id)

        return self._run(run)

    def balance(self, user_id: int) -> int:
        with self._sessions.read() as s:
            balance = s.scalar(select(Wallet.balance).where(Wallet.user_id == user_id))
        if balance is None:
            raise NotFound(f"no account with id {user_id}")
        return balance

    def history(self, user_id: int, *, limit: int = 50,
                before: int | None = None) -> list[HistoryEntry]:
        """A player's entries, newest first; ``before``: an entry id from an earlier page."""
        with self._sessions.read() as s:
            wallet_id = s.scalar(select(Wallet.id).where(Wallet.user_id == user_id))
            if wallet_id is None:
                raise NotFound(f"no account with id {user_id}")
            query = select(LedgerEntry).where(LedgerEntry.wallet_id == wallet_id)
            if before is not None:
                query = query.where(LedgerEntry.id < before)
            rows = s.scalars(query.order_by(LedgerEntry.id.desc()).limit(max(limit, 0))).all()
            return [HistoryEntry(r.id, r.txn_key, r.kind, r.amount, r.hand_id, r.created_at)
                    for r in rows]

    def totals(self) -> LedgerTotals:
        with self._sessions.read() as s:
            rows = s.execute(
                select(Wallet.kind, LedgerEntry.kind, func.sum(LedgerEntry.amount))
                .join(Wallet, Wallet.id == LedgerEntry.wallet_id)
                .group_by(Wallet.kind, LedgerEntry.kind)).all()
            transactions = s.scalar(select(func.count()).select_from(LedgerTxn)) or 0
        by_entry = {(a, k): int(v) for a, k, v in rows}
        by_account = {kind: 0 for kind in ("user", *SYSTEM_KINDS)}
        for (account, _), value in by_entry.items():
            by_account[account] += value
        return LedgerTotals(by_account, by_entry, sum(by_entry.values()), transactions)

    def check(self) -> LedgerCheck:
        """Every transaction sums to 0; every cached balance equals its entries; none is < 0."""
        with self._sessions.read() as s:
            unbalanced = s.execute(
                select(LedgerEntry.txn_key, func.sum(LedgerEntry.amount))
                .group_by(LedgerEntry.txn_key)
                .having(func.sum(LedgerEntry.amount) != 0)).all()
            sums = (select(LedgerEntry.wallet_id, func.sum(LedgerEntry.amount).label("total"))
                    .group_by(LedgerEntry.wallet_id).subquery())
            users = s.execute(
                select(Wallet.user_id, Wallet.balance, func.coalesce(sums.c.total, 0))
                .outerjoin(sums, sums.c.wallet_id == Wallet.id)
                .where(Wallet.kind == "user")).all()
        return LedgerCheck(
            unbalanced=[(k, int(v)) for k, v in unbalanced],
            cache_mismatches=[(u, b, int(t)) for u, b, t in users if b != t],
            negative=[(u, b) for u, b, _ in users if b < 0],
        )
