"""Accounts: guests, registered players, authentication, roles, suspension, session versions."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from .database import Sessions
from .errors import AccountSuspended, AuthenticationFailed, InvalidRequest, NameTaken, NotFound
from .guests import prune_guests, start_key
from .ledger import Ledger
from .logins import close, count, lookup, open_session, revoke_all
from .models import User, Wallet
from .names import (
    InvalidName,
    NameLookalike,
    check_new_name,
    name_key,
    name_skeleton,
    normalize_name,
)
from .passwords import Passwords, check_new_password

ROLES = ("player", "admin")
GUEST_PREFIX = "游客"


@dataclass(frozen=True)
class Account:
    """A player as the hall sees one (never the password hash)."""

    id: int
    name: str
    is_guest: bool
    role: str
    suspended: bool
    session_version: int  # bumped when every session is revoked (kept for the record)
    balance: int
    created_at: datetime

    @property
    def is_admin(self) -> bool:
        return self.role == "admin"


def _account(user: User, wallet: Wallet) -> Account:
    return Account(user.id, user.name, user.is_guest, user.role, user.suspended,
                   user.session_version, wallet.balance or 0, user.created_at)


def _load(session: Session, user_id: int, *, lock: bool = False) -> tuple[User, Wallet]:
    query = select(User, Wallet).join(Wallet, Wallet.user_id == User.id).where(User.id == user_id)
    row = session.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise NotFound(f"no account with id {user_id}")
    return row[0], row[1]


def _check_free(session: Session, name: str, *, owner: int | None = None) -> None:
    """``NameTaken`` if another account has ``name`` (ignoring case), ``NameLookalike`` if
    another account's name looks like it (the same skeleton)."""
    found = session.scalar(select(User.id).where(User.name_key == name_key(name)))
    if found is not None and found != owner:
        raise NameTaken(f"the name {name!r} is taken")
    row = session.execute(select(User.id, User.name)
                          .where(User.name_skeleton == name_skeleton(name))).first()
    if row is not None and row[0] != owner:
        raise NameLookalike(f"the name {name!r} looks too much like the name {row[1]!r} "
                            f"of another player")


def _name_free(session: Session, name: str) -> bool:
    try:
        _check_free(session, name)
    except NameTaken:
        return False
    return True


def _set_name(session: Session, user: User, name: str) -> None:
    """Give ``user`` the (normalised) ``name``; ``NameTaken`` if another account has it."""
    _check_free(session, name, owner=user.id)
    user.name, user.name_key, user.name_skeleton = name, name_key(name), name_skeleton(name)


