"""The lobby's JSON over HTTP: accounts and sessions, tables, rooms, balances, hands, records.

Every answer is JSON; an error is ``{"error": "..."}`` with a 4xx status and a message for a
person. State-changing requests of a signed-in session carry the ``X-CSRF-Token`` header
(``GET /api/me`` gives it) and, from a browser, an ``Origin`` of this hall.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ...engine.errors import EngineError
from ...rulebook import BookError, query_options, rules_page
from ...rules.options import OptionError
from ..directory.in_process import DirectoryUnavailable
from ..ops.logs import fields
from ..store.errors import (
    AccountSuspended,
    AuthenticationFailed,
    InvalidRequest,
    NameTaken,
    NotFound,
    StoreError,
)
from ..store.logins import SESSION_DAYS
from ..tables.chat import PHRASES
from ..tables.config import ConfigError
from ..tables.connection import User
from ..tables.hall import HallError
from .auth import COOKIE
from .guard import MAX_BODY, MAX_RECORD
from .limits import address_key
from .metrics_access import proxied
from .review import decision_review, hand_review
from .runtime import WORKER_REQUESTS, HashingBusy, Runtime
from .verify import verify_record
from .waits import WaitsError, hand_waits

log = logging.getLogger(__name__)
# no request of the hall nests deeper than a game record (about 6 levels); deeper bodies are
# refused before anything walks them (a hand-over to the bot workers pickles by recursion)
MAX_NESTING = 32
MAX_CONTAINERS = 20_000  # arrays and objects in a body (a whole hand's record: at most ~130)

WAITS_CACHE_SIZE = 2048
_WAITS_CACHE: dict[bytes, Any] = {}  # request body -> answer (oldest first)
BUSY = "the hall's bot workers are busy: ask again in a moment"
REVIEW_CACHE_SIZE = 256
_REVIEW_CACHE: dict[tuple[bytes, int | None], Any] = {}  # (record digest, seat) -> review
Handler = Callable[[Request], Awaitable[Response]]


class ApiError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.retry_after = retry_after


def error(status: int, message: str, code: str | None = None,
          headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": message}``, and ``"code"`` when a client may translate or act on it."""
    content = {"error": message} if code is None else {"error": message, "code": code}
    return JSONResponse(content, status_code=status, headers=headers)


def no_hand() -> ApiError:
    return ApiError(404, "no finished hand of yours with that number", "no_hand")


def no_table() -> ApiError:
    return ApiError(404, "no such table", "no_table")


def runtime_of(request: Request) -> Runtime:
    return request.app.state.runtime


def endpoint(*, auth: bool = False, csrf: bool = True) -> Callable[[Handler], Handler]:
    """Wrap a route: errors become JSON; ``auth`` needs a session (``request.state.user``);
    unsafe methods check the browser's origin and, with a session, the CSRF token."""

    def wrap(fn: Handler) -> Handler:
        @functools.wraps(fn)
        async def run(request: Request) -> Response:
            rt = runtime_of(request)
            unsafe = request.method not in ("GET", "HEAD", "OPTIONS")
            if unsafe and not rt.origin_ok(request.headers.get("origin"),
                                           request.headers.get("host")):
                return error(403, "this request did not come from the hall's own page")
            cookie = request.cookies.get(COOKIE)
            found = await rt.user_of(cookie)
            adopted = None if found is not None or not cookie else await rt.adopt_legacy(cookie)
            found = found or adopted
            request.state.user = found[0] if found else None
            request.state.account = found[1] if found else None
            request.state.session = found[2] if found else None
            if auth and found is None:
                return error(401, "sign in first (or play as a guest)", "signin_first")
            if unsafe and csrf and found is not None:
                assert rt.codec is not None
                token = request.headers.get("x-csrf-token")
                if not rt.codec.csrf_ok(found[2], token):
                    return error(403, "missing or wrong X-CSRF-Token")
            try:
                response = await fn(request)
                if adopted is not None and b"set-cookie" not in dict(response.raw_headers):
                    set_session_cookie(rt, response, adopted[2])
                return response
            except ApiError as exc:
                wait = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
                return error(exc.status, exc.message, exc.code, wait)
            except NameTaken as exc:
                return error(400, str(exc), getattr(exc, "code", "name_taken"))
            except (InvalidRequest, ConfigError, OptionError, HallError) as exc:
                return error(400, str(exc), getattr(exc, "code", None))
            except AuthenticationFailed:
                return error(401, "wrong name or password", "wrong_login")
            except AccountSuspended:
                return error(403, "this account is suspended", "suspended")
            except NotFound:
                return error(404, "not found")
            except StoreError as exc:
                return error(409, str(exc))
            except HashingBusy as exc:
                return error(503, str(exc), "busy")
            except DirectoryUnavailable as exc:  # Redis out, and the answer is not known here
                response = error(503, str(exc), "busy")
                response.headers["Retry-After"] = "2"
                return response
            except Exception:  # a bug: said once here (the app-wide handler would log it
                # twice and drop the connection), and nothing of it reaches the client
                log.exception("request %s %s failed", request.method, request.url.path)
                return error(500, "internal error", "internal")

        return run

    return wrap


