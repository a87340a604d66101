"""The operator's page: tables, players and balances, reports of players, the ledger's totals;
close a table, suspend or reinstate an account (a suspension closes its sockets at once; its
seats go as an escape does), grant 银子, mark a report handled (or open again). Admins only;
forms carry the CSRF token, and the three that cannot be taken back by a click (close,
suspend, grant) a 确认 box that must be ticked.

``/admin`` is HTML for a browser; ``/api/admin/...`` the same as JSON.
"""

from __future__ import annotations

import html
import json
import logging
import secrets
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ..ops.logs import fields
from .api import MAX_ID, ApiError, _int_param, body, endpoint, error, runtime_of

log = logging.getLogger(__name__)
PLAYERS_PER_PAGE = 100
NAME_QUERY_MAX = 40  # characters of a name to look for (a name has at most 16)
REPORTS_SHOWN = 30  # the newest reports of players, on the page


def _admin(request: Request) -> Any:
    account = request.state.account
    if account is None or account.role != "admin":
        raise ApiError(403, "operators only")
    return account


async def _overview(request: Request) -> dict[str, Any]:
    rt = runtime_of(request)
    assert rt.hall is not None
    cursor = _int_param(request, "after")
    query = request.query_params.get("q", "").strip()
    if len(query) > NAME_QUERY_MAX:
        raise ApiError(400, f"q: at most {NAME_QUERY_MAX} characters")
    players = await rt.db.read(lambda s: s.accounts.list_players(
        limit=PLAYERS_PER_PAGE, after=cursor, name_contains=query or None))
    every_report = request.query_params.get("reports") == "all"
    reports = await rt.db.read(lambda s: s.reports.newest(REPORTS_SHOWN,
                                                          open_only=not every_report))
    open_reports = await rt.db.read(lambda s: s.reports.open_count())
    totals = await rt.db.read(lambda s: s.ledger.totals())
    check = await rt.db.read(lambda s: s.ledger.check())
    if rt.settings.node is None:
        tables = [a.table_json() for a in sorted(rt.hall.tables.values(), key=lambda a: a.id)]
    else:  # every node's
        tables = rt.directory.descriptions()
    return {
        "tables": tables,
        "players": [
            {"id": p.id, "name": p.name, "guest": p.is_guest, "role": p.role,
             "suspended": p.suspended, "balance": p.balance}
            for p in players
        ],
        "reports": [
            {"id": r.id, "at": r.at.isoformat(), "table": r.table_id, "user": r.user_id,
             "name": r.user_name, "reporter": r.reporter_id, "reporter_name": r.reporter_name,
             "chat": r.chat,
             "handled_at": r.handled_at.isoformat() if r.handled_at else None,
             "handled_by": r.handled_by, "handled_by_name": r.handled_by_name}
            for r in reports
        ],
        "reports_shown": "all" if every_report else "open",
        "open_reports": open_reports,
        "query": query,
        # the cursor of the next page (``after``), when this one is full
        "next_after": players[-1].id if len(players) == PLAYERS_PER_PAGE else None,
        "ledger": totals.to_json(),
        "ledger_ok": check.ok,
        "online": rt.directory.online_count(),
    }


@endpoint(auth=True)
async def admin_json(request: Request) -> Response:
    _admin(request)
    return JSONResponse(await _overview(request))


@endpoint(auth=True)
async def admin_page(request: Request) -> Response:
    _admin(request)
    rt = runtime_of(request)
    assert rt.codec is not None
    data = await _overview(request)
    token = rt.codec.csrf(request.state.session)
    return HTMLResponse(render_page(data, token))


@endpoint(auth=True, csrf=False)
async def admin_action(request: Request) -> Response:
    """An operator's action: JSON in, JSON out; or a form of the page, answered by a redirect
    to the page, or by a page saying what was refused (not the JSON a browser would show)."""
    form = not request.headers.get("content-type", "").startswith("application/json")
    try:
        response = await _act(request)
    except ApiError as exc:
        if not form:
            raise
        response = error(exc.status, exc.message, exc.code)
    if form and response.status_code >= 400:
        return _refused_page(response)
    return response


def _refused_page(response: Response) -> HTMLResponse:
    """A refused form's answer as a page: what was refused and the way back."""
    try:
        message = str(json.loads(bytes(response.body))["error"])
    except (ValueError, KeyError, TypeError):
        message = "refused"
    return HTMLResponse(
        '<!doctype html><html lang="zh"><head><meta charset="utf-8"><meta name="viewport" '
        'content="width=device-width, initial-scale=1"><title>baida · 管理 admin</title>'
        '<style>body{font:14px system-ui,sans-serif;margin:1rem}</style></head><body>'
        f'<h1>没有做 · not done</h1><p class="refused">{html.escape(message)}</p>'
        '<p><a href="/admin">← 回到管理页 back to the admin page</a></p></body></html>',
        status_code=response.status_code)


