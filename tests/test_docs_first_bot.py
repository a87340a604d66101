"""docs/first-bot.md works as printed: its Python blocks run, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from baida.engine import Round

DOC = Path(__file__).resolve().parent.parent / "docs" / "first-bot.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def code_blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text(encoding="utf-8"))


def bot_block() -> str:
    return next(block for block in code_blocks() if "class LoneTileBot" in block)


def test_the_page_has_a_bot_and_three_game_loops() -> None:
    blocks = code_blocks()
    assert len(blocks) == 5
    assert "action.tile == face" in blocks[0] and "a.face == face" in blocks[0]  # the trap
    assert "class LoneTileBot" in blocks[1]
    assert "Round.from_seed" in blocks[2]
    assert "TableDriver" in blocks[3] and "Match(" in blocks[3]
    assert "driver.submit" in blocks[4]


def test_every_block_runs_as_printed(capsys) -> None:
    namespace: dict = {"__name__": "first_bot_doc"}
    for number, block in enumerate(code_blocks(), 1):
        try:
            exec(compile(block, f"{DOC.name} block {number}", "exec"), namespace)
        except Exception as exc:  # say which block broke
            pytest.fail(f"{DOC.name}, block {number}: {type(exc).__name__}: {exc}")
    out = capsys.readouterr().out
    assert "totals by seat:" in out and "events" in out


def test_the_bot_plays_only_legal_moves_in_both_rulesets() -> None:
    namespace: dict = {"__name__": "first_bot_doc"}
    exec(compile(bot_block(), DOC.name, "exec"), namespace)
    bot = namespace["LoneTileBot"]()
    for ruleset in ("jiaxing", "wenling"):
        for n in range(3):
            rnd = Round.from_seed(ruleset, bytes([n]) * 32)
            while not rnd.ended:  # the bot at every seat: apply refuses anything not offered
                seat = rnd.to_act[0]
                rnd.apply(bot.choose(rnd.view(seat), rnd.legal_actions(seat)))
            assert rnd.result is not None


def test_the_bot_can_be_registered_by_name(tmp_path, monkeypatch) -> None:
    from baida.bots import policy

    monkeypatch.setattr(policy, "_REGISTRY", dict(policy._REGISTRY))  # leave no trace
    (tmp_path / "first_bot.py").write_text(bot_block(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    policy.register("lone-tile-doc", "first_bot:LoneTileBot")
    assert policy.make_bot("lone-tile-doc", seed=3).name == "lone-tile"
