"""The lobby's account routes: guests, registration, sign-in and out, the player's name,
password and mutes. Sessions are rows in the database (``store.logins``): each sign-in opens
one and sets its cookie, and every change of who may use the account (registering a guest, a
new password, signing out) revokes the sessions it must. The limits are ``limits``'s.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ops.logs import fields
from ..store.errors import AccountSuspended, AuthenticationFailed, NotFound
from ..store.names import MAX_LENGTH
from .api import (
    ApiError,
    _path_int,
    body,
    client_address,
    endpoint,
    error,
    field,
    runtime_of,
    set_session_cookie,
)
from .auth import COOKIE, DEVICE_COOKIE, DEVICE_DAYS
from .limits import Refusal, Taken, login_key
from .runtime import Runtime

log = logging.getLogger(__name__)


def me_json(rt: Runtime, account: Any, token: str) -> dict[str, Any]:
    """The account as the client sees it, with the CSRF token of session ``token``."""
    assert rt.codec is not None
    return {
        "id": account.id,
        "name": account.name,
        "guest": account.is_guest,
        "role": account.role,
        "balance": account.balance,
        "csrf": rt.codec.csrf(token),
    }


async def open_session(rt: Runtime, account: Any, status: int = 200, *,
                       device: bool = False) -> JSONResponse:
    """A new session for ``account``: its ``me`` and the session cookie; ``device`` also
    (re)issues the device cookie that lets this browser past the name's login limit."""
    assert rt.codec is not None and rt.db is not None
    token = await rt.db.write(lambda s: s.accounts.open_session(account.id))
    response = JSONResponse({"me": me_json(rt, account, token)}, status_code=status)
    set_session_cookie(rt, response, token)
    if device:
        response.set_cookie(DEVICE_COOKIE, rt.codec.dump_device(login_key(account.name)),
                            max_age=DEVICE_DAYS * 86400, httponly=True, samesite="strict",
                            secure=rt.settings.secure_cookies, path="/api/")
    return response


def limited(refusal: Refusal) -> JSONResponse:
    """A 429 naming the limit, with ``Retry-After``."""
    return error(429, refusal.message, refusal.code,
                 headers={"Retry-After": str(refusal.retry_after)})


async def _close_current(request: Request) -> None:
    """Close the session this request came with (signing in as someone else)."""
    token = request.state.session
    if token is not None:
        await runtime_of(request).db.write(lambda s: s.accounts.close_session(token))


def _device(request: Request) -> tuple[str, str] | None:
    rt = runtime_of(request)
    assert rt.codec is not None
    return rt.codec.load_device(request.cookies.get(DEVICE_COOKIE))


@endpoint(csrf=False)
async def guest(request: Request) -> Response:
    """A guest account with the starting balance; at most ``guests_per_hour`` per address."""
    rt = runtime_of(request)
    if request.state.account is not None:
        return JSONResponse({"me": me_json(rt, request.state.account, request.state.session)})
    address = client_address(request)
    taken = rt.guests.take(address)
    if isinstance(taken, Refusal):
        log.warning("guest refused: too many from one address", extra=fields(
            "guests_limited", address=address))
        return limited(taken)
    try:
        account = await rt.db.write(lambda s: s.accounts.create_guest())
    except BaseException:
        taken.give_back()  # none was made
        raise
    taken.keep()
    response = await open_session(rt, account, 201)
    response.background = BackgroundTask(prune_guests, rt)  # once the guest has its answer
    return response


async def prune_guests(rt: Runtime) -> None:
    """Remove a batch of guests nobody can be again (``store.guests``): each new guest pays
    for the old ones, so the accounts grow no faster than the people who keep theirs."""
    assert rt.db is not None
    after = rt.guest_sweep
    try:
        gone, rt.guest_sweep = await rt.db.write(lambda s: s.accounts.prune_guests(after))
    except Exception as exc:  # another node's at the same moment, the store busy: next time
        log.warning("pruning guests failed: %s", exc, extra=fields("guests_pruned_failed"))
        return
    if gone:
        log.info("%d guests pruned", len(gone), extra=fields(
            "guests_pruned", count=len(gone), first=gone[0], last=gone[-1]))


def _check_words(rt: Runtime, name: str) -> None:
    """A name may not hold a word of the operator's chat list (``--chat-filter``): everyone
    at a table reads it. A name far too long for any name is left to the name's own check
    (masking 60,000 characters took a quarter of a second of the event loop)."""
    if len(name) > 8 * MAX_LENGTH:
        return
    if rt.chat_filter is not None and rt.chat_filter.mask(name) != name:
        raise ApiError(400, "this name holds a word the hall does not allow", "name_not_allowed")


@endpoint(csrf=False)
async def register(request: Request) -> Response:
    """Register; a guest keeps its hands and its balance up to the starting grant, and its
    old sessions (the guest cookie) are revoked: the answer carries a new cookie."""
    rt = runtime_of(request)
    data = await body(request)
    name = field(data, "name")
    password = field(data, "password")
    current = request.state.account
    if current is not None and current.is_guest:
        assert rt.codec is not None
        if not rt.codec.csrf_ok(request.state.session, request.headers.get("x-csrf-token")):
            return error(403, "missing or wrong X-CSRF-Token")
    address = client_address(request)
    upgrade = current is not None and current.is_guest  # the guest's account: nothing new
    # each counted before it is made (a new account, with the starting balance): sent at
    # once, registrations all passed the limits before the first was counted
    attempt = await rt.logins.attempt_in_turn(address, None)
    if isinstance(attempt, Refusal):
        return limited(attempt)
    made = Taken() if upgrade else rt.guests.take(address, registering=True)
    if isinstance(made, Refusal):
        attempt.keep()
        log.warning("registration refused: too many new accounts from one address",
                    extra=fields("accounts_limited", address=address))
        return limited(made)
    try:
        _check_words(rt, name)
        if upgrade:
            account = await rt.hashing(
                lambda s: s.accounts.upgrade_guest(current.id, password, name=name))
        else:
            account = await rt.hashing(lambda s: s.accounts.register(name, password))
    except BaseException:
        made.give_back()  # no new account
        attempt.keep()
        raise
    made.keep()
    attempt.keep()
    if not upgrade:
        await _close_current(request)
    return await open_session(rt, account, 201, device=True)


