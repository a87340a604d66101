"""A table nobody is connected to is played at the hall's floor (``--unattended-pace``, 1 s
by default): its bots and 托管 decide at most once a second however fast its timing, and
anyone who connects (a seat's person or a watcher) lifts the floor at once. A table with every
timing at 0, played out by 托管 with its sockets closed, used to run a few hands a second
and keep a bot worker busy for nobody. And a player may not make a table whose bots take less
than ``--min-bot-time`` (0.5 s by default) over a turn: with its socket open (seated on 托管)
such a table ran as fast as the worker could play. Time is the hall's manual clock."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from hall_harness import Client, Hall, running_hall
from test_server_time import table_with_bots

from baida.server.tables.pace import MIN_BOT_TIME, UNATTENDED_PACE
from baida.server.web.settings import HallSettings
from baida.table import SeatMode

pytestmark = pytest.mark.anyio

# every timing at 0, as a player may ask; the person's own turn has no limit, so the table
# waits for them while they are there (the bots do not)
ZERO = {"pause": 0, "claim": 0, "turn": None, "bank": 0, "santan": 0, "bot_turn": 0,
        "bot_claim": 0, "between_hands": 0}
# the fastest a player may ask at the default --min-bot-time (no limit on the own turn)
FASTEST = {**ZERO, "bot_turn": 0.5, "santan": 0.5}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def count_decisions(hall: Hall, actor: Any) -> list[float]:
    """The clock's time of every bot decision the table hands out from now on."""
    times: list[float] = []
    start = actor._start_bot

    def counted(turn: Any) -> None:
        times.append(hall.clock.now())
        start(turn)

    actor._start_bot = counted
    return times


async def left_alone(hall: Hall) -> tuple[int, Any, list[float], Client]:
    """A one-hand table at full speed whose only person has closed their socket."""
    host = await Client(hall).guest()
    table_id = await table_with_bots(hall, host, hands=1, timing=ZERO)
    actor = hall.runtime.hall.get(table_id)
    assert actor is not None and actor.status == "playing"
    handed = count_decisions(hall, actor)
    await host.ws.close()
    await hall.quiet()
    return table_id, actor, handed, host


async def test_a_table_nobody_is_at_waits_the_floor_between_decisions(tmp_path: Path) -> None:
    assert UNATTENDED_PACE == 1.0
    async with running_hall(tmp_path) as hall:  # the hall's default floor
        table_id, actor, handed, host = await left_alone(hall)
        assert actor.driver.modes[0] == SeatMode.AUTO  # 托管 plays the seat of the one gone
        await hall.advance(10.0)
        # about one decision a second, never two within a second: N decisions took at
        # least (N - 1) seconds of the clock (before, the whole hand took none)
        assert 9 <= len(handed) <= 11, handed
        gaps = [b - a for a, b in zip(handed, handed[1:], strict=False)]
        assert min(gaps) >= UNATTENDED_PACE - 1e-9, gaps
        assert actor.status == "playing" and actor.driver.round is not None
        # a watcher comes: the rest of the hand is played at the table's own pace (at once)
        await hall.advance(0.5)
        now, before = hall.clock.now(), len(handed)
        watcher = await Client(hall).guest()
        await watcher.open(table_id)
        await hall.quiet([watcher])
        assert hall.clock.now() == now
        assert len(handed) > before + 3 and set(handed[before:]) == {now}
        assert actor.status == "waiting"  # the one-hand match is over
        await watcher.close()
        await host.http.aclose()


