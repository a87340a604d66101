"""``baida admin``: promote, grant, suspend, check on a hall's database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baida.cli import main
from baida.server.store import Store


def test_admin_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = Store(tmp_path / "hall.db")
    store.migrate()
    store.accounts.register("阿明", "a long password")
    store.close()
    assert main(["admin", "--data", str(tmp_path), "promote", "阿明"]) == 0
    assert json.loads(capsys.readouterr().out)["role"] == "admin"
    assert main(["admin", "--data", str(tmp_path), "grant", "阿明", "50", "--key", "k1"]) == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 1050
    assert main(["admin", "--data", str(tmp_path), "grant", "阿明", "50", "--key", "k1"]) == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 1050  # the same key: once
    assert main(["admin", "--data", str(tmp_path), "suspend", "阿明"]) == 0
    assert json.loads(capsys.readouterr().out)["suspended"] is True
    assert main(["admin", "--data", str(tmp_path), "check"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["admin", "--data", str(tmp_path), "promote", "nobody"]) == 2
    assert "no account" in capsys.readouterr().err
    assert main(["admin", "--data", str(tmp_path / "empty"), "check"]) == 2