class Accounts:
    """Account operations, each in its own transaction (any thread may call)."""

    def __init__(self, sessions: Sessions, clock: Callable[[], datetime], passwords: Passwords,
                 ledger: Ledger, starting_balance: int) -> None:
        if starting_balance < 0:
            raise InvalidRequest("the starting balance cannot be negative")
        self._sessions = sessions
        self._clock = clock
        self._passwords = passwords
        self._ledger = ledger
        self._starting_balance = starting_balance

    # ------------------------------------------------------------------ creation

    def _create(self, session: Session, name: str, password_hash: str | None,
                role: str) -> Account:
        now = self._clock()
        user = User(name=name, name_key=name_key(name), name_skeleton=name_skeleton(name),
                    password_hash=password_hash,
                    is_guest=password_hash is None, role=role, suspended=False,
                    session_version=1, created_at=now)
        session.add(user)
        session.flush()
        wallet = Wallet(kind="user", user_id=user.id, balance=0)
        session.add(wallet)
        session.flush()
        if self._starting_balance:
            self._ledger.writer(session, now).grant(start_key(user.id), user.id,
                                                    self._starting_balance)
            session.refresh(wallet)  # the grant updated the row with Core
        return _account(user, wallet)

    def create_guest(self) -> Account:
        """A guest account named like 游客1234 (unique), with the starting balance."""

        def work(session: Session) -> Account:
            digits = 4
            while True:
                for _ in range(20):
                    name = f"{GUEST_PREFIX}{secrets.randbelow(10 ** digits):0{digits}d}"
                    if _name_free(session, name):
                        return self._create(session, name, None, "player")
                digits += 1  # this length is crowded: a longer number

        return self._sessions.transact(work)

    def register(self, name: str, password: str, *, role: str = "player") -> Account:
        """A registered account; ``InvalidName``, ``InvalidPassword`` or ``NameTaken``."""
        clean = check_new_name(name)
        if role not in ROLES:
            raise InvalidRequest(f"role: one of {', '.join(ROLES)}, got {role!r}")
        password_hash = self._passwords.hash(check_new_password(password))

        def work(session: Session) -> Account:
            _check_free(session, clean)
            return self._create(session, clean, password_hash, role)

        return self._sessions.transact(work)

    def upgrade_guest(self, user_id: int, password: str, *, name: str | None = None) -> Account:
        """Make a guest a registered player, keeping its hands, its name unless given, and its
        balance up to the starting grant (more goes back to the mint: guests, made freely,
        cannot be farmed into a registered account's 银子). Every session of the guest is
        revoked: the caller opens a new one."""
        clean = None if name is None else check_new_name(name)
        password_hash = self._passwords.hash(check_new_password(password))

        def work(session: Session) -> Account:
            user, wallet = _load(session, user_id, lock=True)
            if not user.is_guest:
                raise InvalidRequest("this account is already registered")
            if clean is not None:
                _set_name(session, user, clean)
            user.password_hash, user.is_guest = password_hash, False
            excess = (wallet.balance or 0) - self._starting_balance
            if excess > 0:
                self._ledger.writer(session, self._clock()).reclaim(
                    f"guest-cap:{user.id}", user.id, excess)
                session.refresh(wallet)
            _bump(session, user)
            return _account(user, wallet)

        return self._sessions.transact(work)

    def rename(self, user_id: int, name: str) -> Account:
        """A new display name (validated like any name; ``NameTaken`` if another has it)."""
        clean = check_new_name(name)

        def work(session: Session) -> Account:
            user, wallet = _load(session, user_id, lock=True)
            _set_name(session, user, clean)
            return _account(user, wallet)

        return self._sessions.transact(work)

    # ------------------------------------------------------------------ login

    def authenticate(self, name: str, password: str) -> Account:
        """The account for this name and password; ``AuthenticationFailed`` for a wrong name or
        password alike (an unknown name costs one hash too), ``AccountSuspended`` after."""
        try:
            key = name_key(normalize_name(name))
        except InvalidName:
            key = None
        with self._sessions.read() as session:
            row = None if key is None else session.execute(
                select(User, Wallet).join(Wallet, Wallet.user_id == User.id)
                .where(User.name_key == key)).first()
        stored = None if row is None else row[0].password_hash
        if not isinstance(password, str) or not self._passwords.verify(stored, password):
            raise AuthenticationFailed("wrong name or password")
        user, wallet = row
        if user.suspended:
            raise AccountSuspended("this account is suspended")
        if self._passwords.needs_rehash(stored):
            self._rehash(user.id, stored, self._passwords.hash(password))
        return _account(user, wallet)

    def _rehash(self, user_id: int, old: str, new: str) -> None:
        with self._sessions.write() as session:
            user, _ = _load(session, user_id, lock=True)
            if user.password_hash == old:  # not changed meanwhile
                user.password_hash = new

    def change_password(self, user_id: int, current: str, new: str) -> Account:
        """Set a new password (the current one must match); revokes every session of the
        account (the caller opens a new one for the browser that asked)."""
        password_hash = self._passwords.hash(check_new_password(new))
        with self._sessions.read() as session:
            user, _ = _load(session, user_id)
        if user.is_guest or not self._passwords.verify(user.password_hash, current):
            raise AuthenticationFailed("wrong password")

        def work(session: Session) -> Account:
            user, wallet = _load(session, user_id, lock=True)
            user.password_hash = password_hash
            _bump(session, user)
            return _account(user, wallet)

        return self._sessions.transact(work)

    def reset_password(self, user_id: int, new: str) -> Account:
        """The operator sets a password for a player who lost theirs (no current one asked);
        revokes every session of the account. A guest has none to reset."""
        password_hash = self._passwords.hash(check_new_password(new))

        def work(session: Session) -> Account:
            user, wallet = _load(session, user_id, lock=True)
            if user.is_guest:
                raise InvalidRequest("a guest has no password: it registers from its own page")
            user.password_hash = password_hash
            _bump(session, user)
            return _account(user, wallet)

        return self._sessions.transact(work)

    def prune_guests(self, after: int = 0) -> tuple[list[int], int]:
        """Remove a batch of guests nobody can sign in as and nothing refers to, among a window
        of ids after the cursor ``after`` (``store.guests``): (their ids, the next cursor)."""
        return self._sessions.transact(lambda s: prune_guests(s, self._clock(), after))

    # ------------------------------------------------------------------ sessions

    def open_session(self, user_id: int) -> str:
        """A new session of ``user_id``: the token its cookie carries."""
        return self._sessions.transact(lambda s: open_session(s, user_id, self._clock()))

    def by_session(self, token: object) -> Account | None:
        """The account of a live session's token, else None."""
        with self._sessions.read() as session:
            row = lookup(session, token, self._clock())
            return None if row is None else _account(*row)

    def adopt_legacy(self, user_id: int, version: int) -> tuple[Account, str] | None:
        """A session for a cookie of the old kind (an account id and its session version),
        if the version is still the account's; the version is bumped, so that cookie works
        once: (the account, the new session's token), else None."""

        def work(session: Session) -> tuple[Account, str] | None:
            row = session.execute(select(User, Wallet).join(Wallet, Wallet.user_id == User.id)
                                  .where(User.id == user_id).with_for_update()).first()
            if row is None or row[0].session_version != version or row[0].suspended:
                return None
            row[0].session_version += 1
            return _account(*row), open_session(session, user_id, self._clock())

        return self._sessions.transact(work)

    def close_session(self, token: str) -> None:
        """Sign one session out."""
        with self._sessions.write() as session:
            close(session, token)

    def session_count(self, user_id: int) -> int:
        with self._sessions.read() as session:
            return count(session, user_id, self._clock())

    # ------------------------------------------------------------------ reading

    def get(self, user_id: int) -> Account:
        """The account; ``NotFound`` if there is none."""
        with self._sessions.read() as session:
            return _account(*_load(session, user_id))

    def by_name(self, name: str) -> Account | None:
        try:
            key = name_key(normalize_name(name))
        except InvalidName:
            return None
        with self._sessions.read() as session:
            row = session.execute(select(User, Wallet).join(Wallet, Wallet.user_id == User.id)
                                  .where(User.name_key == key)).first()
            return None if row is None else _account(row[0], row[1])

    def require_active(self, user_id: int) -> Account:
        """The account if it may play (sit, act); ``AccountSuspended`` otherwise."""
        account = self.get(user_id)
        if account.suspended:
            raise AccountSuspended("this account is suspended")
        return account

    def list_players(self, *, limit: int = 100, after: int | None = None,
                     name_contains: str | None = None) -> list[Account]:
        """Accounts in id order with their balances (the admin page); ``after``: a cursor;
        ``name_contains``: only names holding this text (any case)."""
        with self._sessions.read() as session:
            query = select(User, Wallet).join(Wallet, Wallet.user_id == User.id)
            if after is not None:
                query = query.where(User.id > after)
            if name_contains:
                pattern = re.sub(r"([\\%_])", r"\\\1", name_contains)  # taken literally
                query = query.where(User.name.ilike(f"%{pattern}%", escape="\\"))
            rows = session.execute(query.order_by(User.id).limit(max(limit, 0))).all()
            return [_account(u, w) for u, w in rows]

    # ------------------------------------------------------------------ administration

    def _update(self, user_id: int, change: Callable[[Session, User], None]) -> Account:
        def work(session: Session) -> Account:
            user, wallet = _load(session, user_id, lock=True)
            change(session, user)
            return _account(user, wallet)

        return self._sessions.transact(work)

    def logout_everywhere(self, user_id: int) -> Account:
        """Revoke every session of the account (and bump its session version)."""
        return self._update(user_id, _bump)

    def set_suspended(self, user_id: int, suspended: bool = True) -> Account:
        """Suspend (or reinstate) an account; suspending also logs it out everywhere."""

        def change(session: Session, user: User) -> None:
            if suspended and not user.suspended:
                _bump(session, user)
            user.suspended = suspended

        return self._update(user_id, change)

    def set_role(self, user_id: int, role: str) -> Account:
        if role not in ROLES:
            raise InvalidRequest(f"role: one of {', '.join(ROLES)}, got {role!r}")

        def change(session: Session, user: User) -> None:
            user.role = role

        return self._update(user_id, change)


def _bump(session: Session, user: User) -> None:
    """Revoke every session of ``user``."""
    revoke_all(session, user.id)
    user.session_version += 1
