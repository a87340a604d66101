"""The table loop of ``baida client``: follow the hand, answer prompts, until the match ends."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from ..engine.describe import describe_event
from ..tiles import parse_tile
from .keyboard import Keyboard, Quit
from .session import PROTOCOL, HallSession

# picks one of a prompt's actions, at once (``auto_choice``) or after a wait (the keyboard)
Chooser = Callable[
    ["HandTracker", dict[str, Any]], dict[str, Any] | Awaitable[dict[str, Any]]
]


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
            self.drawn = event.get("drawn")  # the dealer's extra tile (null for the others)
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
    """A fixed rule: a 腊子, else win, else pass or 坚持, else discard the tile just drawn."""
    actions = prompt["actions"]
    for kind in ("lazi", "win", "pass", "continue"):
        for action in actions:
            if action["type"] == kind:
                return action
    for action in actions:
        if action["type"] == "discard" and action.get("tile") == tracker.drawn:
            return action
    discards = [a for a in actions if a["type"] == "discard"]
    return discards[-1] if discards else actions[0]


def _time_left(prompt: dict[str, Any], since: float) -> str:
    """The prompt's deadline as a person reads it, ``since`` (loop time) it arrived."""
    free, bank = prompt.get("time_ms"), prompt.get("bank_ms")
    if free is None:
        return "no time limit"
    elapsed = asyncio.get_running_loop().time() - since
    free_left = max(0.0, free / 1000 - elapsed)
    bank_left = (bank or 0) / 1000 - max(0.0, elapsed - free / 1000)
    text = f"{free_left:.0f} s"
    if bank_left > 0:
        text += f" (then {bank_left:.0f} s of time bank)"
    return text


