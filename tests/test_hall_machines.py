"""A hall on several machines (``tests/machines.py``: network namespaces, a node in each, the
machine's PostgreSQL, a Redis, HAProxy from Debian in front with ``deploy/haproxy.cfg``):
four people at one table, each entering through a different door, play a hand to its end;
the node that owns the table is killed (-9) mid-hand and the hand ends on another node while
another table plays on untouched; the ledger balances, every hand paid once; then a node is
drained during play, its table moves between hands, and it is stopped and started again."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hall_harness import Client
from test_server_kill import FAST, until

from baida.server.store import Store
from bench.machines import Machines, machines_problem

pytestmark = [pytest.mark.anyio, pytest.mark.alone]
PROBLEM = machines_problem()
if PROBLEM is not None:
    pytest.skip(f"hosts cannot be made here: {PROBLEM}", allow_module_level=True)

# the people answer at once but the table paces itself, so a hand lasts several seconds
TIMING = {**FAST, "pause": 0.15}
SILENCE = 6.0  # seconds without a message after which a person gives a connection up


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Person:
    """Someone at a table who enters through ``doors`` (the first one, else the next), plays
    every prompt, says ready between hands, and reconnects after a drop as the page does."""

    def __init__(self, doors: list[str]) -> None:
        self.doors = doors
        self.client = self._client(doors[0])
        self.table: int | None = None
        self.drops = 0
        self.moving = 0  # "the table is moving" answers while reconnecting
        self.heard = time.monotonic()  # the last message (a silent table is given up)
        self._keeper: asyncio.Task[None] | None = None

    @staticmethod
    def _client(base: str) -> Client:
        return Client(SimpleNamespace(base=base, ws_base=base.replace("http", "ws", 1)))  # type: ignore[arg-type]

    async def sign_in(self) -> Person:
        await self.client.guest()
        return self

    def on_message(self, client: Client, message: dict[str, Any]) -> Any:
        self.heard = time.monotonic()
        if message["type"] == "prompt":
            acts = message["actions"]
            choice = next((a for a in acts if a["type"] in ("win", "pass", "continue")),
                          acts[-1])
            return client.send({"type": "act", "seq": message["seq"], "action": choice})
        if message["type"] == "hand_result" and not message.get("match_over"):
            return client.send({"type": "ready"})
        return None

    async def open(self, table: int) -> None:
        self.table = table
        self.client.on_message = self.on_message
        await self._connect()
        self._keeper = asyncio.create_task(self._keep())

    async def _connect(self) -> None:
        """Open the table's socket through the first door that answers with a welcome."""
        deadline = time.monotonic() + 40
        attempt = 0
        while True:
            door = self.doors[attempt % len(self.doors)] if attempt else self.doors[0]
            attempt += 1
            seen = len(self.client.log)
            self.client.hall = SimpleNamespace(base=door,
                                               ws_base=door.replace("http", "ws", 1))
            try:
                assert self.table is not None
                await self.client.open(self.table)
                end = time.monotonic() + 5
                while time.monotonic() < end and not self.client.closed:
                    if any(m["type"] == "welcome" for m in self.client.log[seen:]):
                        if attempt > 1 or self.drops:  # back, maybe between hands
                            await self.client.send({"type": "ready"})
                        return
                    await asyncio.sleep(0.02)
            except (OSError, Exception):
                pass
            self.moving += sum(1 for m in self.client.log[seen:]
                               if m.get("type") == "error" and m.get("code") == "moving")
            if time.monotonic() > deadline:
                raise AssertionError(f"could not reach table {self.table}: "
                                     f"{self.client.log[seen:][-3:]}")
            await asyncio.sleep(0.3)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(0.05)
            if not self.client.closed and time.monotonic() - self.heard > SILENCE:
                # as the page's heartbeat does: a table that went silent is given up
                ws, self.client.ws = self.client.ws, None
                if ws is not None:
                    ws.transport.abort()
                await asyncio.sleep(0.1)
            if self.client.closed:
                self.drops += 1
                await self._connect()

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return self.client.of_type(kind)

    def discards_after(self, results: int) -> int:
        """Discards seen since the ``results``-th hand result."""
        log = self.client.log
        ends = [i for i, m in enumerate(log) if m["type"] == "hand_result"]
        if len(ends) < results:
            return 0
        start = ends[results - 1] if results else 0
        return sum(1 for m in log[start:] if m["type"] == "events"
                   for e in m["events"] if e["type"] == "discard")

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
        await self.client.close()


