"""The pace floors: of a table nobody is connected to, and of bots at tables players make.

A table may be made with every timing at 0; played out by 托管 with every socket closed, it
runs a few hands a second and keeps a bot worker busy for nobody. While no person is
connected to a table (no seat's person, no watcher), its bots and 托管 decide at most once
every ``--unattended-pace`` seconds (``TableDriver.bot_floor``); the first connection lifts
the floor at once, and where someone is connected the table keeps its own timing exactly.

A table a player makes may also ask for bots that answer at once (``timing.bot_turn`` 0).
With its sockets open (watching it, or seated on 托管) such a table ran hands as fast as a
bot worker could play them, for one stranger: three tables an account, a whole core. So
the hall refuses a player's table whose ``bot_turn`` is under ``--min-bot-time`` (the
operator's standing tables keep theirs); a turn then takes at least that long, and the CPU a
table can cost is bounded whoever is connected. Claims keep their pace (a window's bot
answers come within the pause, whatever the floor: how many seats could claim stays hidden).

This module imports nothing, so that the command line can read the defaults.
"""

from __future__ import annotations

UNATTENDED_PACE = 1.0  # seconds between two bot decisions at a table nobody is at (0: none)
MIN_BOT_TIME = 0.5  # the least ``timing.bot_turn`` of a table a player makes (0: any)


def bot_floor(attended: bool, pace: float) -> float:
    """The driver's ``bot_floor``: none while someone is connected, else ``pace``."""
    return 0.0 if attended else pace


def bot_time_refusal(bot_turn: float, least: float) -> str | None:
    """Why a player's table may not have bots this fast (None: it may)."""
    if bot_turn >= least:
        return None
    return (f"timing.bot_turn: at least {least:g} seconds at this hall (bots and 托管 at "
            f"tables players make), got {bot_turn:g}")
