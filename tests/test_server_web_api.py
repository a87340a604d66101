"""The lobby endpoints the browser client needs: the session, the 听牌 hint, a finished hand's
replay with the Wenling non-winners' items; and a hall restarting with a person's hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hall_harness import INSTANT, Client, running_hall
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from test_server_play import player

from baida.bots.review import review_record
from baida.client.play import HandTracker
from baida.rulesets import ruleset as ruleset_of
from baida.rulesets import score
from baida.scoring import ScoreRequest
from baida.server.web import api
from baida.server.web.waits import WaitsError, hand_waits
from baida.tiles import WILD, parse_tile, parse_tiles, tile_str

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def faces(text: str) -> list[str]:
    return [tile_str(k) for k in parse_tiles(text)]


# ------------------------------------------------------------------ the 听牌 hint


def test_waits_of_a_full_flush_and_of_a_hand_without_a_pattern() -> None:
    req = {"ruleset": "jiaxing", "indicator": "9p", "concealed": faces("1234567892345m")}
    got = hand_waits(req)
    assert {k: got[k] for k in ("tiles", "waits", "wild_wins")} == {
        "tiles": 13, "waits": ["2m", "5m"], "wild_wins": True}
    mixed = {"ruleset": "jiaxing", "indicator": "9p", "concealed": faces("1234567m123p11s9s")}
    assert hand_waits(mixed)["waits"] == []  # 台头和: no 清一色/混一色/全老头/对对和 possible
    wenling = {**mixed, "ruleset": "wenling", "concealed": faces("12345678m123pEE999s")}
    assert hand_waits(wenling)["waits"] == ["3m", "6m", "9m"]


def test_waits_on_ones_turn_list_each_discard_that_waits() -> None:
    req = {"ruleset": "jiaxing", "indicator": "9p", "concealed": faces("12345678923459m")}
    out = hand_waits(req)
    assert out["tiles"] == 14
    by_tile = {d["tile"]: d["waits"] for d in out["discards"]}
    assert by_tile["9m"] == ["2m", "5m"]
    assert "1p" not in by_tile


def test_a_wenling_player_who_discarded_a_wild_waits_on_nothing() -> None:
    req = {"ruleset": "wenling", "indicator": "9p", "concealed": faces("12345678m123pEE999s")}
    assert hand_waits({**req, "discarded_wild": True}) == {"tiles": 16, "waits": [],
                                                           "wild_wins": False}


@pytest.mark.parametrize(("change", "message"), [
    ({"ruleset": "riichi"}, "ruleset"),
    ({"indicator": "0m"}, "indicator"),
    ({"concealed": ["1m", "xx"]}, "concealed[1]"),
    ({"concealed": ["1m"] * 18}, "concealed"),
    ({"melds": [{"type": "pon", "tiles": ["1m", "2m", "3m"]}]}, "melds[0]"),
    ({"options": {"no_such_option": 1}}, "options"),
    ({"seat_wind": "X"}, "seat_wind"),
    ({"surprise": 1}, "surprise"),
    ({"concealed": faces("123456789m123p")[:12]}, "3n + 1"),
])
def test_bad_waits_requests_name_the_field(change: dict[str, Any], message: str) -> None:
    req = {"ruleset": "jiaxing", "indicator": "9p", "concealed": faces("1234567892345m"),
           **change}
    with pytest.raises(WaitsError, match=message.replace("+", r"\+").replace("[", r"\[")):
        hand_waits(req)


def _legal_self_draw(ruleset: str, indicator: str, concealed: list[int], tile: int) -> bool:
    from baida.hand import Hand

    req = ScoreRequest(ruleset=ruleset, options=ruleset_of(ruleset).make_options({}),
                       indicator=parse_tile(indicator), winner=0, hand=Hand(concealed, [], []),
                       win_tile=tile, win_by="self_draw")
    return bool(score(req)["legal"])


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.integers(0, 8), min_size=13, max_size=13), st.sampled_from("mps"))
def test_waits_agree_with_the_scorer_tile_by_tile(ranks: list[int], suit: str) -> None:
    """Every kind the hint lists wins by the scorer, and every kind it leaves out does not
    (a brute force over all 34 kinds of one-suit hands, where waits are common)."""
    offset = "mps".index(suit) * 9
    kinds = sorted(offset + r for r in ranks)
    if any(kinds.count(k) > 4 for k in kinds):
        return
    req = {"ruleset": "jiaxing", "indicator": "C", "concealed": [tile_str(k) for k in kinds]}
    listed = set(hand_waits(req)["waits"])
    for kind in range(34):
        if kind == parse_tile("C") or kinds.count(kind) == 4:
            continue
        assert (tile_str(kind) in listed) == _legal_self_draw("jiaxing", "C", kinds, kind)


def test_a_wild_in_hand_counts_as_a_wild() -> None:
    # 5m is the wild: 1234 6789m 234 + wild makes 清一色 waits with the wild as any tile
    req = {"ruleset": "jiaxing", "indicator": "5m", "concealed": faces("1234678923445m")[:13]}
    got = hand_waits(req)
    concealed = [WILD if f == "5m" else parse_tile(f) for f in req["concealed"]]
    for face in got["waits"]:
        assert _legal_self_draw("jiaxing", "5m", concealed, parse_tile(face))


# ------------------------------------------------------------------ the pattern hint


def distances(req: dict[str, Any]) -> dict[str, int | None]:
    return {p["pattern"]: p["distance"] for p in hand_waits(req)["patterns"]}


def test_a_jiaxing_answer_says_how_far_the_hand_is_from_each_pattern() -> None:
    req = {"ruleset": "jiaxing", "indicator": "9p", "concealed": faces("1234567892345m")}
    got = hand_waits(req)["patterns"]
    assert [p["name"]["zh"] for p in got] == ["清一色", "混一色", "全老头", "对对和"]
    assert [p["name"]["en"] for p in got] == [
        "Full flush", "Half flush", "All honours", "All triplets"]
    assert distances(req) == {"qingyise": 1, "hunyise": 1, "quanlaotou": 14, "duiduihe": 5}
    # on one's turn: a complete 清一色 is 0 tiles from it
    assert distances({**req, "concealed": faces("12345678923455m")})["qingyise"] == 0
    # a wild fills a gap: 1234 6789m 234m + the wild 5m
    wild = {**req, "indicator": "5m", "concealed": faces("1234678923445m")[:13]}
    assert distances(wild)["qingyise"] <= distances({**wild, "indicator": "9p"})["qingyise"]
    wenling = {**req, "ruleset": "wenling", "concealed": faces("12345678m123pEE999s")}
    assert "patterns" not in hand_waits(wenling)


def test_exposed_melds_rule_patterns_out() -> None:
    base = {"ruleset": "jiaxing", "indicator": "9p"}
    pon_red = distances({**base, "concealed": faces("1234567m12p11s"),
                         "melds": [{"type": "pon", "tiles": ["C", "C", "C"]}]})
    assert pon_red["qingyise"] is None and pon_red["quanlaotou"] is not None
    assert pon_red["hunyise"] is not None and pon_red["duiduihe"] is not None
    chi = distances({**base, "concealed": faces("4567m12p11sEEN"),
                     "melds": [{"type": "chi", "tiles": ["1m", "2m", "3m"]}]})
    assert chi["duiduihe"] is None and chi["quanlaotou"] is None
    assert chi["qingyise"] is not None and chi["hunyise"] is not None
    two_suits = distances({**base, "concealed": faces("4567m12p11sEE"),
                           "melds": [{"type": "pon", "tiles": ["1m"] * 3},
                                     {"type": "pon", "tiles": ["5p"] * 3}]})
    assert two_suits == {"qingyise": None, "hunyise": None, "quanlaotou": None,
                         "duiduihe": two_suits["duiduihe"]}
    assert two_suits["duiduihe"] is not None


def test_a_kind_held_four_times_is_never_a_wait() -> None:
    """The fifth copy cannot be drawn: 1111m 2222m 3m EEEE waits on nothing (found by the
    property below: the hint said E)."""
    got = hand_waits({"ruleset": "jiaxing", "indicator": "9p",
                      "concealed": "1m 1m 1m 1m 2m 2m 2m 2m 3m E E E E".split()})
    assert "E" not in got["waits"]
    melded = hand_waits({"ruleset": "jiaxing", "indicator": "9p",
                         "concealed": "1m 1m 1m 2m 2m 2m 3m 3m 3m E".split(),
                         "melds": [{"type": "pon", "tiles": ["E", "E", "E"]}]})
    assert "E" not in melded["waits"]


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(st.integers(0, 8), min_size=9, max_size=13), st.sampled_from("mps"),
       st.lists(st.sampled_from("ESWNCFP"), max_size=4), st.booleans())
def test_pattern_distances_agree_with_the_waits(
    ranks: list[int], suit: str, honours: list[str], own_turn: bool
) -> None:
    """A hand one tile short with a winning kind is 1 from some pattern and never nearer; on
    one's turn, a hand the scorer lets win is 0 from some pattern (the hint's distances are
    the evaluator's, the waits the scorer's: two ways to the same answer)."""
    size = 14 if own_turn else 13
    tiles = [f"{r + 1}{suit}" for r in ranks] + honours
    tiles = tiles[:size]
    if len(tiles) < size or any(tiles.count(t) > 4 for t in tiles):
        return
    req = {"ruleset": "jiaxing", "indicator": "9p" if suit != "p" else "9s", "concealed": tiles}
    got = hand_waits(req)
    nearest = min(p["distance"] for p in got["patterns"] if p["distance"] is not None)
    if not own_turn:
        assert nearest >= 1
        if got["waits"]:  # (a drawn wild is no wait for the evaluator: quads may leave none)
            assert nearest == 1
        return
    concealed = [parse_tile(t) for t in tiles]
    if _legal_self_draw("jiaxing", req["indicator"], concealed[:-1], concealed[-1]):
        assert nearest == 0
    if any(d["waits"] for d in got["discards"]):
        assert nearest <= 1


# ------------------------------------------------------------------ session, replay


async def test_session_is_null_until_signed_in(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        c = Client(hall)
        r = await c.http.get("/api/session")
        assert r.status_code == 200 and r.json() == {"me": None}
        await c.guest()
        me = (await c.http.get("/api/session")).json()["me"]
        assert me["id"] == c.me["id"] and me["csrf"]
        r = await c.post("/api/waits", {"ruleset": "jiaxing", "indicator": "9p",
                                        "concealed": faces("1234567892345m")})
        assert r.status_code == 200 and r.json()["waits"] == ["2m", "5m"]
        r = await c.post("/api/waits", {"ruleset": "jiaxing"})
        assert r.status_code == 400 and "indicator" in r.json()["error"]
        await c.close()


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
async def test_a_finished_hand_replays_for_its_players_only(
    tmp_path: Path, ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        r = await me.post("/api/tables", {"ruleset": ruleset, "hands": 3, "timing": INSTANT,
                                          "private": True})
        table = r.json()["table"]
        me.on_message = player(HandTracker())
        await me.open(table["id"])
        await me.send({"type": "sit", "seat": 2})
        await hall.quiet([me])
        await me.send({"type": "add_bots"})
        await me.send({"type": "ready"})
        for _ in range(400):
            await hall.quiet([me])
            if any(m["match_over"] for m in me.of_type("hand_result")):
                break
        hands = (await me.http.get("/api/me/hands")).json()["hands"]
        assert len(hands) == 3
        reviewed = 0
        for summary in hands:
            review = (await me.http.get(f"/api/hands/{summary['hand_id']}/replay")).json()
            record = (await me.http.get(f"/api/hands/{summary['hand_id']}/record")).json()
            assert review["seat"] == 2 and review["matches"] is True
            assert review["number"] == summary["number"]
            events = review["events"]
            assert events[0]["type"] == "hand_start" and events[-1]["type"] == "hand_end"
            deals = [e for e in events if e["type"] == "deal"]
            assert all(e["tiles"] for e in deals)  # a finished hand hides nothing
            assert review["view"]["result"]["payments"] == record["settlement"]["payments"]
            _check_nonwinners(review)
            reviewed += _check_decisions(
                await me.http.get(f"/api/hands/{summary['hand_id']}/review"),
                summary["hand_id"], record, events)
        assert reviewed, "three whole hands hold choices of seat 2"

        # busy bot workers: a clear answer, and nothing kept
        def too_slow(*args: Any) -> Any:
            raise TimeoutError

        monkeypatch.setattr(api, "_REVIEW_CACHE", {})
        for name in ("decision_review", "hand_review", "verify_record"):
            monkeypatch.setattr(api, name, too_slow)
        for what in ("review", "replay", "verify"):
            r = await me.http.get(f"/api/hands/{hands[0]['hand_id']}/{what}")
            assert r.status_code == 503 and "busy" in r.json()["error"], (what, r.text)
        assert not api._REVIEW_CACHE
        monkeypatch.setattr(api, "hand_waits", too_slow)
        r = await me.post("/api/waits", {"ruleset": ruleset, "indicator": "1m",
                                         "concealed": faces("123456789m1234p")})
        assert r.status_code == 503 and "busy" in r.json()["error"]
        r = await me.post("/api/verify", record)
        assert r.status_code == 503 and "busy" in r.json()["error"]
        stranger = await Client(hall).guest()
        for what in ("replay", "review"):
            r = await stranger.http.get(f"/api/hands/{hands[0]['hand_id']}/{what}")
            assert r.status_code == 404 and "no finished hand of yours" in r.json()["error"]
        await me.close()
        await stranger.close()


def _check_decisions(response: Any, hand_id: int, record: dict[str, Any],
                     events: list[dict[str, Any]]) -> int:
    """The bot's review of the player's own decisions is ``baida review`` of the record for
    that seat, each decision placed among the replay's events; how many there are (a hand won
    before seat 2's first turn has none)."""
    assert response.status_code == 200, response.text
    got = response.json()
    assert got["hand_id"] == hand_id and got["seat"] == 2
    want = review_record(record, seats={2})
    assert {k: got[k] for k in want} == want
    for d in got["decisions"]:
        assert d["seat"] == 2 and d["action"] == record["actions"][d["index"]]
        assert 1 <= d["event_index"] < len(events)
    return len(got["decisions"])


