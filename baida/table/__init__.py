"""One table's game loop (``TableDriver``), shared by the hall, the terminal game and the arena.

See ``docs/table.md``.
"""

from .driver import BotTurn, Prompt, Refused, SeatMode, TableDriver, safe_action
from .runner import bot_modes, play_bots
from .timing import TableTiming, TimingError

__all__ = [
    "BotTurn",
    "Prompt",
    "Refused",
    "SeatMode",
    "TableDriver",
    "TableTiming",
    "TimingError",
    "bot_modes",
    "play_bots",
    "safe_action",
]
