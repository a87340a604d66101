"""Renders ``baida/web/icon.svg`` to the PNG icons the page's manifest and iOS ask for
(``icon-180.png``, ``icon-192.png``, ``icon-512.png`` beside it) with Debian's Chromium:
``.venv/bin/python tests/make_icons.py`` after changing the SVG; the PNGs are committed."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent / "baida" / "web"
SIZES = (180, 192, 512)


def main() -> None:
    svg = (WEB / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.screenshot(path=str(WEB / f"icon-{size}.png"))
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
