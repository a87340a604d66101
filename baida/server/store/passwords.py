"""Password hashing with argon2id (argon2-cffi), with a constant-time path for unknown names."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .errors import InvalidRequest

MIN_PASSWORD_LENGTH = 8
MAX_PASSWORD_LENGTH = 1024


class InvalidPassword(InvalidRequest):
    """A password that cannot be set; the message says why."""


def check_new_password(password: object) -> str:
    """The password if it may be set, else ``InvalidPassword``."""
    if not isinstance(password, str):
        raise InvalidPassword("a password must be text")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InvalidPassword(f"a password needs at least {MIN_PASSWORD_LENGTH} characters")
    if len(password) > MAX_PASSWORD_LENGTH:
        raise InvalidPassword(f"a password has at most {MAX_PASSWORD_LENGTH} characters")
    return password


class Passwords:
    """Hashes and verifies passwords with one set of argon2 parameters (injectable for tests)."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        # verified when the name is unknown, so that a miss costs as much as a wrong password
        self._decoy = self.hasher.hash("baida: no such account")

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; ``stored=None`` runs the decoy and fails."""
        try:
            self.hasher.verify(stored or self._decoy, password)
        except (VerificationError, InvalidHashError):
            return False
        return stored is not None

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than the current ones."""
        return self.hasher.check_needs_rehash(stored)
