"""Reading the project's Markdown for the documentation tests: files, links, headings, tables
and the example blocks marked with ``<!-- example: PATH input|output -->``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"

_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_EXAMPLE = re.compile(
    r"^<!-- example: (\S+) (input|output) -->\n```json\n(.*?)^```[ \t]*$", re.S | re.M
)


class ExampleBlock(NamedTuple):
    """A JSON block of a page, shown as the input or the output of an example file."""

    page: Path
    example: Path
    role: str
    body: Any


def markdown_files() -> list[Path]:
    """README.md and every page of docs/."""
    return [REPO / "README.md", *sorted(DOCS.glob("*.md"))]


def without_code(text: str) -> str:
    """The text with fenced blocks and inline code removed (they hold no links or headings)."""
    return _INLINE_CODE.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    """The targets of the inline links and images outside code."""
    return _LINK.findall(without_code(text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a page (repeated headings get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for heading in _HEADING.findall(_FENCE.sub("", text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def example_blocks(page: Path) -> list[ExampleBlock]:
    """The marked example blocks of a page, their paths resolved against the page."""
    text = page.read_text(encoding="utf-8")
    return [
        ExampleBlock(page, (page.parent / path).resolve(), role, json.loads(body))
        for path, role, body in _EXAMPLE.findall(text)
    ]


def table_after(text: str, marker: str) -> list[list[str]]:
    """The body rows (cells stripped) of the Markdown table that follows ``marker``."""
    start = text.index(marker) + len(marker)
    rows: list[list[str]] = []
    for line in text[start:].lstrip("\n").splitlines():
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]  # header and separator


def code_value(cell: str) -> Any:
    """The JSON value written in the single code span of a table cell."""
    spans = re.findall(r"`([^`]*)`", cell)
    assert len(spans) == 1, f"expected one code span in {cell!r}"
    return json.loads(spans[0])
