"""`make` on a machine that is not ready says what to do and leaves nothing half made: a Python
older than 3.11 is named with the way to give another, and a Python whose venv module cannot
install pip (Debian or Ubuntu without python3-venv) gets the package to install; the half-made
environment is removed, so the next `make`, once the machine is ready, makes it whole (it would
otherwise take the half-made one as made and fail at pip)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

OLD_PYTHON = """#!/bin/sh
case "$1" in
  -V) echo "Python 3.10.12";;
  *) exit 1;;
esac
"""

# A Python 3.11 whose `-m venv` makes the folder and its interpreter, then fails for want of
# ensurepip, as Debian's does without python3-venv.
NO_VENV_PYTHON = """#!/bin/sh
case "$1" in
  -V) echo "Python 3.11.2";;
  -c) exit 0;;
  -m) mkdir -p "$3/bin"; touch "$3/bin/python"
      echo "The virtual environment was not created successfully: ensurepip is not available."
      exit 1;;
esac
"""


def make_venv(tmp_path: Path, python_script: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    python = tmp_path / "python"
    python.write_text(python_script)
    python.chmod(0o755)
    venv = tmp_path / "venv"
    return subprocess.run(["make", "-s", "-C", str(ROOT), f"{venv}/bin/python", f"VENV={venv}",
                           f"PYTHON={python}"], capture_output=True, text=True, timeout=60)


def test_an_old_python_is_named_with_the_way_to_give_another(tmp_path: Path) -> None:
    done = make_venv(tmp_path, OLD_PYTHON)
    assert done.returncode != 0
    assert "baida needs Python 3.11 or newer" in done.stderr and "Python 3.10.12" in done.stderr
    assert "PYTHON=" in done.stderr and not (tmp_path / "venv").exists()


def test_a_python_without_its_venv_module_gets_the_package_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    done = make_venv(tmp_path, NO_VENV_PYTHON)
    assert done.returncode != 0
    assert "sudo apt install python3-venv" in done.stderr
    assert not (tmp_path / "venv").exists()  # the next make starts again from nothing
