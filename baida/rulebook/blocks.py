"""The building blocks of a 玩法 page: texts in Chinese and English, lists, tables, tiles and
example hands scored by the scorer itself."""

from __future__ import annotations

from typing import Any

from .. import rulesets
from ..hand import parse_meld
from ..rules.options import Options, options_to_json
from ..scoring.catalogue import text
from ..tiles import WILD, parse_tile, parse_tiles, sort_key, tile_str

Text = dict[str, str]
Block = dict[str, Any]


# both rulesets seat the players the same way
SEATS = ("庄家是东，下家（右手边）是南，对家是西，上家是北；逆时针轮流出牌。",
         "The dealer is East; the next player (on the right) South, the one opposite West, the "
         "one on the left North. Play goes counter-clockwise.")


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
    out = rulesets.score_json(obj)
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
    if rulesets.ruleset(ruleset).unit == "tai":
        groups = (("tai", out["tai"]), ("fan", out["fan"]))
        total = {"tai": out["tai_total"], "fan": out["fan_total"], "share": out["points"]}
    else:
        groups = (("he", out["base_items"]), ("fan", out["fan"]))
        total = {"he": out["base_points"], "fan": out["fan_total"], "raw": out["raw"],
                 "points": out["points"]}
    return {"items": [{"name": name, "value": value, "unit": unit}
                      for unit, listed in groups for name, value in
                      ((i["name"], i["value"]) for i in listed)], "total": total}
