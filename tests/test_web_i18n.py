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
    pairs = re.findall(
        r'"((?:badge|ledger|act|err|refused)\.[a-z_]+)":\s*\["([^"]*)",\s*"([^"]*)"\]', text)
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


SERVER = Path(__file__).resolve().parents[1] / "baida" / "server"
# a code as the third argument of a refusal: error(404, "…", "no_hand"), raise ApiError(…),
# raise HallError("…", "stopping"); a case of a table's refusal: Refused("not_allowed", "…",
# "seat_taken") (a message may be several literals, over several lines)
HTTP_CODE = re.compile(r'(?:\berror|ApiError)\(\d+,\s*(?:f?"[^"]*"\s*|BUSY\s*|str\(exc\)\s*)+,'
                       r'\s*"([a-z_]+)"')
HALL_CODE = re.compile(r'HallError\((?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"')
REASON = re.compile(r'Refused\(\s*"[a-z_]+",\s*(?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"\)')


def _found(pattern: re.Pattern[str], *paths: Path) -> set[str]:
    return {code for path in paths for code in pattern.findall(path.read_text(encoding="utf-8"))}


def test_every_code_the_lobby_gives_a_player_reads_in_the_pages_language() -> None:
    """A lobby refusal with a ``code`` (a wrong password, a hand that is not yours, a table
    that closed) is shown in Chinese on a Chinese page, not in the hall's English."""
    codes = _found(HTTP_CODE, SERVER / "web" / "api.py") | _found(
        HALL_CODE, SERVER / "tables" / "hall.py")
    assert {"wrong_login", "signin_first", "no_hand", "no_room", "busy", "room_codes_limited",
            "host_limit", "stopping"} <= codes, codes
    labels = _labels()
    missing = sorted(code for code in codes if f"err.{code}" not in labels)
    assert not missing, f"lobby codes without a message in i18n.js: {missing}"
    assert all(labels[f"err.{c}"][1] == "{msg}" and labels[f"err.{c}"][0] for c in codes)


def test_every_refusal_at_a_table_reads_in_the_pages_language() -> None:
    """A table's ``refused`` is worded by its case (``reason``) or, for the codes an honest page
    can meet (a claim window that closed, a flood), by its code."""
    actors = sorted((SERVER / "tables" / "actor").glob("*.py"))
    reasons = _found(REASON, *actors)
    assert {"seat_taken", "chat_too_fast", "leave_not_stored", "bots_before_match"} <= reasons
    labels = _labels()
    wanted = reasons | {"stale", "no_prompt", "not_offered", "rate_limited"}
    missing = sorted(key for key in wanted if f"refused.{key}" not in labels)
    assert not missing, f"refusals without words in i18n.js: {missing}"
    assert all(labels[f"refused.{k}"][0] and labels[f"refused.{k}"][1] == "{msg}" for k in wanted)
