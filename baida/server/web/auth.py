"""Session and device cookies, CSRF tokens, and the failure limiter behind the rate limits.

The session cookie is a signed (itsdangerous) random token; the session itself is a row in
the database (``store.logins``), so signing out, registering a guest, a password change or a
suspension revokes it for good. State-changing requests authenticated by the cookie must
carry a CSRF token (the ``X-CSRF-Token`` header, or a ``csrf`` form field on the admin pages)
derived from the session, and browsers' ``Origin`` must be this hall's. The device cookie,
set at each successful sign-in, tells the login limits (``limits``) a browser that has
signed in to an account before.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..store.logins import SESSION_DAYS

COOKIE = "baida_session"
DEVICE_COOKIE = "baida_device"
DEVICE_DAYS = 365
ROOM_WINDOW = 600.0  # seconds
ROOM_FAILURES = 10  # wrong room codes per window per address and per account


def load_secret(path: Path) -> bytes:
    """The hall's signing key, made once and kept beside the database (never committed)."""
    if path.exists():
        return bytes.fromhex(path.read_text().strip())
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex())
    return key


class SessionCodec:
    """Signs and reads session and device cookies; derives CSRF tokens."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret
        self._serializer = URLSafeTimedSerializer(secret.hex(), salt="baida-session")
        self._devices = URLSafeTimedSerializer(secret.hex(), salt="baida-device")

    def dump(self, token: str) -> str:
        return self._serializer.dumps({"s": token})

    def load(self, cookie: str | None) -> str | None:
        """The session token of a validly signed cookie, else None (the database decides
        whether the session is still open)."""
        data = _loads(self._serializer, cookie, SESSION_DAYS)
        token = data.get("s") if isinstance(data, dict) else None
        return token if isinstance(token, str) else None

    def load_legacy(self, cookie: str | None) -> tuple[int, int] | None:
        """(user id, session version) of a cookie signed before sessions were kept by the
        hall (``{"u", "v"}``), else None: the hall trades it once for a session."""
        data = _loads(self._serializer, cookie, SESSION_DAYS)
        if not isinstance(data, dict):
            return None
        uid, version = data.get("u"), data.get("v")
        if type(uid) is not int or type(version) is not int:
            return None
        return uid, version

    def dump_device(self, account: str) -> str:
        """A device cookie for a browser that signed in to ``account`` (a login key)."""
        return self._devices.dumps({"d": secrets.token_urlsafe(12), "a": account})

    def load_device(self, cookie: str | None) -> tuple[str, str] | None:
        """(device id, login key) of a validly signed device cookie, else None."""
        data = _loads(self._devices, cookie, DEVICE_DAYS)
        if not isinstance(data, dict):
            return None
        device, account = data.get("d"), data.get("a")
        if not isinstance(device, str) or not isinstance(account, str):
            return None
        return device, account

    def csrf(self, token: str) -> str:
        msg = f"csrf:{token}".encode()
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:32]

    def csrf_ok(self, token: str, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(self.csrf(token), str(given))


def _loads(serializer: URLSafeTimedSerializer, cookie: str | None, days: int) -> Any:
    if not cookie or len(cookie) > 512:
        return None
    try:
        return serializer.loads(cookie, max_age=days * 86400)
    except BadSignature:
        return None


class SharedCounts(Protocol):
    """Counts kept for every node of a hall (``ContainedDirectory``); None: not now."""

    def hit(self, name: str, window: float) -> int | None: ...

    def hits(self, name: str) -> int | None: ...

    def unhit(self, name: str) -> None:
        """Take back one ``hit`` (never below 0, and nothing once its window is over)."""
        ...


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
        self._pending: dict[str, int] = {}  # takes of a key here whose outcome is not known

    def _recent(self, key: str) -> deque[float]:
        times = self._fails.setdefault(key, deque())
        cutoff = self._now() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def _shared_count(self, key: str) -> int | None:
        return self.shared.hits(f"{self.kind}:{key}") if self.shared is not None else None

    def _count(self, key: str) -> int:
        local = len(self._recent(key))
        shared = self._shared_count(key)
        return local if shared is None else max(local, shared)

    def blocked_keys(self, keys: tuple[str, ...]) -> bool:
        return any(self._count(k) >= self.limit for k in keys)

    def retry_after(self, keys: tuple[str, ...]) -> int:
        """Seconds until every blocked key of ``keys`` is free again (0: none is blocked);
        a key blocked by the other nodes' count alone waits at most a whole window."""
        waits: list[float] = []
        for key in keys:
            recent = self._recent(key)
            if len(recent) >= self.limit:
                waits.append(recent[-self.limit] + self.window - self._now())
            elif (self._shared_count(key) or 0) >= self.limit:
                waits.append(self.window)
        return max(1, math.ceil(max(waits))) if waits else 0

    def failed_keys(self, keys: tuple[str, ...]) -> None:
        now = self._now()
        for key in keys:
            self._recent(key).append(now)
            if self.shared is not None:
                self.shared.hit(f"{self.kind}:{key}", self.window)
        self._forget_idle()

    def take(self, keys: tuple[str, ...]) -> float | None:
        """Count one more for every key of ``keys`` unless that blocks one: None then, and
        nothing counted. Taken before what it counts is known (a password yet to be checked),
        so that requests sent at once cannot all pass a limit before the first is counted:
        this node's count is checked and raised in one step, and the hall's is Redis's
        answer to the increment itself (no read of it first). ``settle(keys, at, ...)``,
        with the time returned, says how it turned out."""
        if any(len(self._recent(k)) >= self.limit for k in keys):
            return None
        now = self._now()
        counted: list[str] = []
        for key in keys:
            self._recent(key).append(now)
            counted.append(key)
            shared = (None if self.shared is None
                      else self.shared.hit(f"{self.kind}:{key}", self.window))
            if shared is not None and shared > self.limit:
                self._undo(tuple(counted), now)
                return None
        for key in keys:
            self._pending[key] = self._pending.get(key, 0) + 1
        self._forget_idle()
        return now

    def settle(self, keys: tuple[str, ...], at: float, counts: bool) -> None:
        """How ``take(keys)`` that returned ``at`` turned out: it ``counts`` (a wrong
        password, an account made) and stays counted, or it is taken back."""
        for key in keys:
            left = self._pending.get(key, 0) - 1
            if left > 0:
                self._pending[key] = left
            else:
                self._pending.pop(key, None)
        if not counts:
            self._undo(keys, at)

    def in_flight(self, keys: tuple[str, ...]) -> bool:
        """Whether a take of ``keys`` still in flight at this node may free them: one is at
        its limit only with takes whose outcome is not known yet (sign-ins of one address
        being checked, most of them right: people behind one router)."""
        pending = [k for k in keys if self._pending.get(k, 0) > 0]
        return bool(pending) and not any(
            len(self._recent(k)) - self._pending.get(k, 0) >= self.limit for k in keys)

    def _undo(self, keys: tuple[str, ...], at: float) -> None:
        for key in keys:
            times = self._fails.get(key)
            if times is not None and at in times:
                times.remove(at)
            if self.shared is not None:
                self.shared.unhit(f"{self.kind}:{key}")

    def _forget_idle(self) -> None:
        if len(self._fails) > 100_000:
            for key in [k for k, v in self._fails.items() if not v]:
                del self._fails[key]


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
