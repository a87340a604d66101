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
# ``python -m bench.record_digest --quick`` on commit 3f29644
EXPECTED = """
jiaxing       random      20    0  8543b52e80d281afecc0885161e243a273b8cff536609387634c04c925028e32
jiaxing       greedy      20    6  53070f550b085e68fe9cf5a43a4bb5d2cdcf71061544930ea657855cfdc74b1e
jiaxing       efficient   20   18  5e17b0417e7ffb030bad144968fa2a8674e036202c2cab7aeb4c9a19035f2346
jiaxing       strong      20   18  8020f069f9f0fb36e632780fc9cf0d8a3edc9ee37b6ca121ade857fe3810e797
jiaxing       expert      20   19  fceb53625e2559d4aa6a4f00d1d73543a261cbc714772f7565dd811a8383a431
wenling       random      20    2  1d925cc5e817d012ea0a203a64b77834250be18f2b5fed96ebf00bd7a91f6551
wenling       greedy      20   20  43291f1b56e85589873eb7e51df5b4d92d58ad0df3e1f1f9f86241c7e2c9bcee
wenling       efficient   20   20  94aa0affa92edd7fa631125ec04261641e593af1907b61b9b287a7b3889aa43c
wenling       strong      20   20  5110047f552fd4e21e37ac93d07ab372e53728f2b4fd1e9f7ef978b4bd3aaf95
wenling       expert      20   20  8f334d22200ddeed1a8bae4af53117c717d833ba1170545835161501954d566b
jiaxing-house random      20    0  84d08c9b0e1c7c008bc706c7d134f11e4f0caedbed9a5f91aa24c8316cd327ac
jiaxing-house greedy      20   13  9350ebbb3c692fb6e1aae69db13cfd8a2e88c0a87667136cc4ba2ef5b4aeec86
jiaxing-house strong      20   18  d726d14f4a29f9ec36ba153593a7d993543eda58e5f8ed8b84c439c89a00b65f
wenling-house random      20    2  5794e2524bb8ceca0c3f3468945b2445329dfe9d00ced0a86ee83482adfb00c4
wenling-house greedy      20   20  bd988fb3cb916f1bf57806bcfd5207189045e9b169e9619ff0e6e0818eb8f166
wenling-house strong      20   20  93b642c99b21a7cc53959a9778add700cc6dbd42bbb4fc7937db121032899d5f
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
