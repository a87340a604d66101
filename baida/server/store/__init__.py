"""The hall's persistent data: accounts, the 银子 ledger, tables, matches, hands and records.

See ``docs/storage.md``. Everything goes through ``Store``.
"""

from .accounts import Account
from .errors import (
    AccountSuspended,
    AuthenticationFailed,
    HandStateError,
    IdempotencyConflict,
    InvalidRequest,
    LeaseLost,
    NameTaken,
    NotFound,
    StoreError,
)
from .hands import FinishedHand, HandInfo, HandSummary, ResumableHand, SettleRequest
from .leases import Fence
from .ledger import (
    EscapeResult,
    EscapeShare,
    GrantResult,
    HistoryEntry,
    LedgerCheck,
    LedgerTotals,
    SeatSettlement,
    Settlement,
)
from .names import InvalidName, normalize_name
from .passwords import InvalidPassword
from .store import Store
from .tables import MatchInfo, TableInfo

__all__ = [
    "Account",
    "AccountSuspended",
    "AuthenticationFailed",
    "EscapeResult",
    "EscapeShare",
    "Fence",
    "FinishedHand",
    "GrantResult",
    "HandInfo",
    "HandStateError",
    "HandSummary",
    "HistoryEntry",
    "IdempotencyConflict",
    "InvalidName",
    "InvalidPassword",
    "InvalidRequest",
    "LeaseLost",
    "LedgerCheck",
    "LedgerTotals",
    "MatchInfo",
    "NameTaken",
    "NotFound",
    "ResumableHand",
    "SeatSettlement",
    "Settlement",
    "SettleRequest",
    "Store",
    "StoreError",
    "TableInfo",
    "normalize_name",
]
