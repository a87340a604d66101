"""The browser client under the hall's Content-Security-Policy (the other browser tests let
Playwright's predicates ignore it): the lobby and a table in play draw with no violation and
no console error, the tile sprite stays hidden and the hand's layout properties apply (both
set through the CSSOM, which the policy allows, instead of ``style`` attributes)."""

from __future__ import annotations

from typing import Any

from web_support import Web, quick_play

from baida.server.web.guard import CSP

pytest_plugins = ["web_fixtures"]


def test_the_lobby_and_a_table_draw_under_the_content_security_policy(web: Web) -> None:
    page = web.page(csp=True)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
    response = page.goto(web.hall.base + "/")
    assert response is not None and response.headers["content-security-policy"] == CSP
    page.wait_for_selector("body[data-ready='1']")
    page.locator("[data-act='guest']").click()
    page.wait_for_selector("#balance")
    quick_play(page, "jiaxing")
    page.wait_for_selector(".board")
    drawn: dict[str, Any] = page.evaluate("""() => {
        const sprite = getComputedStyle(document.getElementById('tile-sprite'));
        const hand = document.querySelector('.hand');
        return {position: sprite.position, width: sprite.width,
                n: hand.style.getPropertyValue('--n')};
    }""")
    assert drawn["position"] == "absolute" and drawn["width"] == "0px", drawn
    assert float(drawn["n"]) >= 13, drawn
    refused = [m for m in messages if "Content Security Policy" in m or "Refused" in m]
    assert not refused, refused

