"""Talking to a hall: the lobby over HTTP (stdlib), the table over a WebSocket."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

PROTOCOL = 1


class HallError(RuntimeError):
    """The hall refused a request; the message is the hall's."""


@dataclass
class HallSession:
    """A signed-in session at a hall: its base URL, cookies and CSRF token."""

    base: str
    cookies: dict[str, str] = field(default_factory=dict)  # the session's and the device's
    csrf: str = ""
    me: dict[str, Any] | None = None

    @property
    def cookie(self) -> str:
        """The ``Cookie`` header of the next request."""
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def request(self, method: str, path: str, payload: Any = None) -> Any:
        parts = urlsplit(self.base)
        conn_class = (http.client.HTTPSConnection if parts.scheme == "https"
                      else http.client.HTTPConnection)
        conn = conn_class(parts.netloc, timeout=30)
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        data = None if payload is None else json.dumps(payload).encode()
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                jar: SimpleCookie = SimpleCookie()
                jar.load(header)
                for key, morsel in jar.items():
                    if morsel.value:
                        self.cookies[key] = morsel.value
                    else:  # deleted
                        self.cookies.pop(key, None)
        finally:
            conn.close()
        body = json.loads(raw or b"{}")
        if response.status >= 400:
            raise HallError(body.get("error") or f"HTTP {response.status}")
        if isinstance(body, dict) and isinstance(body.get("me"), dict):
            self.me = body["me"]
            self.csrf = body["me"].get("csrf", self.csrf)
        return body

    def sign_in(self, name: str | None = None, password: str | None = None) -> dict[str, Any]:
        if name and password:
            return self.request("POST", "/api/login", {"name": name, "password": password})
        return self.request("POST", "/api/guest", {})

    def socket_url(self, table_id: int) -> str:
        parts = urlsplit(self.base)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/ws/tables/{table_id}"