def _check_nonwinners(review: dict[str, Any]) -> None:
    """The Wenling non-winners' items add up to the totals the scorer paid them."""
    result = review["view"]["result"]
    score_out = result.get("score") or {}
    if review["ruleset"] != "wenling" or result["outcome"] != "win":
        assert review["nonwinners"] == {}
        return
    winds = review["view"]["seat_winds"]
    assert sorted(review["nonwinners"]) == sorted(str(s) for s in range(4) if s != result["winner"])
    for seat, items in review["nonwinners"].items():
        assert items["total"] == score_out["totals"][winds[int(seat)]]


# ------------------------------------------------------------------ restart with a person


async def test_a_hall_restarts_with_a_persons_hand_in_play(tmp_path: Path) -> None:
    """The hand of a table where a person sat comes back after a restart (the person on 托管
    until they reconnect)."""
    # 托管 answers a turn after a second of the hall's clock, which this test never moves: at
    # once, it could play the resumed hand to its end before the hall is looked at
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        r = await me.post("/api/tables", {"ruleset": "jiaxing", "hands": 2,
                                          "timing": {**INSTANT, "turn": 600.0,
                                                     "bot_turn": 1.0}})
        table_id = r.json()["table"]["id"]
        await me.open(table_id)
        await me.send({"type": "sit", "seat": 0})
        await hall.quiet([me])
        await me.send({"type": "add_bots"})
        await me.send({"type": "ready"})
        await hall.quiet([me])
        assert me.of_type("prompt")  # the dealer's first turn, left unanswered
        await me.close()
    async with running_hall(tmp_path) as hall:
        actor = hall.runtime.hall.get(table_id)
        assert actor is not None and actor.status == "playing"
        assert actor.seats[0].user is not None and actor.driver.auto_reason[0] == "offline"


