"""Events: what happened, as plain data, with the per-seat redaction of secrets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import MalformedAction

# Event types whose tile data only their own seat sees (until the hand ends for akong): the
# dealer's ``deal`` also says which of its tiles is the extra one, ``drawn`` (null elsewhere).
PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "draw": ("tile",), "deal": ("tiles", "drawn"), "akong": ("tile",),
}
PRIVATE_EVENTS = frozenset(PRIVATE_FIELDS)  # types whose JSON differs between seats


@dataclass(slots=True)
class Event:
    """One thing that happened in a hand; ``data`` holds JSON-ready values (tiles as faces)."""

    type: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        out.update(self.data)
        return out

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The JSON that ``seat`` (None: a spectator) may see."""
        out = self.to_json()
        keys = PRIVATE_FIELDS.get(self.type)
        if keys is not None and seat != self.seat:
            for key in keys:
                out[key] = None
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Event:
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            raise MalformedAction("an event is a JSON object with a 'type'")
        data = {k: v for k, v in obj.items() if k not in ("type", "seat")}
        return cls(obj["type"], obj.get("seat"), data)
