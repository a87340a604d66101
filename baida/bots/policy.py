"""The policy protocol every bot follows, and the registry of bots by name.

A policy sees one seat's view and the legal actions of that seat, and returns one of those
actions (the very object, or an equal one). It never sees the engine state, so a bot can sit
at a hall table, take over a stalled player (托管) or play in the arena alike.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..tiles import parse_tile


@runtime_checkable
class Policy(Protocol):
    """``choose(view, legal_actions) -> action``; ``name`` identifies the bot in reports."""

    name: str

    def choose(self, view: Any, legal_actions: Sequence[Any]) -> Any: ...


PolicyFactory = Callable[..., Policy]

# name -> "module:attribute" of a class (or factory) taking an optional ``seed`` keyword
_REGISTRY: dict[str, str] = {
    "random": "baida.bots.random_bot:RandomBot",
    "greedy": "baida.bots.greedy:GreedyBot",
    "efficient": "baida.bots.efficient:EfficientBot",
    "strong": "baida.bots.strong:StrongBot",
    "expert": "baida.bots.expert:ExpertBot",
    "tuoguan": "baida.bots.tuoguan:TuoguanBot",
    "search": "baida.bots.search:SearchBot",
}

LADDER = ("random", "greedy", "efficient", "strong", "expert", "search")


class UnknownBot(ValueError):
    """A bot name that is not registered."""


def bot_names() -> list[str]:
    return list(_REGISTRY)


def register(name: str, target: str) -> None:
    """Register ``module:attribute`` under ``name`` (for plug-in bots)."""
    if ":" not in target:
        raise ValueError(f"expected 'module:attribute', got {target!r}")
    _REGISTRY[name] = target


def factory(name: str) -> PolicyFactory:
    """The class or factory registered as ``name``, or named ``module:attribute`` itself."""
    target = _REGISTRY.get(name)
    if target is None and ":" in name:
        target = name
    if target is None:
        raise UnknownBot(f"unknown bot {name!r}; choose from {', '.join(sorted(_REGISTRY))}")
    module_name, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        if target != name:
            raise
        raise UnknownBot(f"cannot load bot {name!r}: {exc}") from None


def make_bot(name: str, seed: int | None = None) -> Policy:
    """A fresh policy instance; ``seed`` fixes its own random choices (ties, the random bot)."""
    return factory(name)(seed=seed)


def action_type(action: Any) -> str:
    """The ``type`` of an action object or its JSON dict."""
    if isinstance(action, dict):
        return action["type"]
    return action.type


def action_field(action: Any, name: str) -> Any:
    if isinstance(action, dict):
        return action.get(name)
    return getattr(action, name, None)


def as_kind(tile: int | str) -> int:
    """A tile kind from an ``Action`` field (an int) or its JSON (notation)."""
    if isinstance(tile, int):
        return tile
    return parse_tile(tile)


def action_tile(action: Any) -> int:
    """The ``tile`` of a discard/akong/bukong action as a kind."""
    return as_kind(action_field(action, "tile"))


def action_tiles(action: Any) -> tuple[int, ...]:
    """The two own tiles of a chi action as kinds."""
    return tuple(sorted(as_kind(t) for t in action_field(action, "tiles")))
