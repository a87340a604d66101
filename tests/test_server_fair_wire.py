"""What a seat receives does not depend on what the other seats could do: four people play a
hand over real sockets twice, from two deals that differ only in seat 2's hand (in one it
holds a pair of the dealer's first discard and is asked whether to 碰, in the other it is
not), and every other seat receives the same frames, prompt numbers and times included,
in both, up to the end that reveals the hands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import Client, Hall, running_hall

from baida.engine.wall import wall_from_deal
from baida.table import TableDriver
from baida.tiles import parse_tiles

pytestmark = pytest.mark.anyio

# dealer first; seat 2's hand is the deal's variable, the tile it does not hold in the deal
# is the wall's second last, so every other draw is the same
HANDS = ["123m456m789m123s E", "123m456m789m456s S", "", "123m456m789m23s C F"]
SEAT2 = {"window": ("55p123p789p789s W N", "C"), "no_window": ("5pC123p789p789s W N", "5p")}
TIMING = {"pause": 1.0, "claim": 4.0, "turn": 12.0, "bank": 20.0, "santan": 10.0,
          "bot_turn": 0.9, "bot_claim": 0.5, "between_hands": None}
NAMES = ["东家", "南家", "西家", "北家"]
PREFER = ("N W S E F P 9s 8s 7s 6s 5s 4s 3s 2s 1s 9p 8p 7p 6p 4p 3p 2p 1p "
          "9m 8m 7m 6m 5m 4m 3m 2m 1m C 5p").split()
FIRST = [["5p"], [], [], []]  # the dealer discards its 5p first


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def deal(variant: str) -> list[int]:
    seat2, tail = SEAT2[variant]
    hands = [parse_tiles(h or seat2) for h in HANDS]
    return wall_from_deal("jiaxing", hands, tail=parse_tiles(tail), indicator="9s",
                          dealer_extra="5p")


def fixed_order() -> Any:
    """A player that passes every window, 坚持s, and discards its first tile in ``PREFER``
    (decided from its own frames only). Seat 2 keeps the deals' difference (a C or a second
    5p) to the last; once it draws the other one, its hand is the same in both deals."""

    async def on_message(client: Client, message: dict[str, Any]) -> None:
        if message["type"] != "prompt":
            return
        offered = message["actions"]
        pick = next((a for a in offered if a["type"] in ("pass", "continue")), None)
        if pick is None:
            discards = [a for a in offered if a["type"] == "discard"]
            order = FIRST[client.me["seat"]] + PREFER
            pick = min(discards, key=lambda a: order.index(a["tile"]))
        await client.send({"type": "act", "seq": message["seq"], "action": pick,
                           "id": f"s{client.me['seat']}-{message['seq']}"})

    return on_message


async def play(tmp: Path, variant: str, uniform: bool,
               monkeypatch: pytest.MonkeyPatch) -> list[list[dict[str, Any]]]:
    """Every seat's messages from its hello to the hand's end, for one deal."""
    wall = deal(variant)

    def start_hand(self: TableDriver, seed: bytes, now: float) -> Any:
        return self.start_hand_from_wall(wall, (1, 2), now)

    monkeypatch.setattr(TableDriver, "start_hand", start_hand)
    async with running_hall(tmp) as hall:
        clients = []
        for seat, name in enumerate(NAMES):
            c = Client(hall)
            r = await c.http.post("/api/register", json={"name": name, "password": "long enough"})
            assert r.status_code == 201, r.text
            c.me = {**r.json()["me"], "seat": seat}
            clients.append(c)
        timing = {**TIMING, "uniform_window": uniform}
        r = await clients[0].post("/api/tables", {"ruleset": "jiaxing", "hands": 1,
                                                  "timing": timing})
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        for seat, c in enumerate(clients):
            c.on_message = fixed_order()
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            await hall.quiet(clients)
        for c in clients:
            await c.send({"type": "ready"})
            await hall.quiet(clients)
        await until_hand_end(hall, clients)
        logs = [list(c.log) for c in clients]
        for c in clients:
            await c.close()
    return logs


def ended(log: list[dict[str, Any]]) -> bool:
    return any(m["type"] == "events" and any(e["type"] == "hand_end" for e in m["events"])
               for m in log)


async def until_hand_end(hall: Hall, clients: list[Client]) -> None:
    for _ in range(400):
        if all(ended(c.log) for c in clients):
            return
        await hall.advance(5.0, clients)
    raise AssertionError("the hand did not end")


def before_the_end(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages before the one that reveals every hand (hand_end)."""
    for i, m in enumerate(log):
        if m["type"] == "events" and any(e["type"] == "hand_end" for e in m["events"]):
            return log[:i]
    raise AssertionError("no hand_end")


