"""The hall's directory (``baida.server.directory``): the one interface a table's owner, the
lobby, room codes, admissions, presence and chat go through, here in its in-process form."""

from __future__ import annotations

from typing import Any

from baida.server.directory import Directory, InProcessDirectory


def summary(table_id: int, ruleset: str, number: int) -> dict[str, Any]:
    return {"id": table_id, "ruleset": ruleset, "number": number}


def test_a_table_has_one_owner() -> None:
    d: Directory = InProcessDirectory()
    assert d.claim_table(1, "a") and d.claim_table(1, "a")  # again: still yours
    assert not d.claim_table(1, "b") and d.owner(1) == "a"
    d.release_table(1, "b")  # not b's to give up
    assert d.owner(1) == "a"
    d.release_table(1, "a")
    assert d.owner(1) is None and d.claim_table(1, "b")


def test_the_lobby_lists_what_tables_publish_in_order() -> None:
    d = InProcessDirectory()
    for table_id, ruleset, number in [(3, "wenling", 1), (1, "jiaxing", 2), (2, "jiaxing", 1)]:
        d.claim_table(table_id, "a")
        d.list_table(table_id, summary(table_id, ruleset, number))
    assert [t["id"] for t in d.lobby()] == [2, 1, 3]
    d.list_table(1, {**summary(1, "jiaxing", 2), "status": "playing"})  # replaced, not added
    assert [t.get("status") for t in d.lobby()] == [None, "playing", None]
    d.unlist_table(2)
    assert [t["id"] for t in d.lobby()] == [1, 3]
    d.release_table(3, "a")  # a released table leaves the lobby
    assert [t["id"] for t in d.lobby()] == [1]


def test_room_codes_and_admissions() -> None:
    d = InProcessDirectory()
    d.claim_table(7, "a")
    assert d.register_room("ABC234", 7) and d.register_room("abc234", 7)  # the same table
    assert not d.register_room("ABC234", 8)  # a code is one table's
    assert d.room(" abc234 ") == 7 and d.room("ZZZ999") is None
    assert not d.admitted(7, 42)
    d.admit(7, 42)
    assert d.admitted(7, 42) and not d.admitted(7, 43) and not d.admitted(8, 42)
    # closing the table frees its code and ends its admissions
    d.release_table(7, "a")
    assert d.room("ABC234") is None and not d.admitted(7, 42)
    assert d.register_room("ABC234", 8) and d.room("ABC234") == 8


def test_presence_counts_people_not_connections() -> None:
    d = InProcessDirectory()
    d.online(1, +1)
    d.online(1, +1)
    d.online(2, +1)
    assert d.online_count() == 2
    d.online(1, -1)
    assert d.online_count() == 2
    d.online(1, -1)
    d.online(2, -1)
    assert d.online_count() == 0


def test_chat_goes_to_the_table_subscribed() -> None:
    d = InProcessDirectory()
    heard: list[tuple[int, dict[str, Any]]] = []
    d.subscribe(1, lambda m: heard.append((1, m)))
    d.subscribe(2, lambda m: heard.append((2, m)))
    d.publish(1, {"type": "chat", "text": "你好"})
    d.publish(3, {"type": "chat", "text": "nobody"})
    assert heard == [(1, {"type": "chat", "text": "你好"})]
    d.unsubscribe(1)
    d.publish(1, {"type": "chat", "text": "gone"})
    assert len(heard) == 1
