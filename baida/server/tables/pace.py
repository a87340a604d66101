"""The pace floor of a table nobody is connected to.

A table may be made with every timing at 0; played out by 托管 with every socket closed, it
runs a few hands a second and keeps a bot worker busy for nobody. While no person is
connected to a table (no seat's person, no watcher), its bots and 托管 decide at most once
every ``--unattended-pace`` seconds (``TableDriver.bot_floor``); the first connection lifts
the floor at once, and where someone is connected the table keeps its own timing exactly.
This module imports nothing, so that the command line can read the default.
"""

from __future__ import annotations

UNATTENDED_PACE = 1.0  # seconds between two bot decisions at a table nobody is at (0: none)


def bot_floor(attended: bool, pace: float) -> float:
    """The driver's ``bot_floor``: none while someone is connected, else ``pace``."""
    return 0.0 if attended else pace