def owner(machines: Machines, table: int) -> str:
    with Store(machines.database) as store:
        now, leases = store.leases.leases()
        return next(r.owner for r in leases if r.table_id == table and r.expires > now)


async def sit_and_ready(people: list[Person], table: int) -> None:
    for seat, person in enumerate(people):
        await person.open(table)
        await person.client.send({"type": "sit", "seat": seat})
    await until("everyone seated", lambda: any(
        m["type"] == "table" and all(s["kind"] == "person" for s in m["table"]["seats"])
        for m in people[0].client.log), 20.0)
    for person in people:
        await person.client.send({"type": "ready"})


async def make_table(person: Person, **extra: Any) -> int:
    r = await person.client.post("/api/tables", {
        "ruleset": "jiaxing", "timing": TIMING, "stakes": "silver", "base": 1, "fee": 2,
        "bot": "greedy", **extra})
    assert r.status_code == 201, r.text
    return int(r.json()["table"]["id"])


async def test_a_hall_on_three_machines(tmp_path: Path) -> None:
    with Machines(tmp_path) as m:
        await _play(m)


async def _play(m: Machines) -> None:
    h1, h2, h3 = m.nodes
    proxy = m.proxy_base
    people: list[Person] = []
    try:
        # every door serves the lobby from the shared store and directory
        lobby = Client(SimpleNamespace(base=proxy, ws_base=""))  # type: ignore[arg-type]
        assert len((await lobby.http.get("/api/tables")).json()["tables"]) == 24
        await lobby.http.aclose()

        # four people, each through another door: three nodes and the proxy
        doors = [[h1.base, proxy], [h2.base, proxy], [h3.base, proxy], [proxy]]
        four = [await Person(d).sign_in() for d in doors]
        people += four
        table = await make_table(four[0], hands=2)
        assert owner(m, table) == "host1"  # the node that made it
        # another table, on another node, one person and three bots, watched throughout
        other_person = await Person([h3.base, proxy]).sign_in()
        people.append(other_person)
        maker = await Person([h2.base]).sign_in()
        people.append(maker)
        other = await make_table(maker, hands=8)
        assert owner(m, other) == "host2"
        await other_person.open(other)
        await other_person.client.send({"type": "sit", "seat": 0})
        await until("the seat", lambda: any(
            m_["type"] == "table" and m_["table"]["seats"][0]["kind"] == "person"
            for m_ in other_person.client.log))
        await other_person.client.send({"type": "add_bots"})
        await until("the bots", lambda: any(
            m_["type"] == "table" and m_["table"]["seats"][3]["kind"] == "bot"
            for m_ in other_person.client.log))
        await other_person.client.send({"type": "ready"})
        await until("the other table's deal", lambda: bool(other_person.of_type("snapshot")
                                                              or other_person.of_type("events")))

        # the first hand, played to its end by four people through four doors
        await sit_and_ready(four, table)
        await until("the first hand's end", lambda: all(p.of_type("hand_result")
                                                          for p in four), 90.0)
        first = four[0].of_type("hand_result")[0]
        assert not first["match_over"]
        assert {p.of_type("hand_result")[0]["hand_id"] for p in four} == {first["hand_id"]}

        # the second hand: its node dies mid-hand
        await until("the second hand under way", lambda: four[1].discards_after(1) >= 4, 30.0)
        assert len(four[1].of_type("hand_result")) == 1, "the second hand ended too soon"
        other_before = len(other_person.client.log)
        other_drops = other_person.drops
        killed_at = time.monotonic()
        m.kill(h1)
        await until("the second hand's end", lambda: all(
            len(p.of_type("hand_result")) >= 2 for p in four), 90.0)
        moved_in = time.monotonic() - killed_at
        second = four[0].of_type("hand_result")[-1]
        assert second["match_over"] and second["hand_id"] != first["hand_id"]
        new_owner = owner(m, table)
        assert new_owner in ("host2", "host3")
        assert all(p.drops >= 1 for p in four[1:]), [p.drops for p in four]
        # the other table played on: no drop, messages all along
        assert other_person.drops == other_drops
        assert len(other_person.client.log) > other_before
        assert owner(m, other) == "host2"
        assert moved_in < 60

        # the ledger: balanced; each person paid each hand's fee once
        with Store(m.database) as store:
            assert store.ledger.check().ok
            assert store.hands.in_progress(table_ids=[table]) == []
            for p in four:
                entries = store.ledger.history(p.client.me["id"], limit=100)
                fees = [e for e in entries if e.kind == "fee"]
                assert sorted(e.hand_id for e in fees) == sorted(
                    [first["hand_id"], second["hand_id"]]), fees

        # the dead machine comes back and rejoins
        m.start(h1)
        m.wait_http(h1.base + "/healthz")

        # a rolling restart: the other table's node is drained during play
        await until("a hand at the other table", lambda: bool(
            other_person.of_type("hand_result")), 60.0)
        played = len(other_person.of_type("hand_result"))
        drops = other_person.drops
        drained = subprocess.run(
            [sys.executable, "-m", "baida.cli", "nodes", "--database", m.database, "drain",
             "host2"], capture_output=True, text=True, timeout=60)
        assert drained.returncode == 0, drained.stderr
        await until("the table to move", lambda: owner_or_none(m, other) not in
                    (None, "host2"), 90.0)
        await until("host2 drained", lambda: "is drained" in h2.log.read_text(), 90.0)
        assert m.stop(h2) in (0, -15)  # (uvicorn ends by the signal it was stopped by)
        m.start(h2)
        await until("two more hands after the move", lambda: len(
            other_person.of_type("hand_result")) >= played + 2, 120.0)
        assert other_person.drops == drops + 1  # one reconnect, nothing more
        listed = subprocess.run(
            [sys.executable, "-m", "baida.cli", "nodes", "--database", m.database, "list"],
            capture_output=True, text=True, timeout=60)
        assert '"node": "host2"' in listed.stdout and '"draining": false' in listed.stdout
        with Store(m.database) as store:
            assert store.ledger.check().ok
    finally:
        for p in people:
            await p.close()