def set_session_cookie(rt: Runtime, response: Response, token: str) -> None:
    """The session cookie of session ``token`` on ``response``."""
    assert rt.codec is not None
    response.set_cookie(COOKIE, rt.codec.dump(token), max_age=SESSION_DAYS * 86400,
                        httponly=True, samesite="lax", secure=rt.settings.secure_cookies,
                        path="/")


async def body(request: Request, limit: int = MAX_BODY) -> Any:
    raw = await request.body()
    if len(raw) > limit:
        raise ApiError(413, f"the request is larger than {limit} bytes")
    data = decode(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body is a JSON object")
    return data


def decode(raw: bytes) -> Any:
    """A request body's JSON (empty: ``{}``); a 400 when it is not JSON, holds more than
    ``MAX_CONTAINERS`` arrays and objects or nests deeper than ``MAX_NESTING``. Both are
    counted on the bytes before anything is built (2 MiB of empty arrays took 0.4 s of the
    event loop to decode, and 1.2 s more to walk)."""
    if not raw:
        return {}
    brackets = _brackets(raw)
    if len(brackets) // 2 > MAX_CONTAINERS:
        raise ApiError(400, f"the request body holds more than {MAX_CONTAINERS} arrays and "
                            "objects")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ApiError(400, "the request body is not JSON") from None
    if _depth(brackets, MAX_NESTING) > MAX_NESTING:
        raise ApiError(400, f"the request body nests deeper than {MAX_NESTING} levels")
    return data


# a string, or an unclosed one to the end (without that end, a body that is not JSON, a quote
# and 16,000 escaped quotes, was tried from every quote in it: 3 s of the loop, growing with
# the square of its size; found by an outside review)
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*(?:"|\\?\Z)', re.S)
_INNERMOST = re.compile(rb"\[\]|\{\}")
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


def _brackets(raw: bytes) -> bytes:
    """The brackets of JSON ``raw`` outside its strings, in order (at C speed)."""
    return _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKET)


def _depth(brackets: bytes, cap: int) -> int:
    """How deep the brackets of valid JSON nest: each pass removes the innermost pairs;
    stops at ``cap + 1``."""
    depth = 0
    while brackets and depth <= cap:
        brackets = _INNERMOST.sub(b"", brackets)
        depth += 1
    return depth


def raw_nesting(raw: bytes, cap: int) -> int:
    """How deep the arrays and objects of the valid JSON ``raw`` nest (a scalar: 0), counted
    on its bytes, up to ``cap + 1``."""
    return _depth(_brackets(raw), cap)


def field(obj: Any, name: str, kind: type = str, required: bool = True) -> Any:
    if not isinstance(obj, dict):
        raise ApiError(400, "the request body is a JSON object")
    value = obj.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ApiError(400, f"{name}: expected {kind.__name__}")
    return value


def client_address(request: Request) -> str:
    return request.client.host if request.client else "?"


# ---------------------------------------------------------------- the player's own


@endpoint(auth=True)
async def my_ledger(request: Request) -> Response:
    rt = runtime_of(request)
    uid = request.state.account.id
    before = _int_param(request, "before")
    entries = await rt.db.read(lambda s: s.ledger.history(uid, limit=50, before=before))
    return JSONResponse({
        "balance": await rt.db.read(lambda s: s.ledger.balance(uid)),
        "entries": [
            {"id": e.id, "kind": e.kind, "amount": e.amount, "hand_id": e.hand_id,
             "at": e.created_at.isoformat()}
            for e in entries
        ],
    })


@endpoint(auth=True)
async def my_hands(request: Request) -> Response:
    rt = runtime_of(request)
    uid = request.state.account.id
    before = _int_param(request, "before")
    hands = await rt.db.read(lambda s: s.hands.user_hands(uid, limit=30, before=before))
    return JSONResponse({"hands": [_hand_summary(h) for h in hands]})


@endpoint(auth=True)
async def my_stats(request: Request) -> Response:
    """``GET /api/me/stats``: the account's record (战绩) in each ruleset it played."""
    rt = runtime_of(request)
    uid = request.state.account.id
    records = await rt.db.read(lambda s: s.stats.of(uid))
    return JSONResponse({"records": [r.to_json() for r in records]})


def _hand_summary(h: Any) -> dict[str, Any]:
    result = h.result or {}
    return {
        "hand_id": h.hand_id,
        "table_id": h.table_id,
        "match_id": h.match_id,
        "number": h.number,
        "ruleset": h.ruleset,
        "seat": h.seat,
        "outcome": result.get("outcome"),
        "winner": result.get("winner"),
        "payment": (result.get("payments") or [0, 0, 0, 0])[h.seat],
        "started_at": h.started_at.isoformat(),
        "ended_at": h.ended_at.isoformat() if h.ended_at else None,
    }


async def _own_record(request: Request) -> tuple[int, Any]:
    """The hand id of the path and its game record: a finished hand the viewer played (or an
    admin); a 404 otherwise, the same whichever it is."""
    rt = runtime_of(request)
    hand_id = _path_int(request, "hand_id", no_hand)
    uid = request.state.account.id
    record = await rt.db.read(lambda s: s.hands.record(hand_id, uid))
    if record is None:
        raise no_hand()
    return hand_id, record


def _keep(cache: dict[Any, Any], key: Any, value: Any, size: int) -> None:
    """Keep ``value`` under ``key``; the oldest entry goes once ``cache`` holds more than
    ``size``."""
    cache[key] = value
    if len(cache) > size:
        del cache[next(iter(cache))]


def _worker_quota(request: Request) -> None:
    """A 429 (``workers_limited``) past ``WORKER_REQUESTS`` an address a minute: one client's
    flood of checks would take every place the requests have in the workers (503 ``busy`` for
    everyone else)."""
    rt = runtime_of(request)
    if not rt.worker_quota.allow(address_key(client_address(request))):
        raise ApiError(429, f"at most {WORKER_REQUESTS} hints, checks and reviews a minute "
                            "from one address: wait a moment", "workers_limited", 10)


async def _in_workers(request: Request, doing: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the bot workers; a 409 when the record cannot be ``doing`` (replayed,
    reviewed), a 503 when the workers do not answer in time."""
    rt = runtime_of(request)
    assert rt.bots is not None
    _worker_quota(request)
    try:
        return await rt.bots.run(fn, *args)
    except (EngineError, ValueError) as exc:
        raise ApiError(409, f"this hand cannot be {doing}: {str(exc)[:200]}") from None
    except TimeoutError:
        raise ApiError(503, BUSY, "busy") from None


async def _own_hand(request: Request) -> tuple[int, Any, Any, int | None]:
    """``_own_record`` with the hand's stored summary and the viewer's seat in it (None: an
    admin who did not play it)."""
    rt = runtime_of(request)
    hand_id, record = await _own_record(request)
    uid = request.state.account.id
    info = await rt.db.read(lambda s: s.hands.get(hand_id))
    seat = info.seats.index(uid) if uid in info.seats else None
    return hand_id, record, info, seat


@endpoint(auth=True)
async def hand_record(request: Request) -> Response:
    """A finished hand's game record, for the people who played it (and admins)."""
    hand_id, record = await _own_record(request)
    disposition = "attachment" if request.query_params.get("download") else "inline"
    return Response(
        orjson.dumps(record, option=orjson.OPT_INDENT_2),
        media_type="application/json",
        headers={"Content-Disposition": f'{disposition}; filename="baida-hand-{hand_id}.json"'},
    )


@endpoint(auth=True)
async def hand_verify(request: Request) -> Response:
    """Check a stored hand: its seed matches the commitment shown at the deal, and replaying
    its actions gives its settlement."""
    _, record = await _own_record(request)
    return JSONResponse(await _in_workers(request, "verified", verify_record, record))


@endpoint(auth=True)
async def hand_replay(request: Request) -> Response:
    """A finished hand to look back at: every event, the final view from the viewer's seat,
    the Wenling non-winners' items (``baida.server.web.review``); for its players (and admins)."""
    hand_id, record, info, seat = await _own_hand(request)
    review = await _in_workers(request, "replayed", hand_review, record, seat)
    return JSONResponse({"hand_id": hand_id, "number": info.number, **review})


@endpoint(auth=True)
async def hand_decisions(request: Request) -> Response:
    """The ``expert`` bot's value of each decision the viewer made in a finished hand, beside
    the best alternative (``baida review``); an admin who did not play it gets every seat's.
    It runs in the bot workers once per hand and seat; a finished hand never changes, so the
    answer is kept (keyed by the record's digest) for the next time it is asked for."""
    hand_id, record, _, seat = await _own_hand(request)
    key = (hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).digest(), seat)
    cached = _REVIEW_CACHE.get(key)
    if cached is None:
        cached = await _in_workers(request, "reviewed", decision_review, record, seat)
        _keep(_REVIEW_CACHE, key, cached, REVIEW_CACHE_SIZE)
    return JSONResponse({"hand_id": hand_id, "seat": seat, **cached})


@endpoint(csrf=False)
async def waits(request: Request) -> Response:
    """The 听牌 hint: the tiles that would win a hand (``baida.server.web.waits``). It may score
    hundreds of candidate wins, so it runs in the bot workers, never on the event loop, and
    answers for a hand already asked about come from a small cache."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error(413, f"the request is larger than {MAX_BODY} bytes")
    cached = _WAITS_CACHE.get(raw)
    if cached is None:
        rt = runtime_of(request)
        assert rt.bots is not None
        data = decode(raw)
        _worker_quota(request)
        try:
            cached = await rt.bots.run(hand_waits, data)
        except WaitsError as exc:
            return error(400, str(exc))
        except TimeoutError:
            return error(503, BUSY, "busy")
        _keep(_WAITS_CACHE, raw, cached, WAITS_CACHE_SIZE)
    return JSONResponse(cached)


@endpoint(csrf=False)
async def verify_upload(request: Request) -> Response:
    """Check any record (``baida-record-v1``) sent as the body."""
    data = await body(request, MAX_RECORD)
    return JSONResponse(await _in_workers(request, "verified", verify_record, data))


# ---------------------------------------------------------------- tables


@endpoint()
async def tables(request: Request) -> Response:
    rt = runtime_of(request)
    assert rt.hall is not None
    if request.method == "POST":
        user = _user(request)
        actor = await rt.hall.create_table(await body(request), user)
        return JSONResponse({"table": actor.table_json()}, status_code=201)
    return JSONResponse({"tables": rt.hall.lobby(), "online": rt.directory.online_count()})


@endpoint(auth=True)
async def my_tables(request: Request) -> Response:
    """``GET /api/me/tables``: the tables where the caller holds a seat in a match in
    progress (托管 plays it while they are away): the lobby's "return to your table"."""
    rt = runtime_of(request)
    assert rt.hall is not None
    return JSONResponse({"tables": rt.hall.seated_tables(_user(request).id)})


@endpoint()
async def table(request: Request) -> Response:
    rt = runtime_of(request)
    assert rt.hall is not None
    found = rt.hall.describe(_path_int(request, "table_id", no_table))
    if found is None or found.get("private"):
        raise no_table()
    return JSONResponse({"table": found})


@endpoint(auth=True)
async def enter_room(request: Request) -> Response:
    """``POST /api/rooms`` ``{"code"}``: the private table of a room code; the caller may
    then open its socket. Wrong codes are limited per address and per account."""
    data = await body(request)
    return await _enter_room(request, data.get("code") if isinstance(data, dict) else None)


async def _enter_room(request: Request, code: Any) -> Response:
    rt = runtime_of(request)
    assert rt.hall is not None
    user = _user(request)
    address = address_key(client_address(request))  # an IPv6 address counts as its /64
    if rt.room_limiter.blocked(address, user.id):
        return error(429, "too many wrong room codes; try again in a few minutes",
                     "room_codes_limited")
    valid = isinstance(code, str) and 0 < len(code.strip()) <= 16
    found = rt.hall.describe_room(code) if valid else None
    if found is None:
        rt.room_limiter.failed(address, user.id)
        if rt.room_limiter.blocked(address, user.id):
            log.warning("user %s: too many wrong room codes", user.id, extra=fields(
                "room_codes_limited", user=user.id, address=address))
        return error(404, "no table with that room code", "no_room")
    rt.hall.admit(found["id"], user)
    return JSONResponse({"table": found})


@endpoint(auth=True)
async def quick_play(request: Request) -> Response:
    rt = runtime_of(request)
    assert rt.hall is not None
    data = await body(request)
    ruleset = field(data, "ruleset", required=False) or "jiaxing"
    practice = bool(field(data, "practice", bool, required=False))
    actor = await rt.hall.quick_play(_user(request), ruleset, practice=practice)
    return JSONResponse({"table": actor.table_json()}, status_code=201)


async def rules(request: Request) -> Response:
    """``GET /api/rules/{ruleset}``: the 玩法 page's data (``baida.rulebook``), for the
    table options written in the query (``?santan_threshold=4``; the rest are defaults). Public
    and the same for everyone, like the phrases."""
    ruleset = request.path_params["ruleset"]
    try:
        return JSONResponse(rules_page(ruleset, query_options(ruleset, request.query_params)))
    except BookError as exc:
        return error(404, f"no such ruleset; {exc}")
    except OptionError as exc:
        return error(400, str(exc))


async def phrases(request: Request) -> Response:
    return JSONResponse({"phrases": {k: {"zh": zh, "en": en} for k, (zh, en) in PHRASES.items()}})


async def health(request: Request) -> Response:
    """``/healthz`` and ``/healthz/ready``: 200 when this node may take new players, 503
    (with ``not_ready``: why) while it starts, drains or its database or directory is out."""
    rt = runtime_of(request)
    database = await rt.database_ok()
    reasons = rt.ready_reasons(database)
    return JSONResponse(
        {"ok": not reasons, "not_ready": reasons,
         "database": "ok" if database else "unavailable",
         "directory": "ok" if rt.directory_ok() else "unavailable",
         "tables": len(rt.hall.tables) if rt.hall else 0,
         "warm": rt.warmth(),
         # of several nodes, the one that answered (its tables, its warmth)
         "node": rt.settings.node.name if rt.settings.node is not None else None},
        status_code=503 if reasons else 200,
        headers={"Cache-Control": "no-store"},
    )


async def live(request: Request) -> Response:
    """``/healthz/live``: 200 while this process's event loop answers (a proxy or a service
    manager restarts a node that fails it; Redis or the database being out does not)."""
    rt = runtime_of(request)
    return JSONResponse({"ok": True, "node": rt.settings.node.name if rt.settings.node
                         is not None else None}, headers={"Cache-Control": "no-store"})


async def metrics(request: Request) -> Response:
    """``/metrics`` for the operator's scraper only (``metrics_access``)."""
    rt = runtime_of(request)
    if proxied(request.headers) or client_address(request) not in rt.metrics_from:
        return error(403, "/metrics is read by the operator's scraper only (--metrics-from)",
                     "not_allowed")
    text = rt.metrics.render() if rt.node_metrics is None else rt.node_metrics.render_all()
    return Response(text, media_type="text/plain; version=0.0.4")


# ---------------------------------------------------------------- helpers


def _user(request: Request) -> User:
    user = request.state.user
    if user is None:
        raise ApiError(401, "sign in first (or play as a guest)", "signin_first")
    return user


MAX_ID = 2**63 - 1  # the largest id a database row can have (a signed 64-bit integer)


def _digits(raw: str) -> int | None:
    """``raw`` as a whole number if it is 1-19 ASCII digits and fits in a row id."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19):
        return None
    value = int(raw)
    return value if value <= MAX_ID else None


def _path_int(request: Request, name: str, missing: Callable[[], ApiError]) -> int:
    """The path's id ``name``; ``missing()`` (the answer for a row that is not there) for
    anything that cannot be a row's id, so a client cannot tell the two apart."""
    value = _digits(str(request.path_params.get(name, "")))
    if value is None:
        raise missing()
    return value


def _int_param(request: Request, name: str) -> int | None:
    """The query's whole number ``name`` (None when absent); a 400 when it is not one."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    value = _digits(raw)
    if value is None:
        raise ApiError(400, f"{name}: a whole number from 0 to {MAX_ID}")
    return value


ROUTES = [
    Route("/api/me/ledger", my_ledger, methods=["GET"]),
    Route("/api/me/hands", my_hands, methods=["GET"]),
    Route("/api/me/stats", my_stats, methods=["GET"]),
    Route("/api/me/tables", my_tables, methods=["GET"]),
    Route("/api/hands/{hand_id}/record", hand_record, methods=["GET"]),
    Route("/api/hands/{hand_id}/verify", hand_verify, methods=["GET"]),
    Route("/api/hands/{hand_id}/replay", hand_replay, methods=["GET"]),
    Route("/api/hands/{hand_id}/review", hand_decisions, methods=["GET"]),
    Route("/api/verify", verify_upload, methods=["POST"]),
    Route("/api/waits", waits, methods=["POST"]),
    Route("/api/tables", tables, methods=["GET", "POST"]),
    Route("/api/tables/{table_id}", table, methods=["GET"]),
    Route("/api/rooms", enter_room, methods=["POST"]),
    Route("/api/quickplay", quick_play, methods=["POST"]),
    Route("/api/phrases", phrases, methods=["GET"]),
    Route("/api/rules/{ruleset}", rules, methods=["GET"]),
    Route("/healthz", health, methods=["GET"]),
    Route("/healthz/ready", health, methods=["GET"]),
    Route("/healthz/live", live, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
]


