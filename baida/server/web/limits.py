"""The account limits of the hall: guests made per address, and sign-ins.

Sign-ins are limited so that guessing is slow and nobody can lock the owner out:

* wrong passwords for one account name from *unknown* browsers close that name to unknown
  browsers for a while (``NAME_FAILURES``);
* a browser that has signed in to the account before carries a signed device cookie
  (``auth.SessionCodec.dump_device``): it keeps its way in while the name is closed, and
  its own wrong passwords count against that cookie (``DEVICE_FAILURES``), after which it
  is an unknown browser again;
* one address may fail ``ADDRESS_FAILURES`` times, whatever the names, and try
  ``attempts`` sign-ins, registrations and password changes (right or wrong, counted
  before the password is hashed; ``baida serve --signins-per-address``), in a window: a
  flood of valid logins costs one address a wait, not the hall its time.

A sign-in counts as a wrong password from the moment it is let through and gives that back
when its password turns out right (``LoginGate.attempt``), and a new account counts from
before it is made (``GuestLimiter.take``): requests sent at once cannot all pass a limit
before the first is counted.

Every limit is counted per address, an IPv6 address by its /64 network (what one
subscriber gets). With ``--nodes N`` (or nodes on several machines) the counts are kept for
the whole hall in the shared directory (``share``); while it is out, each node counts its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..store.names import InvalidName, name_key, normalize_name
from .auth import FailureLimiter, SharedCounts

LOGIN_WINDOW = 600.0  # seconds
NAME_FAILURES = 10  # wrong passwords per account name from unknown browsers, per window
DEVICE_FAILURES = 10  # wrong passwords per device cookie, per window
ADDRESS_FAILURES = 20  # wrong passwords per address (any names), per window
ADDRESS_ATTEMPTS = 40  # sign-ins, registrations, password changes per address, per window
GUEST_WINDOW = 3600.0  # seconds: guests are counted per hour
IN_FLIGHT_WAIT = 10.0  # seconds a sign-in waits for this node's attempts being checked
IN_FLIGHT_POLL = 0.1


def address_key(host: str) -> str:
    """What limits count an address as: itself, or its /64 network for IPv6."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def login_key(name: str) -> str:
    """The account a login name reaches, as ``authenticate`` looks it up (so ``ａlice`` and
    ``ALICE`` count against ``alice``'s limit); an invalid name is its own key."""
    try:
        return name_key(normalize_name(name))
    except InvalidName:
        return name[:64]