async def _act(request: Request) -> Response:
    """The action of ``admin_action``: the CSRF token comes as the ``csrf`` field of a form (or
    the header for JSON)."""
    account = _admin(request)
    rt = runtime_of(request)
    assert rt.codec is not None and rt.hall is not None
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/json"):
        data = await body(request)
        token = request.headers.get("x-csrf-token")
    else:
        form = await request.form()
        data = {k: v for k, v in form.items() if isinstance(v, str)}
        token = data.get("csrf")
    if not rt.codec.csrf_ok(request.state.session, token):
        return error(403, "missing or wrong CSRF token")
    action = request.path_params["action"]
    target = _int(data.get("id"))
    if not content_type.startswith("application/json") and action in CONFIRMED and (
            data.get("sure") != "on"):
        return error(400, f"{action}: tick 确认 (sure) to do it", "not_confirmed")
    if action == "suspend" and target == account.id:
        return error(400, "an operator does not suspend their own account", "own_account")
    if action == "close_table":
        done = await rt.hall.close_table(target, "closed by the operator")
        if not done:
            return error(404, "no open table with that id")
        log.warning("table %s closed by admin %s", target, account.id,
                    extra=fields("close_table", table=target, admin=account.id))
    elif action in ("suspend", "reinstate"):
        flag = action == "suspend"
        await rt.db.write(lambda s: s.accounts.set_suspended(target, flag))
        tables = await rt.hall.suspend(target) if flag else 0
        log.warning("account %s %sed by admin %s", target, action, account.id, extra=fields(
            action, user=target, admin=account.id, tables=tables))
    elif action == "grant":
        amount = _int(data.get("amount"))
        key = f"admin-grant:{account.id}:{data.get('key') or target}:{amount}:{_nonce(data)}"
        granted = await rt.db.write(lambda s: s.ledger.grant(key, target, amount))
        if not granted.replayed:  # a form sent twice grants once, and is logged once
            log.warning("%s 银子 granted to account %s by admin %s", amount, target, account.id,
                        extra=fields("grant", user=target, admin=account.id, amount=amount,
                                     key=key))
    elif action in ("handle_report", "reopen_report"):
        handler = account.id if action == "handle_report" else None
        if not await rt.db.write(lambda s: s.reports.set_handled(target, handler)):
            return error(404, "no report with that id")
        log.warning("report %s %s by admin %s", target,
                    "handled" if handler else "opened again", account.id,
                    extra=fields(action, report=target, admin=account.id))
    else:
        return error(404, "unknown action")
    if content_type.startswith("application/json"):
        return JSONResponse({"ok": True})
    back = "/admin?reports=all" if data.get("shown") == "all" else "/admin"
    return RedirectResponse(back, status_code=303)


CONFIRMED = ("close_table", "suspend", "grant")  # a form of these needs its 确认 box ticked


def _int(value: Any) -> int:
    """An id or amount of a form or JSON body: a whole number a database row can hold."""
    if isinstance(value, int) and not isinstance(value, bool) and -MAX_ID <= value <= MAX_ID:
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and (
            len(value.strip()) < 19):
        return int(value)
    raise ApiError(400, "id and amount are whole numbers")


def _nonce(data: dict[str, Any]) -> str:
    """The form's one-time key, so a resubmitted form grants once."""
    value = data.get("nonce")
    return str(value)[:40] if value else "once"


