"""Every relative link in README.md and docs/*.md leads to a file of the repository (and, with
an anchor, to a heading of that page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from docs_markdown import REPO, anchors, links, markdown_files, slug

PAGES = markdown_files()


def _is_external(target: str) -> bool:
    return "://" in target or target.startswith("mailto:")


def test_there_are_pages_and_links():
    assert len(PAGES) >= 10
    assert sum(len(links(page.read_text(encoding="utf-8"))) for page in PAGES) >= 50


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_relative_links_resolve(page: Path):
    text = page.read_text(encoding="utf-8")
    broken = []
    for target in links(text):
        if _is_external(target):
            continue
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists() or not linked.is_relative_to(REPO):
            broken.append(f"{target}: no such file in the repository")
            continue
        if anchor and linked.suffix == ".md" and anchor not in anchors(
            linked.read_text(encoding="utf-8")
        ):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_no_reference_to_the_specification_outside_the_repository():
    """The rules, options and contract are in docs/: no page sends readers to RULES.md & co."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for name in ("RULES.md", "SCORING_API.md", "seeds/", "shared/"):
            assert name not in text, f"{page.name} mentions {name}"


def test_slug_follows_github():
    assert slug("## ignored") == "-ignored"  # the caller strips the hashes
    assert slug("The winner's base points") == "the-winners-base-points"
    assert slug("腊子 (limit hands)") == "腊子-limit-hands"
    assert slug("The wall: procedure `baida-wall-v1`") == "the-wall-procedure-baida-wall-v1"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}
