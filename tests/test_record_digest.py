"""Play has not changed: the hashed records of fixed seeds are those of the reference commit.

Each line of ``python -m bench.record_digest --quick`` (twenty hands of four copies of one bot
at one table, through the arena's table loop) must give the digest it gave on commit 3f29644,
before the ruleset object was introduced. A change that alters a single action, event, view,
table message or settlement of these hands fails here. If play is meant to change (a rule
fix, a stronger bot), rerun the command and update the table with the reason in the commit.
"""

from __future__ import annotations

import pytest

from bench.record_digest import QUICK_HANDS, TABLES, digest, line, rows

MATCH_HANDS = 4
# ``python -m bench.record_digest --quick`` on commit 3f29644; the Wenling lines since the hand's
# result says who paid whom (``transfers`` in views and table messages; with that key removed
# every line still gives its 3f29644 digest: the actions, events and settlements are unchanged)
EXPECTED = """
jiaxing       random      20    0  8543b52e80d281afecc0885161e243a273b8cff536609387634c04c925028e32
jiaxing       greedy      20    6  53070f550b085e68fe9cf5a43a4bb5d2cdcf71061544930ea657855cfdc74b1e
jiaxing       efficient   20   18  5e17b0417e7ffb030bad144968fa2a8674e036202c2cab7aeb4c9a19035f2346
jiaxing       strong      20   18  8020f069f9f0fb36e632780fc9cf0d8a3edc9ee37b6ca121ade857fe3810e797
jiaxing       expert      20   19  fceb53625e2559d4aa6a4f00d1d73543a261cbc714772f7565dd811a8383a431
wenling       random      20    2  8ef2d49b1ece78cd0f8125b1adebf254b7ade3d5e948d4a7eb3ed3efa524b039
wenling       greedy      20   20  e992f3c566d476ac6b65a874869c60880932a98eb9b6a0d118641a9ea0298ad4
wenling       efficient   20   20  65c2a02b54b70400570294f039e23fcd1106630c15e231a2656ee3e7dde29a11
wenling       strong      20   20  6c1a06857cff06c125b14a117cd0501a81b0d0e8e54d04f38f6fbe2d03a1e78d
wenling       expert      20   20  a700098ab57c36ae51d9aa52531cd55069a17def69cc5abac1d0e6feb2ca61a5
jiaxing-house random      20    0  84d08c9b0e1c7c008bc706c7d134f11e4f0caedbed9a5f91aa24c8316cd327ac
jiaxing-house greedy      20   13  9350ebbb3c692fb6e1aae69db13cfd8a2e88c0a87667136cc4ba2ef5b4aeec86
jiaxing-house strong      20   18  d726d14f4a29f9ec36ba153593a7d993543eda58e5f8ed8b84c439c89a00b65f
wenling-house random      20    2  0df4ddfeb156b05d37ade57ed1bfd232dcad6bc8c62c42ae47e92f80fc7d22e0
wenling-house greedy      20   20  c845bc90dd91dcae3a4a28fbcff74c62d9ad0683c9e172d5e86eec34be54ad07
wenling-house strong      20   20  0388aeece629fc725ebe6b02aa230d090b770682a6105a6df5d39351ffd267b5
"""


def _expected() -> dict[tuple[str, str], str]:
    lines = EXPECTED.strip().splitlines()
    return {(text.split()[0], text.split()[1]): text for text in lines}


def test_every_line_of_the_command_has_an_expected_digest() -> None:
    expected = _expected()
    assert [(label, bot) for label, _, _, bot in rows(QUICK_HANDS)] == list(expected)
    assert {label for label, _, _ in TABLES} == {label for label, _ in expected}


@pytest.mark.parametrize(("label", "ruleset", "options", "bot"), list(rows(QUICK_HANDS)),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_the_same_seeds_give_the_same_records(
    label: str, ruleset: str, options: dict | None, bot: str
) -> None:
    sha, played, wins = digest(ruleset, options, bot, QUICK_HANDS, MATCH_HANDS)
    assert line(label, bot, sha, played, wins) == _expected()[(label, bot)], "play changed"