def render_page(data: dict[str, Any], token: str) -> str:
    """The admin page as HTML (every value escaped)."""
    e = html.escape

    def form(action: str, target: int, label: str, extra: str = "") -> str:
        sure = ('<label><input type="checkbox" name="sure" required> 确认 sure</label>'
                if action in CONFIRMED else "")
        return (
            f'<form method="post" action="/admin/{action}">'
            f'<input type="hidden" name="csrf" value="{e(token)}">'
            f'<input type="hidden" name="id" value="{target}">{extra}{sure}'
            f'<button>{e(label)}</button></form>'
        )

    rows_t = "".join(
        f"<tr><td>{t['id']}</td><td>{e(t['ruleset'])} {t['number']}</td>"
        f"<td>{e(' '.join(t['badges']))}</td><td>{e(t['status'])}</td>"
        f"<td>{sum(1 for s in t['seats'] if s['kind'] == 'person')}</td>"
        f"<td>{form('close_table', t['id'], '关闭 close') if t['status'] != 'closed' else ''}</td>"
        "</tr>"
        for t in data["tables"]
    )
    rows_p = "".join(
        f"<tr><td>{p['id']}</td><td>{e(p['name'])}</td><td>{'guest' if p['guest'] else ''}"
        f" {e(p['role'])}</td><td>{p['balance']}</td>"
        f"<td>{'suspended' if p['suspended'] else ''}</td><td>"
        + (form("reinstate", p["id"], "恢复 reinstate") if p["suspended"]
           else form("suspend", p["id"], "停用 suspend"))
        + form("grant", p["id"], "发放 grant",
               '<input name="amount" size="6" value="100">'
               f'<input type="hidden" name="nonce" value="{secrets.token_hex(8)}">')
        + "</td></tr>"
        for p in data["players"]
    )
    if not data["players"]:
        rows_p = '<tr><td colspan="6">没有 none</td></tr>'
    more = ""
    if data["next_after"] is not None:
        link = urlencode({"after": data["next_after"], **({"q": data["query"]} if data["query"]
                                                          else {})})
        more = f'<p><a href="/admin?{e(link)}">下一页 next {PLAYERS_PER_PAGE} →</a></p>'
    every_report = data["reports_shown"] == "all"
    shown = '<input type="hidden" name="shown" value="all">' if every_report else ""

    def report_state(r: dict[str, Any]) -> str:
        if r["handled_at"] is None:
            return form("handle_report", r["id"], "已处理 handled", shown)
        return (f"{e(r['handled_by_name'] or '')} {e(_minute(r['handled_at']))} "
                + form("reopen_report", r["id"], "重新打开 reopen", shown))

    rows_r = "".join(
        f"<tr><td>{e(_minute(r['at']))}</td><td>{r['table']}</td>"
        f"<td><a href=\"/admin?{e(urlencode({'q': r['name']}))}\">{e(r['name'])}</a> ({r['user']})"
        f"</td><td>{e(r['reporter_name'])} ({r['reporter']})</td>"
        f"<td>{' / '.join(e(line) for line in r['chat']) or '—'}</td>"
        f"<td>{report_state(r)}</td></tr>"
        for r in data["reports"]
    ) or '<tr><td colspan="6">没有 none</td></tr>'
    if every_report:
        which = (f'the newest {REPORTS_SHOWN}, handled or not · <a href="/admin">只看未处理 '
                 f'open only ({data["open_reports"]})</a>')
    else:
        which = (f'{data["open_reports"]} open, the newest {REPORTS_SHOWN} shown · '
                 '<a href="/admin?reports=all">全部 all, handled too</a>')
    ledger = data["ledger"]
    accounts = "".join(f"<li>{e(k)}: {v}</li>" for k, v in ledger["by_account"].items())
    sound = "OK" if data["ledger_ok"] else "PROBLEM: run the ledger check"
    return f"""<!doctype html><html lang="zh"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>baida · 管理 admin</title><link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<style>body{{font:14px system-ui,sans-serif;margin:1rem}}
table{{border-collapse:collapse;display:block;max-width:100%;overflow-x:auto}}
td,th{{border:1px solid #ccc;padding:.2rem .4rem}}
form{{display:inline;margin-right:.8rem}}</style></head>
<body><h1>baida 管理 · admin</h1>
<p>online: {data['online']} · ledger: {e(sound)} · entries sum {ledger['entries_sum']}
· transactions {ledger['transactions']}</p><ul>{accounts}</ul>
<h2>桌 Tables</h2><table><tr><th>id</th><th>table</th><th>rules</th><th>status</th>
<th>people</th><th></th></tr>{rows_t}</table>
<h2>玩家 Players</h2>
<form method="get" action="/admin"><input type="search" name="q" value="{e(data['query'])}"
maxlength="{NAME_QUERY_MAX}" placeholder="名字 name" aria-label="名字 name">
<button>查找 find</button>{' <a href="/admin">全部 all</a>' if data['query'] else ''}</form>
<table><tr><th>id</th><th>name</th><th>kind</th><th>银子</th><th></th>
<th></th></tr>{rows_p}</table>{more}
<h2>举报 Reports</h2><p>{which}; the name finds the player above</p>
<table><tr><th>time (UTC)</th><th>table</th><th>reported</th><th>by</th><th>their last words at
the table</th><th>处理 handled</th></tr>{rows_r}</table></body></html>"""


def _minute(iso: str) -> str:
    """An ISO time to the minute, as the page shows it (UTC)."""
    return iso[:16].replace("T", " ")


ROUTES = [
    Route("/admin", admin_page, methods=["GET"]),
    Route("/admin/{action}", admin_action, methods=["POST"]),
    Route("/api/admin", admin_json, methods=["GET"]),
    Route("/api/admin/{action}", admin_action, methods=["POST"]),
]
