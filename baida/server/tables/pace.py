"""The pace floors: of a table nobody is connected to, and of bots at tables players make.

A table may be made with every timing at 0; played out by 托管 with every socket closed, it
runs a few hands a second and keeps a bot worker busy for nobody. While no person is
connected to a table (no seat's person, no watcher), its bots and 托管 decide at most once
every ``--unattended-pace`` seconds (``TableDriver.bot_floor``); the first connection lifts
the floor at once, and where someone is connected the table keeps its own timing exactly.

A table a player makes may also ask for bots that answer at once (``timing.bot_turn`` 0).
With its sockets open (watching it, or seated on 托管) such a table ran hands as fast as a bot
worker could play them, for one stranger: three tables an account, a whole core. So the hall
refuses a player's table whose ``bot_turn`` is under ``--min-bot-time`` (the operator's
standing tables keep theirs), and whose turn (its bank is spent once a hand) or 三摊 question
runs out sooner: a decision whose time runs out goes to 托管 at once, so people seated at a
table with no time to think (taking their seats back after every turn) would be bots without
the floor. A turn then takes at least that long, and the CPU a table can cost is bounded
whoever is connected. Claims keep their pace (a window's bot answers come within the pause,
whatever the floor: how many seats could claim stays hidden; a window that runs out passes,
with no bot to ask).

This module imports nothing, so that the command line can read the defaults.
"""

from __future__ import annotations

from typing import Any

UNATTENDED_PACE = 1.0  # seconds between two bot decisions at a table nobody is at (0: none)
MIN_BOT_TIME = 0.5  # the least ``timing.bot_turn`` of a table a player makes (0: any)


def bot_floor(attended: bool, pace: float) -> float:
    """The driver's ``bot_floor``: none while someone is connected, else ``pace``."""
    return 0.0 if attended else pace


def bot_time_refusal(timing: Any, least: float) -> str | None:
    """Why a player's table (its ``TableTiming``) may not have bots or 托管 this fast (None:
    it may)."""
    if timing.bot_turn < least:
        return (f"timing.bot_turn: at least {least:g} seconds at this hall (bots and 托管 at "
                f"tables players make), got {timing.bot_turn:g}")
    if timing.turn is not None and timing.turn < least:  # the bank is spent once a hand
        return (f"timing.turn: at least {least:g} seconds at this hall (a turn whose time runs "
                f"out goes to 托管), got {timing.turn:g}")
    if timing.santan is not None and timing.santan < least:
        return (f"timing.santan: at least {least:g} seconds at this hall (a 三摊 question whose "
                f"time runs out goes to 托管), got {timing.santan:g}")
    return None