def keyboard_chooser(keyboard: Keyboard, out: Any = None) -> Chooser:
    """Ask at the terminal: a number from the list, or a tile to discard (``5m``); ``q``
    leaves. The wait for a line does not hold up the table's messages."""

    async def choose(tracker: HandTracker, prompt: dict[str, Any]) -> dict[str, Any]:
        stream = out if out is not None else sys.stdout
        since = asyncio.get_running_loop().time()
        actions = prompt["actions"]
        kind = {"turn": "your turn", "claim": "a discard you may claim",
                "rob": "a kong you may rob", "santan": "三摊: go on or give up"}.get(
                    prompt.get("kind"), "your decision")
        print(f"  {kind} · {_time_left(prompt, since)}", file=stream)
        print(f"  your hand: {tracker.show()}", file=stream)
        listed = [a for a in actions if a["type"] != "discard"]
        for i, action in enumerate(listed, 1):
            print(f"  {i}. {_label(action)}", file=stream)
        discards = [a for a in actions if a["type"] == "discard"]
        if discards:
            tiles = " ".join(a["tile"] for a in discards)
            print(f"  or type a tile to discard ({tiles}); Enter discards the drawn one",
                  file=stream)
        print("> ", end="", file=stream, flush=True)
        keyboard.forget()
        reminder = None
        if prompt.get("time_ms") is not None and prompt.get("bank_ms"):
            # when the free time is over, say so: the bank is running now
            reminder = asyncio.get_running_loop().call_later(
                prompt["time_ms"] / 1000, lambda: print(
                    f"\n  ⏳ time bank: {_time_left(prompt, since)}\n> ", end="", file=stream,
                    flush=True))
        try:
            while True:
                answer = await keyboard.line()
                answer = "q" if answer is None else answer.strip()
                if answer in ("q", "quit"):
                    raise Quit
                if not answer and discards:
                    return auto_choice(tracker, {"actions": discards})
                if answer.isdigit() and 1 <= int(answer) <= len(listed):
                    return listed[int(answer) - 1]
                for action in discards:
                    if action.get("tile") == answer:
                        return action
                print(f"  not one of the choices · {_time_left(prompt, since)}", file=stream)
                print("> ", end="", file=stream, flush=True)
        finally:
            if reminder is not None:
                reminder.cancel()

    return choose


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
                     out: Any = None, seat: int | None = None) -> list[int] | None:
    """Sit at ``table_id``, fill it with bots, play the match; returns the final totals (None
    if the hall closed the connection). A decision runs beside the reading of the socket, so
    events, chat and the deadline keep coming while the player thinks; ``Quit`` leaves."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, ConnectionClosedError

    stream = out if out is not None else sys.stdout
    tracker = HandTracker()
    headers = {"Cookie": session.cookie}
    deciding: asyncio.Task[None] | None = None
    deciding_seq: int | None = None
    quit_: list[Quit] = []

    async with connect(session.socket_url(table_id), additional_headers=headers,
                       max_size=2**22) as ws:

        async def decide(message: dict[str, Any]) -> None:
            try:
                action = choose(tracker, message)
                if inspect.isawaitable(action):
                    action = await action
            except Quit as exc:
                quit_.append(exc)
                await ws.close()
                return
            with contextlib.suppress(ConnectionClosed):  # the table closed meanwhile
                await ws.send(json.dumps({"type": "act", "seq": message["seq"],
                                          "action": action}))

        def say(line: str) -> None:
            """A line from the table; while the player is asked, the prompt stays below it."""
            asking = deciding is not None and not deciding.done()
            print(("\n" if asking else "") + line, file=stream, end="\n> " if asking else "\n",
                  flush=asking)

        def stop_deciding() -> None:
            nonlocal deciding, deciding_seq
            if deciding is not None and not deciding.done():
                deciding.cancel()
            deciding, deciding_seq = None, None

        await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL}))
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message["type"]
                if kind == "welcome":
                    if message["seat"] is None:
                        await ws.send(json.dumps({"type": "sit", "seat": seat}))
                elif kind == "table":
                    table = message["table"]
                    me = (session.me or {}).get("id")
                    mine = [s for s in table["seats"] if s["user"] == me]
                    if mine:
                        tracker.seat = mine[0]["seat"]  # its own events count from now on
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
                            say(line)
                    tracker.next_index = message["index"] + len(message["events"])
                elif kind == "prompt":
                    stop_deciding()
                    deciding = asyncio.create_task(decide(message))
                    deciding_seq = message["seq"]
                elif kind == "prompt_closed" and message["seq"] == deciding_seq:
                    stop_deciding()
                    print("\n  time's up: 托管 plays this one", file=stream)
                elif kind == "chat":
                    said = message.get("text") or f"[{message.get('phrase')}]"
                    say(f"  💬 {message.get('name')}: {said}")
                elif kind == "refused":
                    say(f"refused: {message['message']}")
                elif kind == "hand_result":
                    print(f"hand {message['number']} over; totals {message['totals']}",
                          file=stream)
                    if message["match_over"]:
                        return list(message["totals"])
                    await ws.send(json.dumps({"type": "ready"}))
                elif kind == "seat_mode" and message["seat"] == tracker.seat:
                    if message["mode"] == "auto":
                        stop_deciding()
                        print("托管: a bot plays for you; taking the seat back", file=stream)
                        await ws.send(json.dumps({"type": "resume"}))
                elif kind == "error":
                    print(f"the hall closed the connection: {message['message']}", file=stream)
                    return None
        except ConnectionClosedError as exc:
            print(f"the connection to the hall was lost ({exc.rcvd.reason if exc.rcvd else exc})",
                  file=stream)
            return None
        finally:
            stop_deciding()
    if quit_:
        raise quit_[0]
    return None


def run_client(base: str, *, ruleset: str, auto: bool, table: int | None, room: str | None,
               name: str | None, password: str | None) -> int:
    session = HallSession(base.rstrip("/"))
    session.sign_in(name, password)
    if room:
        table = session.request("POST", "/api/rooms", {"code": room})["table"]["id"]
    elif table is None:
        table = session.request("POST", "/api/quickplay", {"ruleset": ruleset})["table"]["id"]
    choose = auto_choice if auto else keyboard_chooser(Keyboard())
    try:
        totals = asyncio.run(play_table(session, table, choose))
    except Quit:
        print("you left the table (托管 plays your seat until you come back)")
        return 0
    if totals is None:
        return 1
    print(f"match over: totals by seat {totals}")
    return 0

