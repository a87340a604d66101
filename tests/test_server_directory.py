"""The hall's directory: the same contract checked on both kinds (in-process, and in Redis),
then what only the Redis one does: shared by the nodes of one prefix. The Redis cases need a
Redis (``BAIDA_TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/15``) and are skipped when
none answers; the in-process ones always run."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from baida.server.directory import in_redis
from baida.server.directory.in_process import Directory, InProcessDirectory
from baida.server.directory.in_redis import DirectoryUnavailable, RedisDirectory

URL = os.environ.get("BAIDA_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

Make = Callable[[str], RedisDirectory]


def summary(table_id: int, ruleset: str, number: int) -> dict[str, Any]:
    return {"id": table_id, "ruleset": ruleset, "number": number}


def new_prefix() -> str:
    return f"baida-test-{uuid4().hex}"


@pytest.fixture(scope="module")
def redis_url() -> str:
    try:
        RedisDirectory(URL, "probe", new_prefix()).close()
    except DirectoryUnavailable as e:
        pytest.skip(f"no Redis for the directory tests: {e}")
    return URL


@pytest.fixture
def make(redis_url: str) -> Iterator[Make]:
    """Directories of different nodes on one fresh prefix; cleared and closed at the end."""
    prefix = new_prefix()
    made: list[RedisDirectory] = []

    def make(node: str) -> RedisDirectory:
        made.append(RedisDirectory(redis_url, node, prefix))
        return made[-1]

    yield make
    for d in made:
        d.close()
    cleaner = RedisDirectory(redis_url, "cleaner", prefix)
    cleaner.clear()
    cleaner.close()


@pytest.fixture(params=["in-process", "redis"])
def d(request: pytest.FixtureRequest) -> Directory:
    if request.param == "in-process":
        return InProcessDirectory()
    make: Make = request.getfixturevalue("make")
    return make("a")


# ---------------------------------------------------------------- the contract, both kinds


def test_a_table_has_one_owner(d: Directory) -> None:
    assert d.owner(1) is None
    assert d.claim_table(1, "a") and d.claim_table(1, "a")  # again: still yours
    assert not d.claim_table(1, "b") and d.owner(1) == "a"
    d.release_table(1, "b")  # not b's to give up
    assert d.owner(1) == "a"
    d.release_table(1, "a")
    assert d.owner(1) is None and d.claim_table(1, "b")


def test_the_lobby_lists_what_tables_publish_in_order(d: Directory) -> None:
    assert d.lobby() == []
    for table_id, ruleset, number in [(3, "wenling", 1), (1, "jiaxing", 2), (2, "jiaxing", 1)]:
        d.claim_table(table_id, "a")
        d.list_table(table_id, summary(table_id, ruleset, number))
    assert [t["id"] for t in d.lobby()] == [2, 1, 3]
    d.list_table(1, {**summary(1, "jiaxing", 2), "status": "playing"})  # replaced, not added
    assert [t.get("status") for t in d.lobby()] == [None, "playing", None]
    d.unlist_table(2)
    d.unlist_table(99)  # not listed: nothing happens
    assert [t["id"] for t in d.lobby()] == [1, 3]
    d.release_table(3, "a")  # a released table leaves the lobby
    assert d.lobby() == [{**summary(1, "jiaxing", 2), "status": "playing"}]


def test_descriptions_are_kept_by_id_until_release(d: Directory) -> None:
    assert d.description(5) is None and d.descriptions() == []
    for table_id in (10, 5, 2):
        d.claim_table(table_id, "a")
        d.describe_table(table_id, {**summary(table_id, "jiaxing", table_id), "private": True})
    d.describe_table(5, {**summary(5, "jiaxing", 5), "seats": ["甲", None]})  # replaced
    assert d.description(5) == {**summary(5, "jiaxing", 5), "seats": ["甲", None]}
    assert [t["id"] for t in d.descriptions()] == [2, 5, 10]  # by id, numerically
    d.release_table(10, "b")  # not b's: kept
    d.release_table(10, "a")
    assert d.description(10) is None and [t["id"] for t in d.descriptions()] == [2, 5]


def test_next_number_is_above_the_floor(d: Directory) -> None:
    assert d.next_number("jiaxing", 0) >= 1
    assert d.next_number("jiaxing", 41) >= 42
    assert d.next_number("wenling", 7) >= 8


def test_room_codes_and_admissions(d: Directory) -> None:
    d.claim_table(7, "a")
    assert d.register_room("ABC234", 7) and d.register_room("abc234", 7)  # the same table
    assert not d.register_room("ABC234", 8)  # a code is one table's
    assert d.room(" abc234 ") == 7 and d.room("ZZZ999") is None
    assert not d.admitted(7, 42)
    d.admit(7, 42)
    d.admit(7, 42)
    assert d.admitted(7, 42) and not d.admitted(7, 43) and not d.admitted(8, 42)
    # closing the table frees its code and ends its admissions
    d.release_table(7, "a")
    assert d.room("ABC234") is None and not d.admitted(7, 42)
    assert d.register_room("ABC234", 8) and d.room("ABC234") == 8


def test_presence_counts_people_not_connections(d: Directory) -> None:
    assert d.online_count() == 0
    d.online(1, +1)
    d.online(1, +1)
    d.online(2, +1)
    assert d.online_count() == 2
    d.online(1, -1)
    assert d.online_count() == 2
    d.online(1, -1)
    d.online(2, -1)
    assert d.online_count() == 0
    d.online(3, -1)  # a close without an open: not below zero, not online
    d.online(3, +1)
    assert d.online_count() == 1


def test_chat_goes_to_the_table_subscribed(d: Directory) -> None:
    heard: list[tuple[int, dict[str, Any]]] = []
    d.subscribe(1, lambda m: heard.append((1, m)))
    d.subscribe(2, lambda m: heard.append((2, m)))
    d.publish(1, {"type": "chat", "text": "你好"})
    d.publish(3, {"type": "chat", "text": "nobody"})
    assert heard == [(1, {"type": "chat", "text": "你好"})]
    d.unsubscribe(1)
    d.publish(1, {"type": "chat", "text": "gone"})
    assert len(heard) == 1


def test_a_message_reaches_the_nodes_handler(d: Directory) -> None:
    async def main() -> list[dict[str, Any]]:
        heard: list[dict[str, Any]] = []
        done = asyncio.Event()

        def handler(message: dict[str, Any]) -> None:
            heard.append(message)
            if message.get("last"):
                done.set()

        d.send("a", {"type": "early"})  # before anyone listens: dropped
        d.on_message("a", handler)
        d.send("b", {"type": "elsewhere"})  # nobody listens to b: dropped
        d.send("a", {"type": "close_table", "table": 7, "last": True})
        await asyncio.wait_for(done.wait(), 5)
        return heard

    assert asyncio.run(main()) == [{"type": "close_table", "table": 7, "last": True}]


# ---------------------------------------------------------------- what differs


def test_in_process_next_number_is_the_floors_successor() -> None:
    d = InProcessDirectory()
    assert [d.next_number("jiaxing", 3) for _ in range(3)] == [4, 4, 4]


def test_redis_next_number_remembers_what_it_gave(make: Make) -> None:
    d = make("a")
    assert [d.next_number("jiaxing", 0) for _ in range(3)] == [1, 2, 3]
    assert d.next_number("jiaxing", 10) == 11  # the floor is higher
    assert d.next_number("jiaxing", 3) == 12  # a number given out is higher
    assert d.next_number("wenling", 0) == 1  # each ruleset counts for itself


# ---------------------------------------------------------------- Redis: shared by the nodes


def test_an_unreachable_redis_is_a_clear_error() -> None:
    url = "redis://127.0.0.1:1/0"
    with pytest.raises(DirectoryUnavailable, match="127.0.0.1:1"):
        RedisDirectory(url, "a")


def test_nodes_see_each_others_tables(make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(in_redis, "LOBBY_SECONDS", 0.0)  # no lobby cache here
    a, b = make("a"), make("b")
    assert a.claim_table(1, "a") and not b.claim_table(1, "b") and b.owner(1) == "a"
    a.list_table(1, summary(1, "jiaxing", 1))
    b.claim_table(2, "b")
    b.list_table(2, summary(2, "jiaxing", 2))
    b.describe_table(2, summary(2, "jiaxing", 2))
    a.flush()  # what a node writes reaches Redis from its writer thread
    b.flush()
    assert [t["id"] for t in a.lobby()] == [t["id"] for t in b.lobby()] == [1, 2]
    assert a.description(2) == summary(2, "jiaxing", 2)
    assert a.register_room("xyz789", 1) and not b.register_room("XYZ789", 2)
    assert b.room("xyz789") == 1
    a.admit(1, 42)
    assert b.admitted(1, 42)
    b.release_table(1, "b")  # b does not own it
    assert a.owner(1) == "a" and b.room("XYZ789") == 1
    a.release_table(1, "a")
    a.flush()
    assert b.owner(1) is None and b.room("XYZ789") is None and not b.admitted(1, 42)
    assert [t["id"] for t in b.lobby()] == [2]


def test_presence_is_per_node_and_ends_with_the_node(make: Make) -> None:
    a, b = make("a"), make("b")
    a.online(1, +1)
    b.online(1, +1)
    b.online(2, +1)
    b.flush()
    assert a.online_count() == b.online_count() == 2  # user 1 on two nodes: once
    b.online(1, -1)
    b.flush()
    assert a.online_count() == 2  # still on a
    a.online(1, -1)  # a's count, not b's
    assert a.online_count() == 1
    a.online(3, +1)
    b.close()
    b.close()  # again: nothing more
    assert a.online_count() == 1  # b's users left with it; a's stay


def test_two_nodes_never_give_the_same_number(make: Make) -> None:
    a, b = make("a"), make("b")
    numbers = [(a if i % 2 else b).next_number("jiaxing", i % 5) for i in range(200)]
    assert numbers == list(range(1, 201))


def test_racing_nodes_keep_numbers_and_owners_unique(make: Make) -> None:
    nodes = [make(f"n{i}") for i in range(4)]

    def work(d: RedisDirectory) -> tuple[list[int], list[int]]:
        numbers = [d.next_number("wenling", 0) for _ in range(100)]
        return numbers, [t for t in range(50) if d.claim_table(t, d.node)]

    with ThreadPoolExecutor(len(nodes)) as pool:
        results = list(pool.map(work, nodes))
    numbers = [n for got, _ in results for n in got]
    claimed = [t for _, tables in results for t in tables]
    assert sorted(numbers) == list(range(1, 401))
    assert sorted(claimed) == list(range(50))  # each table won by exactly one node
    for d, (_, won) in zip(nodes, results, strict=True):
        assert all(nodes[0].owner(t) == d.node for t in won)


def test_a_message_crosses_to_the_other_nodes_loop(make: Make) -> None:
    a, b = make("a"), make("b")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        heard: list[tuple[dict[str, Any], bool, bool]] = []
        done = asyncio.Event()

        def handler(message: dict[str, Any]) -> None:
            on_loop = asyncio.get_running_loop() is loop
            heard.append((message, on_loop, threading.current_thread() is threading.main_thread()))
            if message.get("last"):
                done.set()

        b.on_message("b", handler)
        a.send("nobody", {"type": "lost"})  # no listener: dropped without a word
        a.send("a", {"type": "not for b"})
        a.send("b", {"type": "close_table", "table": 3, "names": ["甲"]})
        a.send("b", {"type": "done", "last": True})
        await asyncio.wait_for(done.wait(), 5)
        assert heard == [
            ({"type": "close_table", "table": 3, "names": ["甲"]}, True, True),
            ({"type": "done", "last": True}, True, True),
        ]

    asyncio.run(main())


def test_clear_deletes_the_prefix_only(make: Make, redis_url: str) -> None:
    a = make("a")
    other = RedisDirectory(redis_url, "a", new_prefix())
    try:
        for t in range(1200):  # more than one batch
            a.admit(t, 1)
        a.claim_table(1, "a")
        other.claim_table(1, "a")
        a.clear()
        assert a.owner(1) is None and not a.admitted(1199, 1)
        assert other.owner(1) == "a"
    finally:
        other.clear()
        other.close()


# ---------------------------------------------------------------- both kinds, at random

tables = st.integers(1, 4)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("claim_table"), tables, st.sampled_from("ab")),
        st.tuples(st.just("release_table"), tables, st.sampled_from("ab")),
        st.tuples(st.just("register_room"), st.sampled_from(["abc", "XYZ", "Q1"]), tables),
        st.tuples(st.just("admit"), tables, st.integers(1, 3)),
        st.tuples(st.just("online"), st.integers(1, 3), st.sampled_from([1, -1])),
    ),
    max_size=30,
)


def observe(d: Directory) -> tuple[Any, ...]:
    return (
        [d.owner(t) for t in range(1, 5)],
        [d.room(code) for code in ("ABC", "xyz", "q1")],
        [d.admitted(t, u) for t in range(1, 5) for u in range(1, 4)],
        d.online_count(),
    )


@settings(max_examples=examples(25), deadline=None)
@given(operations)
def test_both_kinds_answer_alike(redis_url: str, ops: list[tuple[str, Any, Any]]) -> None:
    mine = InProcessDirectory()
    theirs = RedisDirectory(redis_url, "a", new_prefix())
    try:
        for name, x, y in ops:
            answers = [getattr(d, name)(x, y) for d in (mine, theirs)]
            assert answers[0] == answers[1], (name, x, y)
            assert observe(mine) == observe(theirs)
    finally:
        theirs.clear()
        theirs.close()


def test_queued_writes_keep_their_order(make: Make) -> None:
    """Listings, descriptions, releases and presence go through the writer thread in the
    order they were made; the writing node reads its own writes at once, the other after
    ``flush``."""
    a, b = make("a"), make("b")
    assert a.claim_table(5, "a")
    for i in range(301):  # the last one, 300, is unlisted again
        a.list_table(5, {**summary(5, "jiaxing", 1), "n": i})
        if i % 3 == 0:
            a.unlist_table(5)
        a.describe_table(5, {**summary(5, "jiaxing", 1), "n": i})
        a.online(i % 7, +1)
    assert a.lobby() == [] and a.description(5)["n"] == 300
    a.list_table(5, {**summary(5, "jiaxing", 1), "n": 301})
    a.release_table(5, "a")
    a.describe_table(6, summary(6, "jiaxing", 2))
    a.flush()
    assert b.owner(5) is None and b.lobby() == [] and b.description(5) is None
    assert b.description(6) == summary(6, "jiaxing", 2)
    assert b.online_count() == 7
    assert b.claim_table(5, "b")  # free again once the release was sent


def test_the_lobby_is_read_again_after_a_second_or_a_change_here(
        make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(in_redis.time, "monotonic", lambda: now[0])
    a, b = make("a"), make("b")
    a.list_table(1, summary(1, "jiaxing", 1))
    a.flush()
    assert [t["id"] for t in b.lobby()] == [1]
    a.list_table(2, summary(2, "jiaxing", 2))
    a.flush()
    assert [t["id"] for t in a.lobby()] == [1, 2]  # its own change: at once
    now[0] += 0.5
    assert [t["id"] for t in b.lobby()] == [1]  # another node's: within the second, not yet
    now[0] += 0.6
    assert [t["id"] for t in b.lobby()] == [1, 2]
    b.unlist_table(1)
    assert [t["id"] for t in b.lobby()] == [2]
