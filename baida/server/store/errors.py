"""The store's errors: each message names the problem and is safe to show to the player."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of the store's errors."""


class InvalidRequest(StoreError, ValueError):
    """Arguments the store refuses (bad amounts, seats, names, passwords); nothing was written."""


class NotFound(StoreError, LookupError):
    """No such account, table, match or hand."""


class NameTaken(StoreError):
    """The display name is already used by another account (names ignore case)."""


class AuthenticationFailed(StoreError):
    """Wrong name or password (the message does not say which)."""


class AccountSuspended(StoreError):
    """The account is suspended: it cannot log in or sit."""


class IdempotencyConflict(StoreError):
    """A ledger key was already used for a different request."""


class HandStateError(StoreError):
    """The hand is not in a state that allows this (e.g. actions after its end)."""


class LeaseLost(StoreError):
    """This node no longer owns the table (another node took it over): its write is
    refused, nothing was written."""
