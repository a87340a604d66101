"""``baida client`` against a real hall in this process: ``--auto`` plays a whole match to its
end, and the keyboard of the interactive mode never holds up the table's messages.

The client runs in a thread of its own (its lobby requests block, as a terminal program's
may); the tests wait for it by polling while the hall, in the test's event loop, works."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, Hall, running_hall
from test_server_play import player

from baida.cli import main
from baida.client.play import HandTracker, run_client
from baida.server.tables.config import TableConfig

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Output:
    """Everything the client printed so far (pytest's capture of stdout)."""

    def __init__(self, capsys: Any) -> None:
        self.capsys = capsys
        self.text = ""

    def __call__(self) -> str:
        self.text += self.capsys.readouterr().out
        return self.text


async def wait_for(hall: Hall, clients: list[Client], done: Callable[[], Any], what: str,
                   client: asyncio.Task[Any], out: Output, rounds: int = 2000) -> None:
    """Let the hall work until ``done()``; the client thread runs at its own pace, so each
    round also yields a few milliseconds to it."""
    for _ in range(rounds):
        if done():
            return
        if client.done():  # it stopped: show why
            raise AssertionError(f"the client ended ({client.result()}) before {what}:\n"
                                 f"{out()[-1500:]}")
        await hall.quiet(clients)
        await asyncio.sleep(0.005)
    raise AssertionError(f"never happened: {what}:\n{out()[-1500:]}")


async def test_baida_client_auto_plays_a_match_to_the_end(tmp_path: Path, capsys: Any) -> None:
    async with running_hall(tmp_path) as hall:
        me = Client(hall)
        r = await me.http.post("/api/register", json={"name": "阿明", "password": "long enough"})
        assert r.status_code == 201, r.text
        me.me = r.json()["me"]
        # the quick-play table the client will be given, made instant for the test
        table = (await me.post("/api/quickplay", {"ruleset": "wenling"})).json()["table"]
        actor = hall.runtime.hall.get(table["id"])
        actor.config = TableConfig.from_json({**actor.config.to_json(), "timing": INSTANT})
        argv = ["client", "--url", hall.base, "--ruleset", "wenling", "--name", "阿明",
                "--password", "long enough", "--auto"]
        code = await asyncio.wait_for(asyncio.to_thread(main, argv), 120)
        out = capsys.readouterr().out
        assert code == 0, out
        assert re.findall(r"^hand (\d) over", out, re.M) == ["1", "2", "3", "4"]
        totals = re.search(r"^match over: totals by seat \[(.*)\]$", out, re.M)
        assert totals is not None and sum(int(t) for t in totals.group(1).split(",")) == 0
        stored = (await me.http.get("/api/me/hands")).json()["hands"]
        assert len(stored) == 4 and {h["table_id"] for h in stored} == {table["id"]}
        await me.close()


async def test_the_keyboard_never_holds_up_the_table(tmp_path: Path, capsys: Any,
                                                    monkeypatch: Any) -> None:
    read, write = os.pipe()
    keys = os.fdopen(write, "w", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", os.fdopen(read, "r", encoding="utf-8"))
    out = Output(capsys)
    async with running_hall(tmp_path) as hall:
        friend = await Client(hall).guest()
        timing = {**INSTANT, "turn": 8.0, "bank": 4.0}
        r = await friend.post("/api/tables", {"ruleset": "jiaxing", "hands": 1,
                                              "timing": timing})
        table_id = r.json()["table"]["id"]
        friend.on_message = player(HandTracker())
        await friend.open(table_id)
        await friend.send({"type": "sit", "seat": 1})
        await hall.quiet([friend])
        await friend.send({"type": "ready"})
        await hall.quiet([friend])
        actor = hall.runtime.hall.get(table_id)
        client = asyncio.create_task(asyncio.to_thread(
            run_client, hall.base, ruleset="jiaxing", auto=False, table=table_id, room=None,
            name=None, password=None))
        try:
            # the client sits (seat 0), brings bots, and is asked something: it waits for us
            await wait_for(hall, [friend], lambda: actor.driver is not None
                           and 0 in actor.driver.prompts and out().endswith("> "),
                           "a prompt at the terminal", client, out)
            prompt = actor.driver.prompts[0].to_json(hall.clock.now())
            asked = re.compile(r"  (your turn|a discard|a kong|三摊|your decision) · ")
            header = [line for line in out().splitlines() if asked.match(line)][-1]
            if prompt["kind"] == "turn":
                assert header.endswith("your turn · 8 s (then 4 s of time bank)"), header
            else:
                assert header.endswith("no time limit"), header
            # while nobody types, the table goes on talking and the client goes on listening
            await friend.send({"type": "chat", "text": "快点吧"})
            await wait_for(hall, [friend], lambda: "快点吧" in out(), "the chat shown", client,
                           out)
            assert 0 in actor.driver.prompts  # still undecided
            # then a line typed answers the prompt
            discards = [a for a in prompt["actions"] if a["type"] == "discard"]
            listed = [a for a in prompt["actions"] if a["type"] != "discard"]
            passing = [i for i, a in enumerate(listed, 1) if a["type"] == "pass"]
            keys.write("\n" if discards else f"{passing[0] if passing else 1}\n")
            keys.flush()
            seq = prompt["seq"]
            await wait_for(hall, [friend], lambda: getattr(actor.driver.prompts.get(0), "seq",
                                                           None) != seq, "the answer taken",
                           client, out)
        finally:
            keys.close()  # the end of the input: the client leaves at its next prompt
        code = await asyncio.wait_for(client, 60)
        assert code == 0
        text = out()
        assert "not one of the choices" not in text
        assert "you left the table" in text or "match over" in text
        await friend.close()
