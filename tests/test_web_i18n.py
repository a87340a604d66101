"""The browser client's strings: every badge the hall can put on a table and every kind of
entry in a player's 银子 history has a label in both languages (the page would otherwise
show the bare key, e.g. ``badge.uniform_window``, or the English word ``penalty``)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from baida.engine.actions import ACTION_TYPES
from baida.server.store.ledger import ENTRY_KINDS
from baida.server.tables.config import TableConfig

I18N = Path(__file__).resolve().parents[1] / "baida" / "web" / "js" / "i18n.js"


def _labels() -> dict[str, tuple[str, str]]:
    text = I18N.read_text(encoding="utf-8")
    pairs = re.findall(r'"((?:badge|ledger|act|err)\.[a-z_]+)":\s*\["([^"]*)",\s*"([^"]*)"\]',
                       text)
    return {key: (zh, en) for key, zh, en in pairs}


def test_every_badge_the_hall_gives_has_a_chinese_and_an_english_label() -> None:
    labels = _labels()
    seen: set[str] = set()
    for ruleset, chi, discard_win, stakes, private, uniform, length in itertools.product(
        ("jiaxing", "wenling"), (True, False), (True, False), ("points", "silver"),
        (True, False), (True, False), ({"hands": 2}, {"rounds": 1}),
    ):
        jiaxing = {"allow_chi": chi, "allow_discard_win": discard_win}
        options = jiaxing if ruleset == "jiaxing" else {}
        config = TableConfig.from_json({
            "ruleset": ruleset, "options": options, "stakes": stakes, "private": private,
            "timing": {"uniform_window": uniform}, **length,
        })
        seen |= {badge.split(":")[0] for badge in config.badges()}
    assert "uniform_window" in seen and "no_chi" in seen
    missing = sorted(key for key in seen if f"badge.{key}" not in labels)
    assert not missing, f"badges without a label in i18n.js: {missing}"
    assert all(zh and en and zh != en for zh, en in (labels[f"badge.{k}"] for k in seen))


def test_every_kind_of_ledger_entry_has_a_chinese_and_an_english_label() -> None:
    labels = _labels()
    missing = sorted(kind for kind in ENTRY_KINDS if f"ledger.{kind}" not in labels)
    assert not missing, f"ledger entry kinds without a label in i18n.js: {missing}"
    assert all(zh and en and zh != en for zh, en in (labels[f"ledger.{k}"] for k in ENTRY_KINDS))
    stale = sorted(key for key in labels
                   if key.startswith("ledger.") and key[len("ledger."):] not in ENTRY_KINDS)
    assert not stale, f"labels for entry kinds the ledger never writes: {stale}"


def test_every_kind_of_action_has_a_chinese_and_an_english_label() -> None:
    """The bot's review beside a replay names any action the engine has (``act.<type>``)."""
    labels = _labels()
    missing = sorted(kind for kind in ACTION_TYPES if f"act.{kind}" not in labels)
    assert not missing, f"action types without a label in i18n.js: {missing}"
    assert all(zh and en and zh != en for zh, en in (labels[f"act.{k}"] for k in ACTION_TYPES))


def test_every_refusal_code_of_the_accounts_has_a_chinese_message() -> None:
    """The lobby shows a refusal that has a ``code`` in the page's language (api.js): the
    Chinese text is a translation, the English one the hall's own message (``{msg}``)."""
    server = Path(__file__).resolve().parents[1] / "baida" / "server"
    names = (server / "store" / "names.py").read_text(encoding="utf-8")
    limits = (server / "web" / "limits.py").read_text(encoding="utf-8")
    routes = (server / "web" / "account_routes.py").read_text(encoding="utf-8")
    codes = {"name_taken", *re.findall(r'"(name_[a-z]+)"', names),
             *re.findall(r'"([a-z]+_limited)"', limits),
             *re.findall(r'ApiError\(\d+, "[^"]*", "([a-z_]+)"\)', routes)}
    assert {"name_lookalike", "name_reserved", "guests_limited", "wrong_password"} <= codes
    labels = _labels()
    missing = sorted(code for code in codes if f"err.{code}" not in labels)
    assert not missing, f"refusal codes without a message in i18n.js: {missing}"
    assert all(labels[f"err.{c}"][1] == "{msg}" and labels[f"err.{c}"][0] for c in codes)
