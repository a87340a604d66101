"""The 玩法 page's data (``baida.rulebook``) and the item catalogue it is built from
(``baida.scoring.catalogue``): every item the scorers can award is there with a stable id, its
Chinese and English names and the scorer's own value; the example hands are what the scorer
says; a table's options change what the page shows; and ``GET /api/rules/{ruleset}`` serves it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hall_harness import running_hall

from baida.rulebook import BookError, query_options, rules_page
from baida.rules.options import OptionError
from baida.rulesets import ruleset as _ruleset
from baida.rulesets import score_json
from baida.scoring import jiaxing_items as jx
from baida.scoring import wenling_items as wl

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("jiaxing", "wenling")
CJK = range(0x2E80, 0xA000)


def page_items(page: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """The page's items by (group, Chinese name)."""
    return {(g["id"], i["name"]["zh"]): i for g in page["items"] for i in g["items"]}


def texts(node: Any) -> list[dict[str, str]]:
    """Every ``{"zh", "en"}`` text anywhere in ``node``."""
    if isinstance(node, dict):
        if set(node) == {"zh", "en"}:
            return [node]
        return [t for value in node.values() for t in texts(value)]
    if isinstance(node, list):
        return [t for value in node for t in texts(value)]
    return []


def hands(page: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["id"]: h for s in page["sections"] for b in s["blocks"] if b["type"] == "hands"
            for h in b["hands"]}


# ------------------------------------------------------------------ every item, both languages


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_item_the_scorer_can_award_is_on_the_page_with_both_names(ruleset: str) -> None:
    page = rules_page(ruleset)
    listed = page_items(page)
    for group, names in _ruleset(ruleset).awardable().items():
        for name in names:
            item = listed.get((group, name))
            assert item is not None, f"{ruleset} {group} {name} is not on the page"
            assert item["name"]["zh"] == name
            en = item["name"]["en"]
            assert en and not any(ord(c) in CJK for c in en), (name, en)
            assert item["when"]["zh"] and item["when"]["en"], name
    # and nothing the scorer cannot award
    scorer = _ruleset(ruleset).awardable()
    assert set(listed) == {(g, n) for g, names in scorer.items() for n in names}
    # every group is shown somewhere on the page
    shown = {b["group"] for s in page["sections"] for b in s["blocks"] if b["type"] == "items"}
    assert shown == {g["id"] for g in page["items"]}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_catalogue_has_no_entry_for_an_item_the_scorer_lacks(ruleset: str) -> None:
    scorer = _ruleset(ruleset).awardable()
    for group, by_name in _ruleset(ruleset).catalogue_entries().items():
        assert set(by_name) == set(scorer[group]), group


def test_the_values_are_the_scorers_own() -> None:
    jiaxing = page_items(rules_page("jiaxing"))
    for group, table in (("tai", jx.TAI_ITEMS), ("fan", jx.FAN_ITEMS), ("carry", jx.CARRY_TOKENS)):
        for item in table:
            assert jiaxing[(group, item.name)]["value"] == item.value
            assert jiaxing[(group, item.name)]["name"]["en"] == item.english
    wenling = page_items(rules_page("wenling"))
    for item in (wl.PUNG, wl.CONCEALED_PUNG, wl.EXPOSED_KONG, wl.CONCEALED_KONG):
        assert wenling[("he", item.name)]["value"] == {"heavy": item.heavy, "light": item.light}
    for item in (wl.PAIR, *wl.EXPOSED_SPECIAL.values(), *wl.WAIT_ITEMS.values(), wl.SELF_DRAW):
        assert wenling[("he", item.name)]["value"] == item.value
    for item in wl.FAN_ITEMS:
        assert wenling[("fan", item.name)]["value"] == item.value
        assert wenling[("fan", item.name)]["nonwinner"] == item.nonwinner or item.name == "门风花牌"
    for name in _ruleset("wenling").awardable()["limit"]:
        assert wenling[("limit", name)]["value"] == wl.LIMIT