def first_claims(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in log if m["type"] == "prompt" and m["kind"] == "claim"]


@pytest.mark.parametrize("uniform", [False, True], ids=["pause", "uniform_window"])
async def test_a_seat_hears_the_same_whether_or_not_another_could_claim(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, uniform: bool
) -> None:
    window = await play(tmp_path / "a", "window", uniform, monkeypatch)
    none = await play(tmp_path / "b", "no_window", uniform, monkeypatch)
    # the deals are what they should be: seat 2 was asked about the dealer's 5p in one only
    asked = first_claims(window[2])
    assert asked and {"type": "pon"} in asked[0]["actions"]
    assert len(first_claims(none[2])) < len(asked)
    for seat in (0, 1, 3):
        seen, other = before_the_end(window[seat]), before_the_end(none[seat])
        prompts = [m["seq"] for m in seen if m["type"] == "prompt"]
        assert len(prompts) > 10 and prompts == list(range(1, len(prompts) + 1)), prompts
        assert len(seen) > 50
        assert seen == other, f"seat {seat} could tell the deals apart"
    # and the hand went on the same for everyone: seat 2 hears its own window only
    assert len(before_the_end(window[2])) > len(before_the_end(none[2]))


async def test_the_pause_counts_from_the_discard_going_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow store (each write of actions takes 0.3 s of the table's clock) holds a discard
    back until it is stored; the next draw still comes a whole pause after the discard
    reached the seats, never a pause less the write, so the pace says nothing about what
    happened in between (a window's answers are written too)."""
    async with running_hall(tmp_path) as hall:
        me = Client(hall)
        r = await me.http.post("/api/register", json={"name": "东家", "password": "long enough"})
        me.me = {**r.json()["me"], "seat": 0}
        heard: list[tuple[float, dict[str, Any]]] = []
        policy = fixed_order()

        async def on_message(client: Client, message: dict[str, Any]) -> None:
            if message["type"] == "events":
                heard.extend((hall.clock.now(), e) for e in message["events"])
            elif message["type"] == "hand_result" and not message["match_over"]:
                await client.send({"type": "ready"})  # the next hand
            await policy(client, message)

        me.on_message = on_message
        # hands enough for 20 discards followed by a draw (a quick win ends a hand early)
        r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 4, "timing": TIMING})
        table_id = r.json()["table"]["id"]
        db = hall.runtime.hall.get(table_id).db
        store = db.append_actions

        async def slow_store(hand_id: int, rows: list[Any]) -> None:
            hall.clock.advance(0.3)
            await store(hand_id, rows)

        monkeypatch.setattr(db, "append_actions", slow_store)
        await me.open(table_id)
        await me.send({"type": "sit", "seat": 0})
        await hall.quiet([me])
        await me.send({"type": "add_bots"})
        await me.send({"type": "ready"})

        def gaps() -> list[float]:
            return [round(later[0] - at, 6) for (at, e), later in zip(heard, heard[1:],
                                                                      strict=False)
                    if e["type"] == "discard" and later[1]["type"] == "draw"]

        for _ in range(800):
            if len(gaps()) > 20:
                break
            await hall.advance(2.0, [me])
        assert len(gaps()) > 20, len(gaps())
        assert set(gaps()) == {TIMING["pause"]}, sorted(set(gaps()))
        await me.close()


class _Loop:
    """A loop's timers, by hand: what ``LoopClock`` asks of it."""

    def __init__(self) -> None:
        self.t = 100.0
        self.timers: list[list[Any]] = []  # [when, callback, cancelled]

    def time(self) -> float:
        return self.t

    def call_at(self, when: float, callback: Any) -> Any:
        timer = [when, callback, False]
        self.timers.append(timer)

        class Handle:
            def cancel(self) -> None:
                timer[2] = True

        return Handle()

    def run_until(self, t: float) -> None:
        while True:
            due = sorted((x for x in self.timers if not x[2] and x[0] <= t), key=lambda x: x[0])
            if not due:
                break
            self.t = max(self.t, due[0][0])
            self.timers.remove(due[0])
            due[0][1]()
        self.t = t


