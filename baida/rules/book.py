"""The 玩法 page of each ruleset as data, in Chinese and English, for a table's options.

``rules_page(ruleset, options)`` gives ``{"ruleset", "title", "options", "items", "sections"}``:
``items`` is the scorers' own catalogue (``baida.scoring.catalogue``: every item they can
award, its id, names, meaning and value); ``sections`` are the page's headings and blocks, in
order. A block is one of

* ``{"type": "text", "text": T}``, ``{"type": "list", "items": [T, ...]}``;
* ``{"type": "items", "group": id}``: one group of ``items`` shown here;
* ``{"type": "hands", "hands": [...]}``: example hands, each scored by the scorer itself when
  the page is built (``legal``, the items it awards, the total), so an example cannot say
  what the rules do not;
* ``{"type": "tiles", "rows": [{"tiles": [faces], "caption": T}]}``;
* ``{"type": "table", "head": [T, ...], "rows": [[T, ...], ...]}``

where ``T`` is ``{"zh": ..., "en": ...}``. Numbers that a table's options or the engine fix
(the 三摊 threshold, the 黄牌 point, the shares...) come from them, never from the text.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..hand import parse_meld
from ..scoring import score_json
from ..scoring.catalogue import catalogue, text
from ..tiles import WILD, parse_tile, parse_tiles, sort_key, tile_str
from .options import Options, make_options, options_to_json

Text = dict[str, str]
Block = dict[str, Any]
RULESETS = ("jiaxing", "wenling")
UNITS = {"tai": text("台", "tai"), "fan": text("番", "fan"), "he": text("和", "points"),
         "limit": text("满贯", "limit")}


# both rulesets seat the players the same way
SEATS = ("庄家是东，下家（右手边）是南，对家是西，上家是北；逆时针轮流出牌。",
         "The dealer is East; the next player (on the right) South, the one opposite West, the "
         "one on the left North. Play goes counter-clockwise.")


class BookError(ValueError):
    """A page that cannot be made (an unknown ruleset); the message says which."""


def para(zh: str, en: str) -> Block:
    return {"type": "text", "text": text(zh, en)}


def bullets(*pairs: tuple[str, str]) -> Block:
    return {"type": "list", "items": [text(zh, en) for zh, en in pairs]}


def items(group: str) -> Block:
    return {"type": "items", "group": group}


def table(head: list[tuple[str, str]], rows: list[list[tuple[str, str]]]) -> Block:
    return {"type": "table", "head": [text(*h) for h in head],
            "rows": [[text(*cell) for cell in row] for row in rows]}


def tiles(*rows: tuple[str, str, str]) -> Block:
    """Rows of tiles (notation) with a caption each."""
    return {"type": "tiles", "rows": [
        {"tiles": [tile_str(k) for k in parse_tiles(notation)], "caption": text(zh, en)}
        for notation, zh, en in rows]}


def section(id_: str, zh: str, en: str, *blocks: Block | None) -> dict[str, Any]:
    return {"id": id_, "title": text(zh, en), "blocks": [b for b in blocks if b is not None]}


def example(
    options: Options, ruleset: str, id_: str, title: tuple[str, str], concealed: str, win: str,
    *, indicator: str, caption: tuple[str, str], **request: Any,
) -> dict[str, Any]:
    """An example hand scored by the scorer (``concealed`` in scorer notation, ``*`` a wild;
    the winner is South, by self-draw unless ``request`` says otherwise)."""
    obj: dict[str, Any] = {
        "ruleset": ruleset, "indicator": indicator, "winner": "S",
        "hand": {"concealed": concealed, "melds": list(request.pop("melds", ())),
                 "flowers": list(request.pop("flowers", ()))},
        "win_tile": win, "options": options_to_json(options), **request,
    }
    out = score_json(obj)
    wild_face = tile_str(parse_tile(indicator))
    kinds = sorted(parse_tiles(concealed), key=sort_key)  # as a table shows a hand: wilds first
    faces = [wild_face if k == WILD else tile_str(k) for k in kinds]
    win_face = wild_face if win == "*" else tile_str(parse_tile(win))
    return {
        "id": id_, "title": text(*title), "tiles": faces, "win_tile": win_face,
        "melds": [{"type": m.kind, "tiles": [tile_str(k) for k in m.tiles]}
                  for m in map(parse_meld, obj["hand"]["melds"])],
        "flowers": [tile_str(parse_tile(f)) for f in obj["hand"]["flowers"]],
        "wilds": [wild_face] if "*" in concealed + win else [],
        "legal": out["legal"], "score": _breakdown(ruleset, out), "wild_as": out["wilds"] or [],
        "caption": text(*caption),
    }


def _breakdown(ruleset: str, out: dict[str, Any]) -> dict[str, Any] | None:
    """The scorer's answer as the page shows it: the items by name and unit, and the total."""
    if not out["legal"]:
        return None
    if ruleset == "jiaxing":
        groups = (("tai", out["tai"]), ("fan", out["fan"]))
        total = {"tai": out["tai_total"], "fan": out["fan_total"], "share": out["points"]}
    else:
        groups = (("he", out["base_items"]), ("fan", out["fan"]))
        total = {"he": out["base_points"], "fan": out["fan_total"], "raw": out["raw"],
                 "points": out["points"]}
    return {"items": [{"name": name, "value": value, "unit": unit}
                      for unit, listed in groups for name, value in
                      ((i["name"], i["value"]) for i in listed)], "total": total}


