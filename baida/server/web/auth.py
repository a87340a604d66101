"""Sessions, CSRF tokens, and rate limits on logins and on room codes.

The session is a signed cookie (itsdangerous) holding the account id and its
``session_version``; logging out everywhere or a suspension bumps the version, which voids
every cookie issued before. State-changing requests authenticated by the cookie must carry a
CSRF token (the ``X-CSRF-Token`` header, or a ``csrf`` form field on the admin pages) derived
from the session, and browsers' ``Origin`` must be this hall's.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..store.names import InvalidName, name_key, normalize_name

COOKIE = "baida_session"
SESSION_DAYS = 30
LOGIN_WINDOW = 600.0  # seconds
LOGIN_FAILURES = 10  # failures per window per address and per name
ROOM_WINDOW = 600.0  # seconds
ROOM_FAILURES = 10  # wrong room codes per window per address and per account


def load_secret(path: Path) -> bytes:
    """The hall's signing key, made once and kept beside the database (never committed)."""
    if path.exists():
        return bytes.fromhex(path.read_text().strip())
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex())
    return key


class SessionCodec:
    """Signs and reads session cookies; derives CSRF tokens."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._serializer = URLSafeTimedSerializer(secret.hex(), salt="baida-session")

    def dump(self, user_id: int, version: int) -> str:
        return self._serializer.dumps({"u": user_id, "v": version})

    def load(self, cookie: str | None) -> tuple[int, int] | None:
        """(user id, session version) of a valid cookie, else None."""
        if not cookie or len(cookie) > 512:
            return None
        try:
            data: Any = self._serializer.loads(cookie, max_age=SESSION_DAYS * 86400)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        uid, version = data.get("u"), data.get("v")
        if not isinstance(uid, int) or not isinstance(version, int):
            return None
        return uid, version

    def csrf(self, user_id: int, version: int) -> str:
        msg = f"csrf:{user_id}:{version}".encode()
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, user_id: int, version: int, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf(user_id, version), str(token))


class SharedCounts(Protocol):
    """Counts kept for every node of a hall (``ContainedDirectory``); None: not now."""

    def hit(self, name: str, window: float) -> int | None: ...

    def hits(self, name: str) -> int | None: ...


class FailureLimiter:
    """Failures per key (a client address, an account) in a sliding window of ``window``
    seconds; a key with ``limit`` recent failures is blocked until they age out.

    With ``shared`` (the hall's nodes' directory), failures are counted for the whole hall:
    a key is blocked once ``limit`` failures at any nodes fall in one window from its first
    (a fixed window, counted atomically in Redis); while Redis is out, this node's own count
    decides."""

    def __init__(self, now: Callable[[], float], limit: int, window: float,
                 kind: str = "fails") -> None:
        self._now = now
        self.limit = limit
        self.window = window
        self.kind = kind
        self.shared: SharedCounts | None = None
        self._fails: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        times = self._fails.setdefault(key, deque())
        cutoff = self._now() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def _count(self, key: str) -> int:
        local = len(self._recent(key))
        shared = self.shared.hits(f"{self.kind}:{key}") if self.shared is not None else None
        return local if shared is None else max(local, shared)

    def blocked_keys(self, keys: tuple[str, ...]) -> bool:
        return any(self._count(k) >= self.limit for k in keys)

    def failed_keys(self, keys: tuple[str, ...]) -> None:
        now = self._now()
        for key in keys:
            self._recent(key).append(now)
            if self.shared is not None:
                self.shared.hit(f"{self.kind}:{key}", self.window)
        if len(self._fails) > 100_000:  # forget idle keys
            for key in [k for k, v in self._fails.items() if not v]:
                del self._fails[key]


def login_key(name: str) -> str:
    """The account a login name reaches, as ``authenticate`` looks it up (so ``ａlice`` and
    ``ALICE`` count against ``alice``'s limit); an invalid name is its own key."""
    try:
        return name_key(normalize_name(name))
    except InvalidName:
        return name[:64]


class LoginLimiter(FailureLimiter):
    """Failed logins per client address and per account name."""

    def __init__(self, now: Callable[[], float]) -> None:
        super().__init__(now, LOGIN_FAILURES, LOGIN_WINDOW, "login")

    @staticmethod
    def _keys(address: str, name: str) -> tuple[str, ...]:
        return (f"a:{address}", f"n:{login_key(name)}")

    def blocked(self, address: str, name: str) -> bool:
        return self.blocked_keys(self._keys(address, name))

    def failed(self, address: str, name: str) -> None:
        self.failed_keys(self._keys(address, name))


class RoomCodeLimiter(FailureLimiter):
    """Wrong room codes per client address and per account: table ids are consecutive, room
    codes are not, and guessing them is what this stops."""

    def __init__(self, now: Callable[[], float]) -> None:
        super().__init__(now, ROOM_FAILURES, ROOM_WINDOW, "room")

    @staticmethod
    def _keys(address: str, user_id: int) -> tuple[str, ...]:
        return (f"a:{address}", f"u:{user_id}")

    def blocked(self, address: str, user_id: int) -> bool:
        return self.blocked_keys(self._keys(address, user_id))

    def failed(self, address: str, user_id: int) -> None:
        self.failed_keys(self._keys(address, user_id))