async def test_a_paused_node_that_wakes_cannot_write_over_the_new_owner(
        tmp_path: Path) -> None:
    with Machines(tmp_path) as m:
        h1, h2, _ = m.nodes
        person = await Person([h2.base, m.proxy_base]).sign_in()
        maker = await Person([h1.base]).sign_in()
        try:
            table = await make_table(maker, hands=1)
            assert owner(m, table) == "host1"
            await person.open(table)  # through host2, forwarded to host1
            await person.client.send({"type": "sit", "seat": 0})
            await until("the seat", lambda: any(
                m_["type"] == "table" and m_["table"]["seats"][0]["kind"] == "person"
                for m_ in person.client.log))
            await person.client.send({"type": "add_bots"})
            await person.client.send({"type": "ready"})
            await until("the hand under way", lambda: person.discards_after(0) >= 4, 30.0)
            assert h1.proc is not None
            h1.proc.send_signal(signal.SIGSTOP)  # hung, not dead: its sockets stay open
            try:
                await until("the hand's end on another node", lambda: bool(
                    person.of_type("hand_result")), 90.0)
                assert owner(m, table) in ("host2", "host3")
            finally:
                h1.proc.send_signal(signal.SIGCONT)
            # host1 wakes up: it learns its table was taken and lets it go, writing nothing
            await until("host1 to let the table go", lambda: f"table {table} was taken over"
                        in h1.log.read_text() or "letting it go" in h1.log.read_text(), 30.0)
            result = person.of_type("hand_result")[0]
            assert result["match_over"]
            with Store(m.database) as store:
                assert store.ledger.check().ok
                assert store.hands.in_progress(table_ids=[table]) == []
                fees = [e for e in store.ledger.history(person.client.me["id"], limit=100)
                        if e.kind == "fee"]
                assert [e.hand_id for e in fees] == [result["hand_id"]]
                check = (await person.client.http.get(
                    f"/api/hands/{result['hand_id']}/verify")).json()
                assert check["ok"], check
        finally:
            await person.close()
            await maker.close()


def owner_or_none(machines: Machines, table: int) -> str | None:
    try:
        return owner(machines, table)
    except StopIteration:
        return None
