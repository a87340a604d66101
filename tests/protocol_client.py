"""A client of the hall written from ``docs/protocol.md`` alone: it imports nothing of
``baida`` (the standard library, httpx and websockets only), so what it needs to know is
what the document says. It takes a guest account, makes a table, sits, fills the other seats
with bots, gets ready and plays the match to its end, answering every prompt by a fixed rule,
and checks on the way what the document promises: the order of messages, each seat's own
prompt numbers, acks that echo ids, events without gaps, its own tiles followed from the
events (the dealer's deal including its drawn tile), and a settlement that sums to zero."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect


class ProtocolBroken(AssertionError):
    """The hall did something the protocol document says it does not."""


def expect(ok: bool, what: str) -> None:
    if not ok:
        raise ProtocolBroken(what)


@dataclass
class Seat:
    """What the client knows of its own seat and the hand in play."""

    seat: int | None = None
    tiles: list[str] = field(default_factory=list)  # my concealed tiles (the drawn one too)
    next_index: int = 0  # the next event index I expect
    last_seq: int | None = None  # my last prompt's number
    prompt: dict[str, Any] | None = None  # my open prompt
    hands_done: int = 0
    totals: list[int] | None = None
    match_over: bool = False
    snapshots: int = 0
    acts: int = 0
    acks: int = 0
    log: list[str] = field(default_factory=list)  # message types, in order

    def remove(self, tile: str, count: int = 1) -> None:
        for _ in range(count):
            expect(tile in self.tiles, f"my event removes {tile} I do not hold: {self.tiles}")
            self.tiles.remove(tile)

    def event(self, e: dict[str, Any]) -> None:
        """Follow my own tiles through one event (docs: Server messages, events)."""
        if e["seat"] != self.seat:
            return
        kind = e["type"]
        if kind == "deal":
            expect(e["tiles"] is not None and len(e["tiles"]) == e["count"],
                   "my deal shows my tiles, count of them")
            if e["drawn"] is not None:  # the dealer: the drawn tile is among the tiles
                expect(e["drawn"] in e["tiles"], "the dealer's tiles include its drawn tile")
            self.tiles = list(e["tiles"])
        elif kind == "draw":
            expect(e["tile"] is not None, "my own draw shows its tile")
            self.tiles.append(e["tile"])
        elif kind in ("discard", "bukong", "flower"):
            self.remove(e["tile"])
        elif kind == "akong":
            self.remove(e["tile"], 4)
        elif kind in ("chi", "pon", "mkong"):
            mine = list(e["meld"]["tiles"])
            mine.remove(e["tile"])  # the claimed tile was the discarder's
            for tile in mine:
                self.remove(tile)


async def play_match(base: str, ruleset: str, config: dict[str, Any],
                     idle_seconds: float = 60.0) -> Seat:
    """Play a whole match at a new table of ``config`` (three bots); returns what was seen
    (gives up when the hall says nothing for ``idle_seconds``)."""
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/guest")
        expect(r.status_code == 201, f"/api/guest: {r.status_code} {r.text}")
        me = r.json()["me"]  # the account is wrapped in {"me": ...}
        expect({"id", "name", "guest", "role", "balance", "csrf"} <= set(me), f"me: {me}")
        r = await http.get("/api/me")
        expect(r.json()["me"]["id"] == me["id"], "/api/me answers {\"me\": account}")
        headers = {"X-CSRF-Token": me["csrf"]}
        r = await http.post("/api/tables", json={"ruleset": ruleset, **config},
                            headers=headers)
        expect(r.status_code == 201, f"POST /api/tables: {r.status_code} {r.text}")
        table = r.json()["table"]
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        ws_url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        state = Seat()
        async with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            while not state.match_over:
                try:
                    raw = await asyncio.wait_for(ws.recv(), idle_seconds)
                except TimeoutError:
                    raise ProtocolBroken(f"nothing for {idle_seconds} s after "
                                         f"{state.log[-10:]}") from None
                for reply in handle(state, me["id"], json.loads(raw)):
                    await ws.send(json.dumps(reply))
        expect(state.match_over, "the match did not end")
        r = await http.get("/api/me/hands")
        hands = r.json()["hands"]
        expect(len(hands) == state.hands_done and all(h["seat"] == state.seat for h in hands),
               f"/api/me/hands: {hands}")
    return state


def handle(state: Seat, my_id: int, m: dict[str, Any]) -> list[dict[str, Any]]:
    """One message from the hall; the messages to send back."""
    kind = m["type"]
    state.log.append(kind)
    out: list[dict[str, Any]] = []
    if kind == "welcome":
        expect(len(state.log) == 1, "welcome comes first")
        expect(m["protocol"] == 1 and m["user"]["id"] == my_id, f"welcome: {m}")
        out.append({"type": "sit", "seat": None})
    elif kind == "table":
        seats = m["table"]["seats"]
        mine = [s for s in seats if s["user"] == my_id]
        if mine and m["table"]["status"] == "waiting":
            state.seat = mine[0]["seat"]
            if any(s["kind"] == "empty" for s in seats):
                out.append({"type": "add_bots"})
            elif not mine[0]["ready"]:
                out.append({"type": "ready"})  # four seats and everyone ready: it starts
    elif kind == "events":
        expect(m["index"] == state.next_index, f"events from {m['index']}, "
               f"expected {state.next_index}")
        for e in m["events"]:
            if e["type"] == "hand_start":
                state.tiles = []
            state.event(e)
        state.next_index = m["index"] + len(m["events"])
    elif kind == "snapshot":
        state.snapshots += 1
        view = m["view"]
        expect(view["seat"] == state.seat, "a snapshot of my seat")
        if not m["resync"]:  # a deal: its events and the dealer's prompt came first
            expect(m["event_index"] == state.next_index, "the deal's snapshot follows its events")
            mine = sorted(view["players"][state.seat]["concealed"])
            expect(mine == sorted(state.tiles), f"snapshot {mine} vs followed {state.tiles}")
        if m["prompt"] is not None:
            expect(state.prompt is not None and state.prompt["seq"] == m["prompt"]["seq"],
                   "the snapshot repeats the prompt just sent")
    elif kind == "prompt":
        expect(state.last_seq is None or m["seq"] == state.last_seq + 1,
               f"my prompts are numbered one by one: {state.last_seq} then {m['seq']}")
        state.last_seq = m["seq"]
        state.prompt = m
        out.append(answer(state, m))
        state.acts += 1
    elif kind == "ack":
        expect(state.prompt is not None and m["seq"] == state.prompt["seq"]
               and m["id"] == f"a{m['seq']}", f"ack {m} echoes my act")
        state.acks += 1
        state.prompt = None
    elif kind == "prompt_closed":
        expect(m["reason"] == "timeout", f"prompt_closed: {m}")
        state.prompt = None
    elif kind == "refused":  # a ready or add_bots that crossed the start is refused: fine
        expect(m["id"] is None, f"an answer of mine was refused: {m}")
    elif kind == "hand_result":
        state.hands_done += 1
        state.next_index = 0  # the next hand's events count from 0
        state.totals = m["totals"]
        state.match_over = m["match_over"]
        if not m["match_over"]:
            out.append({"type": "ready"})
    elif kind == "error":
        raise ProtocolBroken(f"the hall closes the connection: {m}")
    return out


def answer(state: Seat, prompt: dict[str, Any]) -> dict[str, Any]:
    """Win when offered, else pass a window, 坚持 (continue) when asked; on a turn, discard
    a tile I hold (the last one drawn if it may go)."""
    offered = prompt["actions"]
    types = [a["type"] for a in offered]
    pick = None
    for wanted in ("win", "lazi", "pass", "continue"):
        if wanted in types:
            pick = offered[types.index(wanted)]
            break
    if pick is None:
        discards = [a for a in offered if a["type"] == "discard"]
        expect(bool(discards), f"a turn offers discards: {offered}")
        for a in discards:
            expect(a["tile"] in state.tiles, f"offered to discard {a['tile']} I do not hold")
        last = state.tiles[-1] if state.tiles else None
        pick = next((a for a in discards if a["tile"] == last), discards[0])
    return {"type": "act", "seq": prompt["seq"], "action": pick, "id": f"a{prompt['seq']}"}
