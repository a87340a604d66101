"""Where a hall keeps its data (a module light enough for the command line to import)."""

from __future__ import annotations

import os
from pathlib import Path


def default_data_dir() -> Path:
    """``$BAIDA_DATA`` or ``~/.local/share/baida``."""
    given = os.environ.get("BAIDA_DATA")
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "baida"
