"""The HTTP API as an OpenAPI 3.1 document, served at ``/api/openapi.json``: every route of
the lobby, the records, the operators' actions and the probes, with its parameters and
request bodies (``tests/test_server_openapi`` checks that no route is missing and fuzzes the
API from it). The table WebSocket is described in ``docs/protocol.md``."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .guard import MAX_BODY, MAX_RECORD

ID = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}
ERROR = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}
ANY_OBJECT = {"type": "object"}
NAME = {"type": "string", "minLength": 1, "maxLength": 64}
PASSWORD = {"type": "string", "minLength": 8, "maxLength": 1024}


def _json(schema: dict[str, Any], description: str = "JSON") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _body(properties: dict[str, Any], required: tuple[str, ...] = ()) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return {"required": False, "content": {"application/json": {"schema": schema}}}


def _op(summary: str, ok: str = "200", *, auth: bool = False, body: dict[str, Any] | None = None,
        params: list[dict[str, Any]] | None = None, errors: tuple[str, ...] = (),
        media: str = "application/json") -> dict[str, Any]:
    responses: dict[str, Any] = {ok: {"description": "done", "content": {media: {"schema": (
        ANY_OBJECT if media == "application/json" else {"type": "string"})}}}}
    for status in sorted({*errors, "400", "403", "413", "429"} | ({"401"} if auth else set())):
        responses[status] = _json(ERROR, "refused: the error says why")
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if auth:
        op["security"] = [{"session": [], "csrf": []}]
    if body is not None:
        op["requestBody"] = body
    if params:
        op["parameters"] = params
    return op


def _path_id(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": ID}


def _query_id(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}}


HAND = [_path_id("hand_id")]
NAME_QUERY = {"name": "q", "in": "query", "required": False,
              "description": "only players whose name holds this text (any case)",
              "schema": {"type": "string", "maxLength": 40}}
REPORTS_QUERY = {"name": "reports", "in": "query", "required": False,
                 "description": "all: the newest reports handled or not (by default the open "
                                "ones only)",
                 "schema": {"type": "string", "enum": ["open", "all"]}}
TABLE_CONFIG = {
    "type": "object",
    "properties": {
        "ruleset": {"type": "string", "enum": ["jiaxing", "wenling"]},
        "options": ANY_OBJECT, "base": {"type": "integer"}, "fee": {"type": "integer"},
        "stakes": {"type": "string", "enum": ["points", "silver"]},
        "hands": {"type": "integer"}, "rounds": {"type": "integer"},
        "private": {"type": "boolean"}, "timing": ANY_OBJECT, "bot": {"type": "string"},
        "escape_penalty": {"type": "integer"},
    },
    "additionalProperties": False,
}
ADMIN_ACTION = {"name": "action", "in": "path", "required": True,
                "schema": {"type": "string",
                           "enum": ["close_table", "suspend", "reinstate", "grant",
                                    "handle_report", "reopen_report"]}}
ADMIN_BODY = _body({"id": ID, "amount": {"type": "integer"}, "key": {"type": "string"},
                    "nonce": {"type": "string"}}, ("id",))

PATHS: dict[str, dict[str, Any]] = {
    "/api/guest": {"post": _op("Play as a guest (a new guest account and its session)", "201")},
    "/api/register": {"post": _op(
        "Register (a signed-in guest keeps its hands, and its balance up to the starting "
        "grant)", "201", errors=("409", "503"),
        body=_body({"name": NAME, "password": PASSWORD}, ("name", "password")))},
    "/api/login": {"post": _op(
        "Sign in", errors=("401", "503"),
        body=_body({"name": NAME, "password": PASSWORD}, ("name", "password")))},
    "/api/logout": {"post": _op("Sign out (everywhere: every session of the account)",
                                body=_body({"everywhere": {"type": "boolean"}}))},
    "/api/password": {"post": _op(
        "Change the password: every session of the account is revoked, a new one opened",
        auth=True, errors=("503",),
        body=_body({"password": PASSWORD, "new_password": PASSWORD},
                   ("password", "new_password")))},
    "/api/me": {
        "get": _op("The signed-in account, with its CSRF token", auth=True),
        "patch": _op("Rename the signed-in account", auth=True, errors=("409",),
                     body=_body({"name": NAME}, ("name",))),
    },
    "/api/session": {"get": _op("The signed-in account or null (never a 401)")},
    "/api/me/ledger": {"get": _op("The account's 银子 ledger, newest first, 50 a page",
                                  auth=True, params=[_query_id("before", "entries older than "
                                                               "this entry id")])},
    "/api/me/hands": {"get": _op("The hands the account played, newest first, 30 a page",
                                 auth=True, params=[_query_id("before", "hands older than "
                                                              "this hand id")])},
    "/api/me/stats": {"get": _op("The account's record (战绩) in each ruleset it finished a "
                                 "hand of: hands, wins, self-drawn, dealt in, drawn, points, "
                                 "the best hand", auth=True)},
    "/api/me/mutes": {"get": _op("The accounts whose chat the account does not read (屏蔽)",
                                 auth=True)},
    "/api/me/mutes/{user_id}": {
        "put": _op("Mute an account's chat on every device of this one", auth=True,
                   errors=("404",), params=[_path_id("user_id")]),
        "delete": _op("No longer mute an account's chat", auth=True,
                      params=[_path_id("user_id")]),
    },
    "/api/me/tables": {"get": _op("The tables where the account holds a seat in a match in "
                                  "progress", auth=True)},
    "/api/hands/{hand_id}/record": {"get": _op(
        "A finished hand's game record (its players and operators)", auth=True,
        errors=("404",), params=[*HAND, {"name": "download", "in": "query", "required": False,
                                         "schema": {"type": "string"}}])},
    "/api/hands/{hand_id}/verify": {"get": _op(
        "Check a stored hand against its commitment and settlement", auth=True,
        errors=("404", "409", "429", "503"), params=HAND)},
    "/api/hands/{hand_id}/replay": {"get": _op(
        "A finished hand to look back at, from the viewer's seat", auth=True,
        errors=("404", "409", "429", "503"), params=HAND)},
    "/api/hands/{hand_id}/review": {"get": _op(
        "The expert bot's value of each decision the viewer made", auth=True,
        errors=("404", "409", "429", "503"), params=HAND)},
    "/api/verify": {"post": _op(
        f"Check any game record (baida-record-v1, at most {MAX_RECORD} bytes)",
        errors=("409", "429", "503"), body={"required": True, "content": {
            "application/json": {"schema": ANY_OBJECT}}})},
    "/api/waits": {"post": _op(
        f"The tiles that would win a hand (at most {MAX_BODY} bytes)", errors=("429", "503"),
        body={"required": True, "content": {"application/json": {"schema": {
            "type": "object", "properties": {
                "ruleset": {"type": "string"}, "options": ANY_OBJECT,
                "indicator": {"type": "string"}, "concealed": {"type": "array"},
                "melds": {"type": "array", "items": {"type": "object", "properties": {
                    "type": {"type": "string"}, "tiles": {"type": "array"}}}},
                "flowers": {"type": "array"}, "discarded_wild": {"type": "boolean"},
                "seat_wind": {"type": "string"}, "round_wind": {"type": "string"}},
            "required": ["ruleset", "concealed"]}}}})},
    "/api/tables": {
        "get": _op("The lobby: open tables and how many people are online"),
        "post": _op("Open a table", "201", auth=True,
                    body={"required": True, "content": {"application/json": {
                        "schema": TABLE_CONFIG}}}),
    },
    "/api/tables/{table_id}": {"get": _op("One public table", errors=("404",),
                                          params=[_path_id("table_id")])},
    "/api/rooms": {"post": _op("Enter a private table by its room code", auth=True,
                               errors=("404",),
                               body=_body({"code": {"type": "string", "maxLength": 16}},
                                          ("code",)))},
    "/api/quickplay": {"post": _op("A seat at a table about to start", "201", auth=True,
                                   body=_body({"ruleset": {"type": "string",
                                                           "enum": ["jiaxing", "wenling"]},
                                               "practice": {"type": "boolean"}}))},
    "/api/phrases": {"get": _op("The table chat's fixed phrases")},
    "/api/rules/{ruleset}": {"get": _op(
        "The 玩法 page's data for a ruleset and table options", errors=("404",),
        params=[{"name": "ruleset", "in": "path", "required": True,
                 "schema": {"type": "string", "maxLength": 32}},
                {"name": "options", "in": "query", "required": False, "style": "form",
                 "explode": True, "description": "table options, one query value each",
                 "schema": {"type": "object", "additionalProperties": {"type": "string"}}}])},
    "/api/openapi.json": {"get": _op("This document")},
    "/api/admin": {"get": _op("The operators' overview", auth=True,
                              params=[_query_id("after", "players after this account id"),
                                      NAME_QUERY, REPORTS_QUERY])},
    "/api/admin/{action}": {"post": _op("An operator's action", auth=True, errors=("404",),
                                        params=[ADMIN_ACTION], body=ADMIN_BODY)},
    "/admin": {"get": _op("The operators' page", auth=True, media="text/html",
                          params=[_query_id("after", "players after this account id"),
                                  NAME_QUERY, REPORTS_QUERY])},
    "/admin/{action}": {"post": _op(
        "An operator's action from the operators' page (a form; answered by a redirect)",
        "303", auth=True, errors=("404",), params=[ADMIN_ACTION],
        body={"required": False, "content": {"application/x-www-form-urlencoded": {
            "schema": {"type": "object", "properties": {
                "id": {"type": "string"}, "amount": {"type": "string"},
                "key": {"type": "string"}, "nonce": {"type": "string"},
                "csrf": {"type": "string"}, "shown": {"type": "string"}}}}}})},
    "/healthz": {"get": _op("Whether the hall and its database answer", errors=("503",))},
    "/healthz/ready": {"get": _op("Whether this node is ready to serve (its database and "
                                  "directory answer)", errors=("503",))},
    "/healthz/live": {"get": _op("Whether this process's event loop answers")},
    "/metrics": {"get": _op("Prometheus metrics", media="text/plain")},
    "/": {"get": _op("The browser client", media="text/html")},
}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "baida hall",
        "version": "1",
        "description": "The lobby's JSON over HTTP. Errors are {\"error\": \"...\"} with a 4xx "
                       "status. State-changing requests of a session carry X-CSRF-Token (from "
                       "GET /api/me) and, from a browser, an Origin of this hall. Request "
                       f"bodies are at most {MAX_BODY} bytes ({MAX_RECORD} for /api/verify).",
    },
    "paths": PATHS,
    "components": {"securitySchemes": {
        "session": {"type": "apiKey", "in": "cookie", "name": "baida_session"},
        "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
    }},
}


async def openapi_json(request: Request) -> Response:
    return JSONResponse(DOCUMENT)


ROUTES = [Route("/api/openapi.json", openapi_json, methods=["GET"])]