def test_ids_are_stable_and_unique() -> None:
    """The ids are what a client or a translation keys on: they are not renamed casually."""
    ids = {r: [i["id"] for g in _ruleset(r).catalogue(_ruleset(r).make_options({}))
               for i in g["items"]]
           for r in RULESETS}
    for listed in ids.values():
        assert len(listed) == len(set(listed))
    assert ids["jiaxing"] == [
        "tai.red_dragon_triplet", "tai.green_dragon_triplet", "tai.white_dragon_triplet",
        "tai.seat_wind_triplet", "tai.round_wind_triplet", "tai.no_wild", "tai.all_triplets",
        "tai.half_flush", "tai.full_flush", "tai.all_honours", "fan.three_wilds",
        "fan.kong_replacement_win", "fan.single_wait", "fan.carried_fan", "fan.last_tile",
        "fan.heavenly_hand", "fan.earthly_hand", "carry.honour_wild", "carry.dice_double",
        "carry.same_wild_again",
    ]
    assert sorted(ids["wenling"]) == sorted([
        "he.valued_pair", "he.exposed_triplet", "he.concealed_triplet", "he.exposed_kong",
        "he.concealed_kong", "he.exposed_white", "he.exposed_red", "he.exposed_green",
        "he.single_wait", "he.closed_wait", "he.edge_wait", "he.self_draw",
        "fan.exposed_white", "fan.exposed_red", "fan.exposed_green", "fan.seat_flower",
        "fan.seat_wind_triplet", "fan.dragon_triplet", "fan.full_flush", "fan.half_flush",
        "fan.all_triplets", "fan.all_sequences", "fan.no_wild", "fan.two_wilds",
        "fan.kong_replacement_win", "fan.robbing_a_kong", "fan.self_drawn_wild",
        "limit.three_wilds", "limit.four_red_flowers", "limit.four_black_flowers",
        "limit.four_whites", "limit.four_reds", "limit.four_greens", "limit.seat_wind_kong",
        "limit.dragon_kong", "limit.four_winds",
    ])


