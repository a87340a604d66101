"""The browser tests' screenshots: written to tests/artifacts/web/ at both sizes, and a test
fails when one cannot be written."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_support import ARTIFACTS, DESKTOP, PHONE, PNG_MAGIC, ScreenshotError, Web, shot

pytest_plugins = ["web_fixtures"]


def test_screenshots_are_written_at_both_sizes(web: Web) -> None:
    page = web.page()
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        path = shot(page, f"artifact-check-{size['width']}")
        assert path.parent == ARTIFACTS and path.read_bytes().startswith(PNG_MAGIC)


def test_a_screenshot_that_cannot_be_written_fails_the_test(web: Web, tmp_path: Path) -> None:
    page = web.page()
    page.goto(web.hall.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the artifacts folder should be")
    with pytest.raises(ScreenshotError, match="could not be written"):
        shot(page, "nowhere", folder=blocker)
    stale = tmp_path / "stale.png"
    stale.mkdir()  # a folder where the picture should go: it cannot be written
    with pytest.raises(ScreenshotError):
        shot(page, "stale", folder=tmp_path)