async def test_the_person_back_at_the_seat_lifts_the_floor(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        table_id, actor, handed, host = await left_alone(hall)
        await hall.advance(3.5)
        assert 3 <= len(handed) <= 4 and actor.status == "playing"
        now = hall.clock.now()
        back = Client(hall)
        back.http.cookies.update(host.http.cookies)
        back.me = host.me
        await back.open(table_id)
        await hall.quiet([back])
        # the seat is theirs again and the bots played on at once, up to the person's own
        # decision (a turn without a limit), or to the hand's end: nothing waits for the clock
        assert hall.clock.now() == now
        driver = actor.driver
        if actor.status == "playing":
            assert driver.modes[0] == SeatMode.PLAYER and 0 in driver.prompts
            assert driver.next_wakeup() is None
        await back.close()
        await host.http.aclose()


async def test_a_floor_of_0_leaves_the_table_its_own_pace(tmp_path: Path) -> None:
    async with running_hall(tmp_path, unattended_pace=0.0) as hall:
        _, actor, handed, host = await left_alone(hall)
        # nothing waits for the clock: the hand is played out at once
        assert actor.status == "waiting" and len(handed) > 10 and len(set(handed)) == 1
        await host.http.aclose()


# ------------------------------------------------------------------ the bots' least turn time


async def test_a_player_may_not_make_a_table_of_bots_faster_than_the_halls_least(
        tmp_path: Path) -> None:
    assert MIN_BOT_TIME == 0.5 and HallSettings().min_bot_time == MIN_BOT_TIME
    async with running_hall(tmp_path, min_bot_time=MIN_BOT_TIME) as hall:
        host = await Client(hall).guest()

        async def lobby() -> int:
            return len((await host.http.get("/api/tables")).json()["tables"])

        before = await lobby()
        # a decision whose time runs out goes to 托管 at once: a turn (with its bank) or a
        # 三摊 question shorter than the least is as fast as a bot
        for fast, named in (({"bot_turn": 0}, "timing.bot_turn"),
                            ({"bot_turn": 0.49}, "timing.bot_turn"),
                            ({"turn": 0}, "timing.turn"),
                            ({"turn": 0.2, "bank": 0.2}, "timing.turn"),
                            # the bank is spent after the first timeout of a hand
                            ({"turn": 0, "bank": 0.5}, "timing.turn"),
                            ({"santan": 0.1}, "timing.santan")):
            timing = {**FASTEST, **fast}
            r = await host.post("/api/tables", {"ruleset": "jiaxing", "hands": 1,
                                                "timing": timing})
            assert r.status_code == 400, (fast, r.text)
            said = r.json()["error"]
            assert named in said and "at least 0.5 seconds" in said, said
        # nothing was made: the host still has all three of their tables to make
        assert await lobby() == before
        for timing in (FASTEST, {**FASTEST, "turn": 0.5, "bank": 0}, {**FASTEST, "turn": 0.5}):
            r = await host.post("/api/tables", {"ruleset": "wenling", "hands": 1,
                                                "timing": timing})
            assert r.status_code == 201, r.text
        assert await lobby() == before + 3
        await host.http.aclose()


async def test_at_the_least_turn_time_a_watched_table_of_bots_takes_it_every_turn(
        tmp_path: Path) -> None:
    """Seated on 托管 with the socket open (the floor of a table nobody is at does not apply:
    the own turn's limit is the least, so 托管 takes the seat then), everything else at 0: a bot's
    or 托管's turn is never handed out sooner than 0.5 s after the one before, so a hand takes
    at least half a second a discard."""
    async with running_hall(tmp_path, min_bot_time=MIN_BOT_TIME) as hall:
        me = await Client(hall).guest()
        table_id = await table_with_bots(hall, me, hands=1, timing={
            **FASTEST, "turn": MIN_BOT_TIME})
        actor = hall.runtime.hall.get(table_id)
        assert actor is not None
        turns: list[float] = []
        start = actor._start_bot

        def counted(turn: Any) -> None:
            if turn.kind == "turn":
                turns.append(hall.clock.now())
            start(turn)

        actor._start_bot = counted
        await hall.advance(10.0, [me])
        assert actor.driver.modes[0] == SeatMode.AUTO and actor._attended()
        assert actor.status == "playing"
        assert 15 <= len(turns) <= 21, turns
        gaps = [b - a for a, b in zip(turns, turns[1:], strict=False)]
        assert min(gaps) >= MIN_BOT_TIME - 1e-9, gaps
        await me.close()


# ------------------------------------------------------------------ the flags

FLAGS = [("--unattended-pace", "unattended_pace", UNATTENDED_PACE, "0", 0.0),
         ("--min-bot-time", "min_bot_time", MIN_BOT_TIME, "0.2", 0.2)]


@pytest.mark.parametrize(("flag", "name", "default", "given", "value"), FLAGS,
                         ids=[f[0] for f in FLAGS])
def test_serve_takes_the_floors_and_gives_them_to_every_node(
        flag: str, name: str, default: float, given: str, value: float) -> None:
    from baida.server.serve_cli import add_arguments, node_flags, settings_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert getattr(settings_from(parser.parse_args([])), name) == default
    args = parser.parse_args(["--nodes", "2", flag, given])
    assert getattr(settings_from(args), name) == value
    flags = node_flags(args)
    assert float(flags[flags.index(flag) + 1]) == value


@pytest.mark.parametrize("value", ["-1", "61", "nan"])
@pytest.mark.parametrize("flag", [f[0] for f in FLAGS])
def test_serve_refuses_a_floor_out_of_range(flag: str, value: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from baida.cli import main

    assert main(["serve", flag, value]) == 2
    assert flag in capsys.readouterr().err
