"""Structured logs: one JSON object per line, or plain text for a person at a terminal.

The hall's important lines carry fields besides their message (``fields``): ``event`` (what
happened: ``table_opened``, ``hand_start``, ``seat_auto``...) and the ``table``, ``hand``,
``user``, ``seat`` it concerns. ``--log-format auto`` (the default) writes JSON when stderr
is not a terminal (a service manager, a container, a file) and text when it is.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any, TextIO

import orjson

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
FORMATS = ("auto", "text", "json")


def fields(event: str, **values: Any) -> dict[str, Any]:
    """The ``extra`` of a structured log line: ``event`` and the values it concerns (a
    name of ``LogRecord``'s own, such as ``name`` or ``message``, is refused)."""
    clash = _STANDARD.intersection(values)
    if clash:
        raise ValueError(f"log fields: {', '.join(sorted(clash))} belong to the log record")
    return {"event": event, **values}


def _extra(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _STANDARD
            and not k.startswith("_")}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        out.update(_extra(record))
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


class TextFormatter(logging.Formatter):
    """A line for a person: time, level, logger, message, then the fields as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        extra = _extra(record)
        if extra:
            line += " " + " ".join(f"{k}={v}" for k, v in extra.items())
        return line


def resolve_format(fmt: str, stream: TextIO) -> str:
    """``text`` or ``json`` for ``fmt`` (``auto``: JSON unless ``stream`` is a terminal)."""
    if fmt not in FORMATS:
        raise ValueError(f"log format: one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt != "auto":
        return fmt
    isatty = getattr(stream, "isatty", None)
    return "text" if isatty is not None and isatty() else "json"


def setup_logging(fmt: str = "auto", level: str = "info", stream: TextIO | None = None) -> str:
    """Log to ``stream`` (stderr) in ``fmt``; returns the format chosen."""
    out = stream if stream is not None else sys.stderr
    chosen = resolve_format(fmt, out)
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter() if chosen == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    return chosen
