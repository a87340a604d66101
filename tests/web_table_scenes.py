"""Scenes the browser table tests share: scripted hands, a socket that keeps a hand's result,
and small readers of the page."""

from __future__ import annotations

import json
import re
from typing import Any

from web_support import Web

from baida.engine import Round

UNANSWERED = "seq => (p => p && p.seq === seq && !p.answered)(window.baidaTable.state.prompt)"


def still_open(page: Any, seq: int) -> bool:
    return bool(page.evaluate(UNANSWERED, seq))


def table_actor(web: Web, page: Any) -> Any:
    table_id = page.evaluate("window.baidaTable.state.table.id")
    return web.hall.runtime.hall.get(table_id)


WIN_OR_PON = dict(
    hands=["111234567m88m99m", "123456789p1234s", "123456789p5678s", "123456789sSSWW"],
    draws="8m", indicator="N", extra="E",
)


ONE_CHI = dict(
    hands=["34m99m147p147sEEW", "123456789p1234s", "123456789p5678s", "123456789sSSWN"],
    draws="FP5m", indicator="C", extra="S",
)


TIANHU = dict(
    hands=["111234567888m9m", "12345678p12345s", "12345678p6789sE", "12345678p123sSW"],
    indicator="9p", extra="9m",
)


class HandResults:
    """The table's WebSocket through the test: it keeps the first ``hand_result``; after the
    reload it either drops every ``hand_result`` (``fallback``: the page must find the stored
    hand itself) or makes sure one follows the snapshot (``resent``: what the hall does for a
    client that comes back between hands; sent by the test if this hall does not)."""

    def __init__(self, page: Any, mode: str) -> None:
        self.mode = mode
        self.reloaded = False
        self.first: str | None = None
        self.hall_resent = False
        page.route_web_socket(re.compile(r"/ws/tables/\d+$"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: self._from_server(ws, m))

    def _from_server(self, ws: Any, raw: str | bytes) -> None:
        msg = json.loads(raw)
        if msg["type"] == "hand_result":
            if not self.reloaded:
                self.first = self.first or str(raw)
            else:
                self.hall_resent = True
                if self.mode == "fallback":
                    return
        ws.send(raw)
        ended = msg["type"] == "snapshot" and (msg.get("view") or {}).get("phase") == "ended"
        if ended and self.reloaded and self.mode == "resent" and self.first is not None:
            ws.send(self.first)


def tianhu_result(ruleset: str, wall: list[int]) -> dict[str, Any]:
    """The engine's own settlement of the dealer's 天和 on this wall."""
    rnd = Round.from_wall(ruleset, wall, (1, 2))
    rnd.apply(next(a for a in rnd.legal_actions(0) if a.type == "win"))
    assert rnd.result is not None
    return rnd.result.to_json()


def words(text: str) -> str:
    return " ".join(text.split())
