"""Hand-made views and actions for the terminal game's renderer and key tests."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console


def plain(renderable: Any, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()


def player(seat: int, **kw: Any) -> dict[str, Any]:
    base = {
        "seat": seat, "wind": "ESWN"[seat], "concealed": None, "concealed_count": 13,
        "drawn": None, "melds": [], "discards": [], "claimed": [], "flowers": [],
        "gave_up": False,
    }
    base.update(kw)
    return base


def jiaxing_view(**kw: Any) -> dict[str, Any]:
    view = {
        "ruleset": "jiaxing", "seat": 0, "dealer": 0, "seat_winds": ["E", "S", "W", "N"],
        "round_wind": "E", "dice": [3, 5], "commitment": "ab", "seed": None,
        "indicator": "5m", "wilds": ["5m"], "specials": [],
        "phase": "turn", "turn": 0, "to_act": [0], "wall_remaining": 83,
        "last_discard": {"seat": 3, "tile": "C"},
        "players": [
            player(
                0,
                concealed=["1m", "2m", "5m", "3s", "9p", "9p", "9p", "C", "E", "E", "3s"],
                concealed_count=11,
                drawn="3s",
                melds=[{"type": "pon", "tiles": ["P", "P", "P"], "from": 1}],
                discards=["N", "F"],
            ),
            player(1, discards=["P", "7s"], claimed=[0]),
            player(2, melds=[{"type": "akong", "tiles": None, "from": None}],
                   concealed_count=10),
            player(3, discards=["C"], melds=[{"type": "chi", "tiles": ["3m", "4m", "5m"],
                                              "from": 2}], concealed_count=10),
        ],
        "santan_pairs": [], "claim_counts": [[0] * 4 for _ in range(4)],
        "sheng_phase": False, "carry_pool": 2, "result": None,
    }
    view.update(kw)
    return view


def act(kind: str, seat: int = 0, **kw: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **kw}


def turn_legal() -> list[dict[str, Any]]:
    """The player's turn in ``jiaxing_view()``: seven discards, a win and two kongs."""
    faces = ["1m", "2m", "5m", "3s", "9p", "C", "E"]
    return [act("discard", tile=f) for f in faces] + [
        act("win"), act("akong", tile="9p"), act("bukong", tile="P"),
    ]