def query_options(ruleset: str, query: Mapping[str, str]) -> dict[str, Any]:
    """Rule options written as a URL's query (``?santan_threshold=4&allow_chi=false``), typed
    as ``make_options`` takes them; what cannot be read is left as text for it to refuse."""
    if ruleset not in RULESETS:
        raise BookError(f"ruleset: {', '.join(RULESETS)}")
    defaults = options_to_json(make_options(ruleset, {}))
    out: dict[str, Any] = {}
    for name, raw in query.items():
        default = defaults.get(name)
        if isinstance(default, bool) and raw in ("true", "false"):
            out[name] = raw == "true"
        elif isinstance(default, int) and raw.isascii() and raw.isdigit() and len(raw) <= 9:
            out[name] = int(raw)
        else:
            out[name] = raw
    return out


def rules_page(ruleset: str, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """The 玩法 page of ``ruleset`` for the table options ``given`` (defaults for the rest).

    Raises ``BookError`` for an unknown ruleset and ``OptionError`` for a bad option."""
    if ruleset not in RULESETS:
        raise BookError(f"ruleset: {', '.join(RULESETS)}")
    return _page(ruleset, make_options(ruleset, given or {}))


@lru_cache(maxsize=64)
def _page(ruleset: str, options: Options) -> dict[str, Any]:
    if ruleset == "jiaxing":
        from .book_jiaxing import TITLE, sections
    else:
        from .book_wenling import TITLE, sections
    groups = catalogue(ruleset, options)
    page = {
        "ruleset": ruleset,
        "title": TITLE,
        "units": UNITS,
        "options": options_to_json(options),
        "items": groups,
        "sections": sections(options, {g["id"]: g for g in groups}),
    }
    _name_examples(page)
    return page


def _name_examples(page: dict[str, Any]) -> None:
    """Give every scored example's item its names from the catalogue (a name the catalogue
    lacks is an error here, not a bare Chinese word on the English page)."""
    names = {(item["name"]["zh"], group["unit"]): item["name"] for group in page["items"]
             for item in group["items"]}
    names |= {(name, "fan"): value for (name, unit), value in names.items() if unit == "limit"}
    for sec in page["sections"]:
        for block in sec["blocks"]:
            if block["type"] != "hands":
                continue
            for hand in block["hands"]:
                for item in (hand["score"] or {}).get("items", []):
                    item["name"] = names[(item["name"], item["unit"])]
