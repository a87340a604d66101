"""The game engine: one hand (``Round``), a series of hands (``Match``), actions, events, views.

See ``docs/engine.md``.
"""

from .actions import Action
from .errors import EngineError, IllegalAction, MalformedAction, RecordError, ReplayError
from .events import Event
from .jiaxing import JiaxingRound
from .match import Match
from .result import HandResult
from .round import Round
from .views import PlayerView, View
from .wenling import WenlingRound

__all__ = [
    "Action",
    "EngineError",
    "Event",
    "HandResult",
    "IllegalAction",
    "JiaxingRound",
    "MalformedAction",
    "Match",
    "PlayerView",
    "RecordError",
    "ReplayError",
    "Round",
    "View",
    "WenlingRound",
]
