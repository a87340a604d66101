"""The table loop of ``baida client``: follow the hand, answer prompts, until the match ends."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from typing import Any

from ..engine.describe import describe_event
from ..tiles import parse_tile
from .session import PROTOCOL, HallSession

Chooser = Callable[["HandTracker", dict[str, Any]], dict[str, Any]]


class HandTracker:
    """One seat's concealed tiles, followed from the snapshot and its own events."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.tiles: list[str] = []
        self.wilds: list[str] = []
        self.drawn: str | None = None
        self.next_index = 0

    def snapshot(self, message: dict[str, Any]) -> None:
        view = message.get("view") or {}
        self.seat = view.get("seat")
        self.wilds = list(view.get("wilds") or [])
        me = (view.get("players") or [{}] * 4)[self.seat] if self.seat is not None else {}
        self.tiles = list(me.get("concealed") or [])
        self.drawn = me.get("drawn")
        self.next_index = message.get("event_index", 0)

    def event(self, event: dict[str, Any]) -> None:
        if event.get("seat") != self.seat or self.seat is None:
            return
        kind, tile = event["type"], event.get("tile")
        if kind == "deal":
            self.tiles = list(event.get("tiles") or [])
        elif kind == "hand_start":
            self.wilds = list(event.get("wilds") or [])
        elif kind == "draw" and tile:
            self.tiles.append(tile)
            self.drawn = tile
        elif kind in ("discard", "flower", "bukong") and tile in self.tiles:
            self.tiles.remove(tile)
            self.drawn = None
        elif kind in ("chi", "pon", "mkong"):
            meld = list(event["meld"]["tiles"])
            meld.remove(event["tile"])
            for t in meld:
                if t in self.tiles:
                    self.tiles.remove(t)
        elif kind == "akong" and tile:
            for _ in range(4):
                if tile in self.tiles:
                    self.tiles.remove(tile)

    def sorted_tiles(self) -> list[str]:
        wild = [t for t in self.tiles if t in self.wilds]
        rest = sorted((t for t in self.tiles if t not in self.wilds), key=parse_tile)
        return wild + rest

    def show(self) -> str:
        marked = [f"{t}*" if t in self.wilds else t for t in self.sorted_tiles()]
        drawn = f"   drew {self.drawn}" if self.drawn else ""
        return " ".join(marked) + drawn


def auto_choice(tracker: HandTracker, prompt: dict[str, Any]) -> dict[str, Any]:
    """A fixed rule: win, else pass or 坚持, else discard the tile just drawn."""
    actions = prompt["actions"]
    for kind in ("win", "lazi", "pass", "continue"):
        for action in actions:
            if action["type"] == kind:
                return action
    for action in actions:
        if action["type"] == "discard" and action.get("tile") == tracker.drawn:
            return action
    discards = [a for a in actions if a["type"] == "discard"]
    return discards[-1] if discards else actions[0]


def keyboard_choice(tracker: HandTracker, prompt: dict[str, Any]) -> dict[str, Any]:
    """Ask at the terminal: a number from the list, or a tile to discard (``5m``)."""
    actions = prompt["actions"]
    print(f"  your hand: {tracker.show()}")
    listed = [a for a in actions if a["type"] != "discard"]
    for i, action in enumerate(listed, 1):
        print(f"  {i}. {_label(action)}")
    discards = [a["tile"] for a in actions if a["type"] == "discard"]
    if discards:
        print(f"  or type a tile to discard ({' '.join(discards)}); Enter discards the drawn one")
    while True:
        try:
            answer = input("> ").strip()
        except EOFError:
            answer = "q"
        if answer in ("q", "quit"):
            raise SystemExit(0)
        if not answer and discards:
            return auto_choice(tracker, {"actions": [a for a in actions if a["type"] == "discard"]})
        if answer.isdigit() and 1 <= int(answer) <= len(listed):
            return listed[int(answer) - 1]
        for action in actions:
            if action["type"] == "discard" and action.get("tile") == answer:
                return action
        print("  not one of the choices")


def _label(action: dict[str, Any]) -> str:
    names = {"win": "和 win", "pass": "过 pass", "pon": "碰 pon", "mkong": "杠 kong",
             "akong": "暗杠 concealed kong", "bukong": "补杠 add to pon", "lazi": "腊子和",
             "continue": "坚持 continue (三摊)", "give_up": "放弃 give up (三摊)",
             "chi": "吃 chi"}
    text = names.get(action["type"], action["type"])
    if action.get("tile"):
        text += f" {action['tile']}"
    if action.get("tiles"):
        text += " with " + " ".join(action["tiles"])
    return text


async def play_table(session: HallSession, table_id: int, choose: Chooser,
                     out: Any = sys.stdout, seat: int | None = None) -> list[int] | None:
    """Sit at ``table_id``, fill it with bots, play the match; returns the final totals."""
    from websockets.asyncio.client import connect

    tracker = HandTracker()
    headers = {"Cookie": session.cookie}
    async with connect(session.socket_url(table_id), additional_headers=headers,
                       max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                if message["seat"] is None:
                    await ws.send(json.dumps({"type": "sit", "seat": seat}))
            elif kind == "table":
                table = message["table"]
                mine = [s for s in table["seats"] if s["user"] == (session.me or {}).get("id")]
                if table["status"] == "waiting" and mine:
                    if any(s["kind"] == "empty" for s in table["seats"]):
                        await ws.send(json.dumps({"type": "add_bots"}))
                    elif not mine[0]["ready"]:
                        await ws.send(json.dumps({"type": "ready"}))
            elif kind == "snapshot":
                tracker.snapshot(message)
            elif kind == "events":
                for i, event in enumerate(message["events"]):
                    if message["index"] + i < tracker.next_index:
                        continue
                    tracker.event(event)
                    line = describe_event(event)
                    if line:
                        print(line, file=out)
                tracker.next_index = message["index"] + len(message["events"])
            elif kind == "prompt":
                action = choose(tracker, message)
                await ws.send(json.dumps({"type": "act", "seq": message["seq"],
                                          "action": action}))
            elif kind == "refused":
                print(f"refused: {message['message']}", file=out)
            elif kind == "hand_result":
                print(f"hand {message['number']} over; totals {message['totals']}", file=out)
                if message["match_over"]:
                    return list(message["totals"])
                await ws.send(json.dumps({"type": "ready"}))
            elif kind == "seat_mode" and message["seat"] == tracker.seat:
                if message["mode"] == "auto":
                    print("托管: a bot plays for you; taking the seat back", file=out)
                    await ws.send(json.dumps({"type": "resume"}))
            elif kind == "error":
                print(f"the hall closed the connection: {message['message']}", file=out)
                return None
    return None


def run_client(base: str, *, ruleset: str, auto: bool, table: int | None, room: str | None,
               name: str | None, password: str | None) -> int:
    session = HallSession(base.rstrip("/"))
    session.sign_in(name, password)
    if room:
        table = session.request("GET", f"/api/rooms/{room}")["table"]["id"]
    elif table is None:
        table = session.request("POST", "/api/quickplay", {"ruleset": ruleset})["table"]["id"]
    choose = auto_choice if auto else keyboard_choice
    totals = asyncio.run(play_table(session, table, choose))
    if totals is None:
        return 1
    print(f"match over: totals by seat {totals}")
    return 0