async def test_one_address_sends_the_bot_workers_at_most_its_share_a_minute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint, a record's check and the reviews run in the bot workers, whose places for
    requests are few: one client's flood held them all (503 ``busy`` for everyone). An address
    sends at most ``WORKER_REQUESTS`` a minute (a cached answer does not count), then 429
    ``workers_limited`` with ``Retry-After``; the minute past, it may again."""
    from baida.server.web.runtime import WORKER_REQUESTS

    ran: list[int] = []

    def counted(data: Any) -> dict[str, Any]:
        ran.append(1)
        return {"waits": []}

    monkeypatch.setattr(api, "hand_waits", counted)
    async with running_hall(tmp_path) as hall:
        me = await Client(hall).guest()
        for i in range(WORKER_REQUESTS):
            r = await me.post("/api/waits", {"n": i})
            assert r.status_code == 200, r.text
        r = await me.post("/api/waits", {"n": 0})  # asked before: the cache answers
        assert r.status_code == 200
        for path in ("/api/waits", "/api/verify"):
            r = await me.post(path, {"n": -1})
            assert r.status_code == 429, r.text
            assert r.json()["code"] == "workers_limited" and r.headers["Retry-After"] == "10"
        assert len(ran) == WORKER_REQUESTS
        hall.clock.advance(60.0)
        r = await me.post("/api/waits", {"n": -1})
        assert r.status_code == 200 and len(ran) == WORKER_REQUESTS + 1
        await me.close()
