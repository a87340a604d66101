"""Reading a JSON document a user gives a command (a file or standard input), safely.

Whatever the input, the outcome is the decoded document or one ``JsonInputError`` whose
message names the problem: a file that cannot be read or is not UTF-8 text (UTF-16, binary),
bad JSON, nesting too deep, a number past Python's digit limit, a string holding a lone
surrogate (not a character). Messages quote at most a short prefix of the input.
"""

from __future__ import annotations

import codecs
import json
import sys
from typing import Any

from .quote import quote

_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


MAX_ERROR = 300  # characters of an error message, whatever it quotes


class JsonInputError(ValueError):
    """The input is not a JSON document this command can read; the message says why."""


def error_line(message: str) -> str:
    """``{"error": message}`` on one line, the message cut to ``MAX_ERROR`` characters."""
    if len(message) > MAX_ERROR:
        message = message[:MAX_ERROR] + "…"
    try:
        message.encode("utf-8")
    except UnicodeEncodeError:  # never print what cannot be written
        return json.dumps({"error": message}, ensure_ascii=True)
    return json.dumps({"error": message}, ensure_ascii=False)


def read_input(path: str | None) -> str:
    """The text of ``path`` (None or ``-``: standard input), which must be UTF-8."""
    try:
        if path is None or path == "-":
            stream = sys.stdin
            raw = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        name = "standard input" if path in (None, "-") else quote(path, 200)
        raise JsonInputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if isinstance(raw, str):
        return raw
    return decode(raw)


def decode(raw: bytes) -> str:
    """UTF-8 text (a UTF-8 byte order mark is allowed), or a clear error."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            raise JsonInputError(f"the input is {name} text; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        byte = raw[exc.start]
        raise JsonInputError(
            f"the input is not UTF-8 text (byte 0x{byte:02x} at offset {exc.start})"
        ) from None


def load(text: str) -> Any:
    """The JSON document in ``text``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise JsonInputError(f"bad JSON: {exc.msg} at {where}") from None
    except RecursionError:
        raise JsonInputError("bad JSON: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an integer (4300 by default)
        limit = sys.get_int_max_str_digits()
        raise JsonInputError(f"bad JSON: a number has more than {limit} digits") from None
    _check_strings(data)
    return data


def _check_strings(data: Any) -> None:
    """Refuse a string (value or key) holding a lone surrogate such as ``"\\ud800"``."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError as exc:
                    bad = item[exc.start]
                    raise JsonInputError(
                        f"bad JSON: a string holds a lone surrogate ({ascii(bad)[1:-1]}),"
                        " which is not a character"
                    ) from None
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