def test_a_far_timer_is_set_in_two_steps_the_last_one_short() -> None:
    """The loop's last sleep before a table's timer is at most ``LAST_STEP`` long, however
    far the timer was set (the kernel's slack grows with the length of a sleep)."""
    from baida.server.tables.clock import LAST_STEP, LoopClock

    loop = _Loop()
    clock = LoopClock()
    clock._loop = loop  # type: ignore[assignment]
    fired: list[float] = []
    clock.call_at(102.0, lambda: fired.append(loop.t))
    assert [t[0] for t in loop.timers] == [102.0 - LAST_STEP]  # only the first step
    loop.run_until(101.99)
    assert [t[0] for t in loop.timers] == [102.0] and not fired
    loop.run_until(102.5)
    assert fired == [102.0]
    clock.call_at(102.51, lambda: fired.append(loop.t))  # near: one step
    assert [t[0] for t in loop.timers] == [102.51]
    loop.run_until(103.0)
    # cancelled before either step, and between the steps: never fires
    early = clock.call_at(105.0, lambda: fired.append(-1.0))
    early.cancel()
    late = clock.call_at(106.0, lambda: fired.append(-2.0))
    loop.run_until(105.99)
    late.cancel()
    loop.run_until(110.0)
    assert fired == [102.0, 102.51]


def test_uniform_window_answers_close_before_the_window_ends() -> None:
    from baida.table import TableTiming

    assert TableTiming(claim=2.0, uniform_window=True).limit("claim") == 1.75
    assert TableTiming(claim=2.0, uniform_window=True).after_discard == 2.0
    assert TableTiming(claim=0.4, uniform_window=True).limit("rob") == pytest.approx(0.3)
    assert TableTiming(claim=2.0).limit("claim") == 2.0  # the plain pause: the whole window


async def test_a_last_moment_answer_does_not_delay_the_uniform_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 2 may 碰 the dealer's first discard and passes at the last moment its prompt
    allows; storing the pass takes 0.2 s. The draw still comes exactly one window after the
    discard reached the others, as when nobody could claim."""
    wall = deal("window")
    monkeypatch.setattr(TableDriver, "start_hand",
                        lambda self, seed, now: self.start_hand_from_wall(wall, (1, 2), now))
    timing = {**TIMING, "uniform_window": True}
    async with running_hall(tmp_path) as hall:
        clients = []
        for seat, name in enumerate(NAMES):
            c = Client(hall)
            r = await c.http.post("/api/register", json={"name": name, "password": "long enough"})
            c.me = {**r.json()["me"], "seat": seat}
            clients.append(c)
        r = await clients[0].post("/api/tables", {"ruleset": "jiaxing", "hands": 1,
                                                  "timing": timing})
        table_id = r.json()["table"]["id"]
        db = hall.runtime.hall.get(table_id).db
        store = db.append_actions

        async def slow_store(hand_id: int, rows: list[Any]) -> None:
            hall.clock.advance(0.2)
            await store(hand_id, rows)

        monkeypatch.setattr(db, "append_actions", slow_store)
        heard: list[tuple[float, dict[str, Any]]] = []
        policy = fixed_order()

        async def watcher(client: Client, message: dict[str, Any]) -> None:
            if message["type"] == "events":
                heard.extend((hall.clock.now(), e) for e in message["events"])
            await policy(client, message)

        for seat, c in enumerate(clients):
            c.on_message = watcher if seat == 1 else (None if seat == 2 else fixed_order())
            await c.open(table_id)
            await c.send({"type": "sit", "seat": seat})
            await hall.quiet(clients)
        for c in clients:
            await c.send({"type": "ready"})
            await hall.quiet(clients)
        for _ in range(100):
            if clients[2].of_type("prompt"):
                break
            await hall.advance(0.01, clients)
        prompt = clients[2].last("prompt")
        assert prompt["kind"] == "claim" and prompt["time_ms"] == 3750
        await hall.advance(prompt["time_ms"] / 1000 - 0.01, clients)
        await clients[2].send({"type": "act", "seq": prompt["seq"], "action": {"type": "pass"}})
        await hall.quiet(clients)
        assert clients[2].last("ack")["seq"] == prompt["seq"]
        await hall.advance(1.0, clients)
        at = next(t for t, e in heard if e["type"] == "discard")
        drew = next(t for t, e in heard if e["type"] == "draw")
        assert round(drew - at, 6) == TIMING["claim"]
        for c in clients:
            await c.close()
