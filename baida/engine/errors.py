"""The engine's error types: every refusal names the problem in words a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A well-formed action that may not be played now; the round is left unchanged."""


class MalformedAction(EngineError):
    """Something that is not an action at all: unknown type, missing seat, bad tile notation."""


class RecordError(EngineError):
    """A game record that cannot be read or replayed."""


class ReplayError(RecordError):
    """A readable record one of whose actions may not be played."""