def _example_outputs() -> list[dict[str, Any]]:
    """Every scorer input kept as an example in the repository, scored."""
    out = []
    for folder in (ROOT / "docs" / "examples", ROOT / "tests" / "fixtures" / "examples"):
        for path in sorted(folder.glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            for case in data if isinstance(data, list) else [data]:
                request = case.get("input", case) if isinstance(case, dict) else case
                if not isinstance(request, dict) or "ruleset" not in request:
                    continue
                try:
                    out.append({"ruleset": request["ruleset"], **score_json(request)})
                except ValueError:
                    continue  # the examples of malformed input
    return out


def test_every_item_named_by_the_scorer_on_the_examples_is_in_the_catalogue() -> None:
    outputs = _example_outputs()
    assert len(outputs) >= 15
    seen = 0
    for out in outputs:
        awarded = _ruleset(out["ruleset"]).awardable()
        names = {(g, n) for g, listed in awarded.items() for n in listed}
        flat = {n for _, n in names}
        for key in ("tai", "fan", "base_items"):
            for item in out.get(key) or []:
                assert item["name"] in flat, (out["ruleset"], item["name"])
                seen += 1
    assert seen >= 30


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_text_on_the_page_is_in_both_languages(ruleset: str) -> None:
    page = rules_page(ruleset)
    found = texts(page)
    assert len(found) > 100
    for t in found:
        assert t["zh"].strip() and t["en"].strip(), t
        assert any(ord(c) in CJK for c in t["zh"]) or t["zh"] == t["en"], t
    assert json.loads(json.dumps(page)) == page  # plain JSON


# ------------------------------------------------------------------ the example hands


def test_the_jiaxing_examples_are_what_the_scorer_says() -> None:
    examples = hands(rules_page("jiaxing"))
    assert examples["no_pattern"]["legal"] is False and examples["no_pattern"]["score"] is None
    for id_, pattern in (("full_flush", "清一色"), ("half_flush", "混一色"),
                         ("all_honours", "全老头"), ("all_triplets", "对对和")):
        hand = examples[id_]
        assert hand["legal"], id_
        named = {i["name"]["zh"]: i["value"] for i in hand["score"]["items"]}
        assert pattern in named, (id_, named)
        assert hand["score"]["total"]["tai"] == sum(v for v in named.values())
        assert len(hand["tiles"]) + 1 == 14
    assert examples["half_flush"]["wilds"] == ["5s"] and examples["half_flush"]["wild_as"]
    # with 全老头 not stacking, the all-honours example scores no 对对和
    flat = hands(rules_page("jiaxing", {"qlt_stacks_with_ddh": False}))["all_honours"]
    assert "对对和" not in {i["name"]["zh"] for i in flat["score"]["items"]}


def test_the_wenling_examples_are_what_the_scorer_says() -> None:
    examples = hands(rules_page("wenling"))
    assert all(h["legal"] for h in examples.values())
    flowers = examples["flowers"]
    assert flowers["flowers"] == ["f2", "f6", "P"]
    named = {(i["name"]["zh"], i["unit"]) for i in flowers["score"]["items"]}
    assert {("门风花牌", "fan"), ("翻白板", "he"), ("翻白板", "fan")} <= named
    total = flowers["score"]["total"]
    assert total["raw"] == (total["he"] + wl.BASE_CONSTANT) << total["fan"]


# ------------------------------------------------------------------ a table's options


def _section(page: dict[str, Any], id_: str) -> str:
    sec = next(s for s in page["sections"] if s["id"] == id_)
    return json.dumps(sec, ensure_ascii=False)


def test_jiaxing_options_change_what_the_page_shows() -> None:
    plain = rules_page("jiaxing")
    assert "满 3 次" in _section(plain, "santan") and "3 times" in _section(plain, "santan")
    four = rules_page("jiaxing", {"santan_threshold": 4})
    assert "满 4 次" in _section(four, "santan") and "4 times" in _section(four, "santan")
    assert "本桌不玩三摊" in _section(rules_page("jiaxing", {"santan_enabled": False}), "santan")
    assert "本桌不能吃" in _section(rules_page("jiaxing", {"allow_chi": False}), "play")
    assert "抓铳" in _section(rules_page("jiaxing", {"allow_discard_win": True}), "win")
    three = rules_page("jiaxing", {"allow_discard_win": True,
                                   "discard_win_payment": "discarder_three_shares"})
    assert "一个人付 3 份" in _section(three, "pay")
    stacked = page_items(plain)[("tai", "全老头")]["note"]["zh"]
    assert "12" in stacked
    flat = page_items(rules_page("jiaxing", {"qlt_stacks_with_ddh": False}))
    assert flat[("tai", "全老头")]["note"]["zh"] == "不另算对对和"
    off = page_items(rules_page("jiaxing", {"carry_fans_enabled": False}))
    assert not off[("fan", "黄番")]["available"]
    assert not any(off[("carry", t.name)]["available"] for t in jx.CARRY_TOKENS)
    assert all(i["available"] for i in page_items(plain).values())
    any_two = rules_page("jiaxing", {"require_pattern": False})
    assert "2 台" in _section(any_two, "win") and hands(any_two)["no_pattern"]["legal"] is False
    assert plain["options"]["santan_threshold"] == 3 and four["options"]["santan_threshold"] == 4


def test_wenling_options_change_what_the_page_shows() -> None:
    plain = rules_page("wenling")
    assert "8 对（16 张）" in _section(plain, "huangpai")
    assert "10 对（20 张）" in _section(rules_page("wenling", {"huangpai_pairs": 10}), "huangpai")
    no20 = rules_page("wenling", {"nonwinner_base20": False})
    assert "不加 20" in _section(no20, "pay")
    items = page_items(rules_page("wenling", {"special_four_lazi": False}))
    assert not items[("limit", "4张红中")]["available"]
    assert not items[("limit", "4张发财")]["available"]
    assert items[("limit", "4张白板")]["available"]
    assert "必须自摸" in page_items(rules_page("wenling", {"panghe_selfdraw_only": True}))[
        ("fan", "旁和")]["note"]["zh"]
    seat = page_items(rules_page("wenling", {"nonwinner_seat_flower": True}))
    assert seat[("fan", "门风花牌")]["nonwinner"] is True
    assert page_items(plain)[("fan", "门风花牌")]["nonwinner"] is False
    assert "一个人替三家" in _section(rules_page("wenling", {"rob_payment": "robbed"}), "pay")


def test_options_in_a_query_are_typed_and_checked() -> None:
    assert query_options("jiaxing", {"santan_threshold": "4", "allow_chi": "false"}) == {
        "santan_threshold": 4, "allow_chi": False}
    assert query_options("wenling", {"rob_payment": "robbed"}) == {"rob_payment": "robbed"}
    with pytest.raises(OptionError, match="santan_threshold"):
        rules_page("jiaxing", query_options("jiaxing", {"santan_threshold": "0"}))
    with pytest.raises(OptionError, match="allow_chi"):
        rules_page("jiaxing", query_options("jiaxing", {"allow_chi": "yes"}))
    with pytest.raises(OptionError, match="huangpai_pairs"):
        rules_page("jiaxing", query_options("jiaxing", {"huangpai_pairs": "8"}))
    with pytest.raises(OptionError, match="expected an integer"):
        rules_page("jiaxing", query_options("jiaxing", {"rounds": "9" * 40}))
    with pytest.raises(BookError, match="jiaxing, wenling"):
        rules_page("riichi")


# ------------------------------------------------------------------ the endpoint

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_the_rules_endpoint_serves_the_page_for_a_tables_options(tmp_path: Path) -> None:
    async with running_hall(tmp_path) as hall:
        async with httpx.AsyncClient(base_url=hall.base) as http:
            r = await http.get("/api/rules/jiaxing")
            assert r.status_code == 200
            assert r.json() == json.loads(json.dumps(rules_page("jiaxing")))
            r = await http.get("/api/rules/jiaxing", params={"santan_threshold": "4"})
            assert r.status_code == 200 and r.json()["options"]["santan_threshold"] == 4
            r = await http.get("/api/rules/wenling", params={"huangpai_pairs": "10"})
            assert r.status_code == 200 and r.json()["options"]["huangpai_pairs"] == 10
            r = await http.get("/api/rules/jiaxing", params={"santan_threshold": "zero"})
            assert r.status_code == 400 and "santan_threshold" in r.json()["error"]
            r = await http.get("/api/rules/jiaxing", params={"no_such": "1"})
            assert r.status_code == 400 and "no_such" in r.json()["error"]
            r = await http.get("/api/rules/riichi")
            assert r.status_code == 404 and "jiaxing, wenling" in r.json()["error"]