class Taken:
    """What a request let through counted before its outcome was known (a wrong password, a
    new account): ``keep`` when it turned out so (it stays counted), ``give_back`` when not
    (it is taken back, but for what counts whatever the outcome: a sign-in attempt)."""

    def __init__(self) -> None:
        self._taken: list[tuple[FailureLimiter, tuple[str, ...], float, bool]] = []

    def add(self, limiter: FailureLimiter, keys: tuple[str, ...], at: float,
            always: bool = False) -> None:
        self._taken.append((limiter, keys, at, always))

    def keep(self) -> None:
        self._settle(True)

    def give_back(self) -> None:
        self._settle(False)

    def _settle(self, counts: bool) -> None:
        taken, self._taken = self._taken, []
        for limiter, keys, at, always in taken:
            limiter.settle(keys, at, counts or always)

    @contextlib.contextmanager
    def settled_by(self, counted: tuple[type[BaseException], ...]) -> Iterator[None]:
        """Settle by how the block ends: one of ``counted`` (a wrong password) keeps the
        count; anything else (the password right, never checked, the request cancelled)
        gives it back."""
        try:
            yield
        except counted:
            self.keep()
            raise
        except BaseException:
            self.give_back()
            raise
        self.give_back()


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused for now: the message, a code for clients, the wait."""

    message: str
    code: str
    retry_after: int


class GuestLimiter:
    """New accounts made per address and hour, guests and registrations alike (each comes
    with the starting balance); ``per_hour`` 0: no limit."""

    def __init__(self, now: Callable[[], float], per_hour: int) -> None:
        self.per_hour = per_hour
        self._made = FailureLimiter(now, max(per_hour, 1), GUEST_WINDOW, "guests")

    def share(self, shared: SharedCounts) -> None:
        """Count with every node of the hall."""
        self._made.shared = shared

    def refusal(self, host: str, registering: bool = False) -> Refusal | None:
        keys = (address_key(host),)
        if self.per_hour <= 0 or not self._made.blocked_keys(keys):
            return None
        return self._refused(keys, registering)

    def _refused(self, keys: tuple[str, ...], registering: bool) -> Refusal:
        if registering:
            return Refusal(f"this address has made {self.per_hour} new accounts in the last "
                           f"hour, the most it may; sign in, or try again later",
                           "accounts_limited", self._made.retry_after(keys))
        return Refusal(f"this address has made {self.per_hour} guests in the last hour, the "
                       f"most it may; sign in, or try again later", "guests_limited",
                       self._made.retry_after(keys))

    def take(self, host: str, registering: bool = False) -> Refusal | Taken:
        """A new account from ``host`` counted before it is made (``Taken.keep`` once it is,
        ``give_back`` if it is not), or why none may be: made at once, they all passed the
        limit before the first was counted."""
        taken = Taken()
        if self.per_hour > 0:
            keys = (address_key(host),)
            at = self._made.take(keys)
            if at is None:
                return self._refused(keys, registering)
            taken.add(self._made, keys, at)
        return taken


class LoginGate:
    """The sign-in limits above. ``device`` is the login key a valid device cookie was
    issued for and its id, or None."""

    def __init__(self, now: Callable[[], float], attempts: int = ADDRESS_ATTEMPTS) -> None:
        self.attempts = attempts  # 0: no limit
        self.names = FailureLimiter(now, NAME_FAILURES, LOGIN_WINDOW, "login-name")
        self.devices = FailureLimiter(now, DEVICE_FAILURES, LOGIN_WINDOW, "login-device")
        self.addresses = FailureLimiter(now, ADDRESS_FAILURES, LOGIN_WINDOW, "login-address")
        self.signins = FailureLimiter(now, max(attempts, 1), LOGIN_WINDOW, "signins")

    def share(self, shared: SharedCounts) -> None:
        """Count with every node of the hall."""
        for limiter in (self.names, self.devices, self.addresses, self.signins):
            limiter.shared = shared

    def known_device(self, name: str, device: tuple[str, str] | None) -> bool:
        """Whether ``device`` was issued for the account of ``name`` and is still trusted."""
        return (device is not None and device[1] == login_key(name)
                and not self.devices.blocked_keys((device[0],)))

    def attempt(self, host: str, name: str | None, device: tuple[str, str] | None = None,
                final: bool = True) -> Refusal | Taken | None:
        """A sign-in (``name``), password change or registration (``name`` None) let through,
        or why it must wait. Let through, it counts as an attempt of the address (whatever
        its outcome) and, for ``name``, as a wrong password of the address and of the name
        (or of the device cookie) until ``Taken.give_back`` says the password was right:
        counted before the password is checked, so that guesses sent at once, to one node or
        several, cannot all pass a limit before the first is counted. None, unless
        ``final``: a limit is reached only with attempts of this node still being checked
        (``attempt_in_turn`` asks again when they are)."""
        address = (address_key(host),)
        if name is None and self.addresses.blocked_keys(address):
            return self._address_refusal(address)
        steps: list[tuple[FailureLimiter, tuple[str, ...], Callable[..., Refusal], bool]] = []
        if self.attempts > 0:
            steps.append((self.signins, address, self._signins_refusal, True))
        if name is not None:
            steps.append((self.addresses, address, self._address_refusal, False))
            own = device is not None and self.known_device(name, device)
            steps.append((self.devices, (device[0],), self._name_refusal, False) if own and
                         device is not None else
                         (self.names, (login_key(name),), self._name_refusal, False))
        taken = Taken()
        for limiter, keys, refuse, always in steps:
            at = limiter.take(keys)
            if at is None and limiter is self.devices:  # its own limit: an unknown browser
                assert name is not None
                limiter, keys = self.names, (login_key(name),)
                at = limiter.take(keys)
            if at is None:
                taken.give_back()
                if not final and limiter.in_flight(keys):
                    return None
                return refuse(keys)
            taken.add(limiter, keys, at, always)
        return taken

    async def attempt_in_turn(self, host: str, name: str | None,
                              device: tuple[str, str] | None = None) -> Refusal | Taken:
        """``attempt``, waiting (up to ``IN_FLIGHT_WAIT`` seconds) while the limit it meets
        is reached only by attempts of this node still being checked: 25 people behind one
        router signing in at once were 20 let through and 5 refused for wrong passwords none
        of them had typed."""
        deadline = time.monotonic() + IN_FLIGHT_WAIT
        while True:
            result = self.attempt(host, name, device, final=time.monotonic() >= deadline)
            if result is not None:
                return result
            await asyncio.sleep(IN_FLIGHT_POLL)

    def _signins_refusal(self, address: tuple[str, ...]) -> Refusal:
        return Refusal("too many sign-ins from this address; try again in a few minutes",
                       "signins_limited", self.signins.retry_after(address))

    def _address_refusal(self, address: tuple[str, ...]) -> Refusal:
        return Refusal("too many wrong passwords from this address; try again in a few "
                       "minutes", "address_limited", self.addresses.retry_after(address))

    def _name_refusal(self, key: tuple[str, ...]) -> Refusal:
        return Refusal("too many wrong passwords for this name; sign in from a browser you "
                       "have used for it before, or try again in a few minutes",
                       "name_limited", self.names.retry_after(key))