@endpoint(csrf=False)
async def login(request: Request) -> Response:
    rt = runtime_of(request)
    data = await body(request)
    name = field(data, "name")
    password = field(data, "password")
    address = client_address(request)
    device = _device(request)
    # counted as a wrong password before it is checked (given back if it is right): guesses
    # sent at once, to one node or several, all passed the limit before the first was counted
    taken = await rt.logins.attempt_in_turn(address, name, device)
    if isinstance(taken, Refusal):
        rt.metrics.logins.labels(outcome="limited").inc()
        log.warning("sign-in refused: %s", taken.code, extra=fields(
            "login_limited", login=name[:40], address=address, limit=taken.code))
        return limited(taken)
    try:
        with taken.settled_by((AuthenticationFailed, AccountSuspended)):
            account = await rt.hashing(lambda s: s.accounts.authenticate(name, password))
    except (AuthenticationFailed, AccountSuspended) as exc:
        rt.metrics.logins.labels(outcome="failed").inc()
        log.info("sign-in failed", extra=fields(
            "login_failed", login=name[:40], address=address,
            known_device=device is not None,
            reason="suspended" if isinstance(exc, AccountSuspended) else "credentials"))
        raise
    rt.metrics.logins.labels(outcome="ok").inc()
    await _close_current(request)
    return await open_session(rt, account, device=True)


@endpoint()
async def logout(request: Request) -> Response:
    """Close this session (``{"everywhere": true}``: every session of the account)."""
    rt = runtime_of(request)
    everywhere = (await body(request)).get("everywhere") is True
    account = request.state.account
    if account is not None and everywhere:
        await rt.db.write(lambda s: s.accounts.logout_everywhere(account.id))
    else:
        await _close_current(request)
    response = JSONResponse({"ok": True})
    response.delete_cookie(COOKIE, path="/")
    return response


@endpoint(auth=True)
async def password(request: Request) -> Response:
    """``POST /api/password`` ``{"password", "new_password"}``: every session of the account
    is revoked, and the answer opens a new one for this browser."""
    rt = runtime_of(request)
    data = await body(request)
    current = field(data, "password")
    new = field(data, "new_password")
    account = request.state.account
    if account.is_guest:
        raise ApiError(400, "a guest has no password: register first", "guest_no_password")
    address = client_address(request)
    device = _device(request)
    taken = await rt.logins.attempt_in_turn(address, account.name, device)  # as a sign-in's
    if isinstance(taken, Refusal):
        return limited(taken)
    try:
        with taken.settled_by((AuthenticationFailed,)):
            changed = await rt.hashing(
                lambda s: s.accounts.change_password(account.id, current, new))
    except AuthenticationFailed:
        raise ApiError(403, "the current password is wrong", "wrong_password") from None
    log.info("password changed", extra=fields("password_changed", user=account.id))
    return await open_session(rt, changed, device=True)


@endpoint(auth=True)
async def me(request: Request) -> Response:
    rt = runtime_of(request)
    token = request.state.session
    if request.method == "PATCH":
        data = await body(request)
        name = field(data, "name")
        _check_words(rt, name)
        uid = request.state.account.id
        account = await rt.db.write(lambda s: s.accounts.rename(uid, name))
        return JSONResponse({"me": me_json(rt, account, token)})
    return JSONResponse({"me": me_json(rt, request.state.account, token)})


@endpoint()
async def session(request: Request) -> Response:
    """The signed-in account or null, never a 401: what a page asks first."""
    rt = runtime_of(request)
    account = request.state.account
    return JSONResponse({"me": None if account is None
                         else me_json(rt, account, request.state.session)})


def no_account() -> ApiError:
    return ApiError(404, "no such account", "no_account")


@endpoint(auth=True)
async def mutes(request: Request) -> Response:
    """``GET /api/me/mutes``: the accounts whose chat the player does not read (屏蔽)."""
    rt = runtime_of(request)
    uid = request.state.account.id
    return JSONResponse({"muted": await rt.db.read(lambda s: s.mutes.of(uid))})


@endpoint(auth=True)
async def mute(request: Request) -> Response:
    """``PUT /api/me/mutes/{user_id}`` mutes an account on every device of the player;
    ``DELETE`` no longer. Answers the mutes after it."""
    rt = runtime_of(request)
    uid = request.state.account.id
    target = _path_int(request, "user_id", no_account)
    on = request.method == "PUT"
    try:
        muted = await rt.db.write(lambda s: s.mutes.set(uid, target, on))
    except NotFound:
        raise no_account() from None
    return JSONResponse({"muted": muted})


ROUTES = [
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/register", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/password", password, methods=["POST"]),
    Route("/api/me", me, methods=["GET", "PATCH"]),
    Route("/api/session", session, methods=["GET"]),
    Route("/api/me/mutes", mutes, methods=["GET"]),
    Route("/api/me/mutes/{user_id}", mute, methods=["PUT", "DELETE"]),
]
