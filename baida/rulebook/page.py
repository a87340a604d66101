"""The 玩法 page of a ruleset for a table's options (``rules_page``), and the options of a URL's
query (``query_options``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from .. import rulesets
from ..rules.options import Options, options_to_json
from ..rulesets import Jiaxing, Ruleset, Wenling
from ..scoring.catalogue import text
from . import jiaxing, wenling

UNITS = {"tai": text("台", "tai"), "fan": text("番", "fan"), "he": text("和", "points"),
         "limit": text("满贯", "limit")}

Sections = Callable[[Options, dict[str, Any]], list[dict[str, Any]]]
# the page of each ruleset (its title and sections), found through the ruleset's class
# ancestry, so that a variant of Jiaxing reads Jiaxing's page
PAGES: dict[type[Ruleset], tuple[Any, Sections]] = {
    Jiaxing: (jiaxing.TITLE, jiaxing.sections),
    Wenling: (wenling.TITLE, wenling.sections),
}


class BookError(ValueError):
    """A page that cannot be made (an unknown ruleset); the message says which."""


def _rules(name: str) -> Ruleset:
    if name not in rulesets.names():
        raise BookError(f"ruleset: {', '.join(rulesets.names())}")
    return rulesets.ruleset(name)


def query_options(ruleset: str, query: Mapping[str, str]) -> dict[str, Any]:
    """Rule options written as a URL's query (``?santan_threshold=4&allow_chi=false``), typed
    as ``make_options`` takes them; what cannot be read is left as text for it to refuse."""
    defaults = options_to_json(_rules(ruleset).make_options({}))
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
    return _page(ruleset, _rules(ruleset).make_options(given or {}))


@lru_cache(maxsize=64)
def _page(ruleset: str, options: Options) -> dict[str, Any]:
    rules = rulesets.ruleset(ruleset)
    found = next((PAGES[c] for c in type(rules).__mro__ if c in PAGES), None)
    if found is None:
        raise BookError(f"ruleset: {ruleset} has no 玩法 page")
    title, sections = found
    groups = rules.catalogue(options)
    page = {
        "ruleset": ruleset,
        "title": title,
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
