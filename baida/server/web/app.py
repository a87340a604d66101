"""The hall's ASGI application: the lobby API, the admin page, metrics and the browser
client, over one ``Runtime``; and ``server_config``, the uvicorn settings that serve it with
the hall's own WebSocket protocol for the table sockets (``ws_protocol``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route

from ..tables.clock import Clock
from . import account_routes, admin, api, openapi
from .guard import BodyLimit, SecurityHeaders
from .runtime import Runtime
from .settings import HallSettings
from .static import static_files

log = logging.getLogger("baida.server")
WEB = Path(__file__).resolve().parents[2] / "web"


class HallApp:
    """The hall's ASGI application. Table WebSockets never reach it: uvicorn gives them to
    ``ws_protocol.TableSocketProtocol``, which finds the runtime in the lifespan state."""

    def __init__(self, app: Starlette, runtime: Runtime) -> None:
        self.app = app
        self.runtime = runtime
        self.state = app.state
        self._guarded = SecurityHeaders(BodyLimit(app))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":  # served by another ASGI server: not supported
            await send({"type": "websocket.close", "code": 1011})
            return
        await self._guarded(scope, receive, send)


def hall_server(config: Any, url: str, ready_fd: int | None = None) -> Any:
    """A ``uvicorn.Server`` for ``config`` that prints ``baida hall: URL`` once it accepts
    connections (after the lifespan startup *and* the bind), so whoever waits for that line
    can connect at once; nothing is printed when the startup fails (a taken port, say). A
    node of several writes a line to ``ready_fd`` (its supervisor's pipe) instead."""
    import os

    import uvicorn

    class HallServer(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if config.fd is not None:  # uvicorn listens on its own copy: this one would
                os.close(config.fd)    # keep the port taken after the server let it go
                config.fd = None
            if self.started and not self.should_exit:
                if ready_fd is None:
                    print(f"baida hall: {url}", flush=True)
                else:
                    os.write(ready_fd, b"ready\n")
                    os.close(ready_fd)

    return HallServer(config)


def server_config(app: HallApp, host: str, port: int, **options: Any) -> Any:
    """uvicorn's configuration for the hall: its WebSocket protocol, a 64 KiB frame limit, an
    HTTP protocol bounded by the runtime's ``Limits`` (``limits.guarded_http``), and forwarded
    addresses believed from the configured proxies only."""
    import uvicorn
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from .client_limits import guarded_http
    from .ws_protocol import TableSocketProtocol

    limits = app.runtime.limits
    options.setdefault("ws_max_size", 64 * 1024)
    options.setdefault("http", guarded_http(HttpToolsProtocol, limits))
    options.setdefault("proxy_headers", bool(limits.proxies))
    options.setdefault("forwarded_allow_ips", limits.proxies.spec or "")
    return uvicorn.Config(app, host=host, port=port, ws=TableSocketProtocol, **options)


def create_app(settings: HallSettings, clock: Clock | None = None) -> HallApp:
    runtime = Runtime(settings, clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        from .ws_protocol import RUNTIME_KEY

        await runtime.start()
        where = settings.database or settings.data_dir
        log.info("hall open with %d tables; data in %s", len(runtime.hall.tables), where)
        try:
            yield {RUNTIME_KEY: runtime}
        finally:
            await runtime.stop()

    routes = [
        *account_routes.ROUTES,
        *api.ROUTES,
        *admin.ROUTES,
        *openapi.ROUTES,
        Route("/", index, methods=["GET"]),
    ]
    if WEB.is_dir():
        routes.append(Mount("/static", app=static_files(WEB), name="static"))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={Exception: internal_error, 404: not_found, 405: not_allowed},
    )
    app.state.runtime = runtime
    return HallApp(app, runtime)


async def index(request: Request) -> Response:
    page = WEB / "index.html"
    if page.exists():
        return FileResponse(page, headers={"Cache-Control": "no-cache"})
    return JSONResponse({"hall": "baida", "api": "/api/tables", "protocol": "/ws/tables/{id}"})


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("request %s failed", request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal error"}, status_code=500)


async def not_found(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": "not found"}, status_code=404)


async def not_allowed(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": "method not allowed"}, status_code=405)
