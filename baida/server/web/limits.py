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

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass

from ..store.names import InvalidName, name_key, normalize_name
from .auth import FailureLimiter, SharedCounts

LOGIN_WINDOW = 600.0  # seconds
NAME_FAILURES = 10  # wrong passwords per account name from unknown browsers, per window
DEVICE_FAILURES = 10  # wrong passwords per device cookie, per window
ADDRESS_FAILURES = 20  # wrong passwords per address (any names), per window
ADDRESS_ATTEMPTS = 40  # sign-ins, registrations, password changes per address, per window
GUEST_WINDOW = 3600.0  # seconds: guests are counted per hour


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
    """What a request let through counted before its outcome was known (a new account, a
    wrong password); ``give_back`` takes it back when the outcome is a good one."""

    def __init__(self) -> None:
        self._taken: list[tuple[FailureLimiter, tuple[str, ...], float]] = []

    def add(self, limiter: FailureLimiter, keys: tuple[str, ...], at: float) -> None:
        self._taken.append((limiter, keys, at))

    def give_back(self) -> None:
        taken, self._taken = self._taken, []
        for limiter, keys, at in taken:
            limiter.give_back(keys, at)


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
        if registering:
            return Refusal(f"this address has made {self.per_hour} new accounts in the last "
                           f"hour, the most it may; sign in, or try again later",
                           "accounts_limited", self._made.retry_after(keys))
        return Refusal(f"this address has made {self.per_hour} guests in the last hour, the "
                       f"most it may; sign in, or try again later", "guests_limited",
                       self._made.retry_after(keys))

    def made(self, host: str) -> None:
        if self.per_hour > 0:
            self._made.failed_keys((address_key(host),))

    def take(self, host: str, registering: bool = False) -> Refusal | Taken:
        """A new account from ``host`` counted before it is made (``Taken.give_back`` if it
        is not), or why none may be: made at once, they all passed the limit before the
        first was counted."""
        refusal = self.refusal(host, registering)
        if refusal is not None:
            return refusal
        taken = Taken()
        if self.per_hour > 0:
            keys = (address_key(host),)
            at = self._made.take(keys)
            if at is None:
                refusal = self.refusal(host, registering)
                assert refusal is not None  # (the hall's count was the one at its limit)
                return refusal
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

    def admit(self, host: str, name: str | None,
              device: tuple[str, str] | None = None) -> Refusal | None:
        """Why a sign-in (``name``) or a registration (``name`` None) from ``host`` must wait,
        or None: then the attempt is counted against the address."""
        refusal = self._refusal(host, name, device)
        if refusal is None and self.attempts > 0:
            address = (address_key(host),)
            if self.signins.take(address) is None:  # the hall's count reached it meanwhile
                return Refusal("too many sign-ins from this address; try again in a few "
                               "minutes", "signins_limited", self.signins.retry_after(address))
        return refusal

    def attempt(self, host: str, name: str | None,
                device: tuple[str, str] | None = None) -> Refusal | Taken:
        """A sign-in (``name``), password change or registration (``name`` None) let through,
        or why it must wait. Let through, it counts as an attempt of the address and, for
        ``name``, as a wrong password of the address and of the name (or of the device
        cookie) until ``Taken.give_back`` says the password was right: counted before the
        password is checked, so that guesses sent at once, to one node or several, cannot
        all pass a limit before the first is counted."""
        refusal = self.admit(host, name, device)
        if refusal is not None or name is None:
            return refusal or Taken()
        taken = Taken()
        address = (address_key(host),)
        at = self.addresses.take(address)
        if at is None:  # another node's count reached the limit meanwhile
            return self._address_refusal(address)
        taken.add(self.addresses, address, at)
        if device is not None and self.known_device(name, device):
            at = self.devices.take((device[0],))
            if at is not None:
                taken.add(self.devices, (device[0],), at)
                return taken  # (else this browser is an unknown one from now on)
        key = (login_key(name),)
        at = self.names.take(key)
        if at is None:
            taken.give_back()
            return self._name_refusal(key)
        taken.add(self.names, key, at)
        return taken

    def _address_refusal(self, address: tuple[str]) -> Refusal:
        return Refusal("too many wrong passwords from this address; try again in a few "
                       "minutes", "address_limited", self.addresses.retry_after(address))

    def _name_refusal(self, key: tuple[str]) -> Refusal:
        return Refusal("too many wrong passwords for this name; sign in from a browser you "
                       "have used for it before, or try again in a few minutes",
                       "name_limited", self.names.retry_after(key))

    def _refusal(self, host: str, name: str | None,
                 device: tuple[str, str] | None) -> Refusal | None:
        address = (address_key(host),)
        if self.addresses.blocked_keys(address):
            return self._address_refusal(address)
        if self.attempts > 0 and self.signins.blocked_keys(address):
            return Refusal("too many sign-ins from this address; try again in a few minutes",
                           "signins_limited", self.signins.retry_after(address))
        if name is None or self.known_device(name, device):
            return None
        key = (login_key(name),)
        if self.names.blocked_keys(key):
            return self._name_refusal(key)
        return None
