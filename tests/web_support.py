"""Browser tests: a real hall in a background thread (real time, short table timings), Debian's
Chromium driven by Playwright, scripted walls and bots, and helpers that play through the page.

The browser is ``/usr/bin/chromium`` (``.ci/run`` installs it with apt when missing; nothing
is ever downloaded by Playwright). Without it the browser tests are skipped, except under CI,
where they fail.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from baida.engine.wall import wall_from_deal
from baida.server.tables import botpool
from baida.server.tables.hall import Hall
from baida.server.tables.standing import StandingTables
from baida.server.web.app import create_app, server_config
from baida.server.web.settings import HallSettings
from baida.table import TableDriver
from baida.tiles import parse_tiles

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts" / "web"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
FAST = {
    "pause": 0.12, "claim": 6.0, "turn": 30.0, "bank": 10.0, "santan": 30.0,
    "bot_turn": 0.05, "bot_claim": 0.05, "between_hands": None,
}
STANDING = (
    StandingTables("jiaxing", 2, stakes="points"),
    StandingTables("wenling", 1),
)

# The compass's lit edge and the framed card are the same seat's: ``[side, problem]``, side
# the lit one (null: none), problem null when the pond on that side is the framed seat's (and
# nothing is lit when no card is framed).
LIT_SIDE = """() => {
  const compass = document.querySelector('.center .compass');
  if (!compass) return [null, 'no compass'];
  const side = compass.dataset.turn || null;
  const framed = [...document.querySelectorAll(':is(.table-screen, .replay-screen) .seat.active')]
    .map((e) => e.dataset.seat).join();
  const pond = side ? document.querySelector(`.center .pw-${side} .pond`) : null;
  const lit = pond ? pond.dataset.seat : '';
  return [side, lit === framed ? null : `lit toward ${side} (seat ${lit}), framed ${framed}`];
}"""

# The top bar is one row at every size: each control shows whole (only the table's title may
# end in an ellipsis), inside the window and the bar, beside the others, never over them.
TOPBAR = """() => {
  const W = window.innerWidth;
  const bar = document.getElementById('topbar').getBoundingClientRect();
  const controls = '#topbar :is(a, button, .balance, .badge, .table-title)';
  const shown = [...document.querySelectorAll(controls)].filter((e) => e.getClientRects().length);
  const out = [];
  const name = (e) => (e.innerText || e.getAttribute('aria-label') || e.tagName).slice(0, 16);
  const boxes = shown.map((e) => [e, e.getBoundingClientRect()]);
  for (const [e, r] of boxes) {
    if (r.left < -1 || r.right > W + 1 || r.top < bar.top - 1 || r.bottom > bar.bottom + 1) {
      out.push(`${name(e)} outside: ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
    if (!e.matches('.table-title') && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${name(e)} cut: ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  const tops = boxes.map(([, r]) => r.top), bottoms = boxes.map(([, r]) => r.bottom);
  if (Math.max(...tops) >= Math.min(...bottoms)) {
    out.push(`two rows: bar ${Math.round(bar.height)} px`);
  }
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const apart = p.right <= q.left + 1 || q.right <= p.left + 1
      || p.bottom <= q.top + 1 || q.bottom <= p.top + 1;
    if (!apart && !a.contains(b) && !b.contains(a)) out.push(`${name(a)} over ${name(b)}`);
  }));
  return out;
}"""


def need_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it with apt-get install chromium")
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")


@dataclass
class Scenario:
    """What the next quick-play table plays: its config, and optionally a scripted first hand
    (``wall`` and ``dice``, or a chosen ``seed``) and a scripted bot policy
    (``policy(view, legal) -> action``)."""

    config: dict[str, Any] = field(default_factory=dict)
    wall: list[int] | None = None
    seed: bytes | None = None  # the first hand's seed instead (a checkable, verifiable hand)
    dice: tuple[int, int] = (1, 2)
    policy: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]] | None = None


def _import_early() -> None:
    """Import here, in the main thread, what the hall would import lazily in its own: two
    threads compiling modules at once can trip CPython 3.11 (SystemError: AST constructor
    recursion depth mismatch) on a fresh checkout."""
    import hypothesis  # noqa: F401  (pytest's plugin imports it late, while the hall runs)

    from baida.bots.policy import bot_names, make_bot
    from baida.engine import records  # noqa: F401
    from baida.scoring import jiaxing, wenling  # noqa: F401
    from baida.server.web import review, waits  # noqa: F401

    for name in bot_names():
        make_bot(name, seed=0)


class LiveHall:
    """``baida serve`` in a thread of this process: real time, bots thinking on the loop."""

    def __init__(self, data: Path) -> None:
        self.scenario = Scenario()
        self.quick_plays: list[tuple[str, bool]] = []  # (ruleset, practice) of each quick play
        settings = HallSettings(
            host="127.0.0.1", port=0, data_dir=data, bot_workers=0, warm_up=False,
            argon2_fast=True, standing=STANDING, client_rate=1000.0, client_burst=1000.0,
            guests_per_hour=0, signins_per_address=0,
            min_bot_time=0.0,  # the browser's tables have bots that answer in 0.05 s
        )
        self.app = create_app(settings)
        config = server_config(self.app, "127.0.0.1", 0, log_config=None, lifespan="on",
                               ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="hall", daemon=True)
        self.base = ""

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.server.serve())
        finally:
            pending = asyncio.all_tasks(self.loop)
            for task in pending:
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            self.loop.close()

    def start(self) -> LiveHall:
        _import_early()
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the hall did not start")
            time.sleep(0.02)  # waiting for the socket to be bound
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self._install_quick_play()
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    @property
    def runtime(self) -> Any:
        return self.app.state.runtime

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` in the hall's loop (its tables are not thread-safe) and return its value."""

        async def job() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(job(), self.loop).result(10)

    def table_ids(self) -> set[int]:
        return set(self.call(lambda: list(self.runtime.hall.tables)))

    def close_tables(self, keep: set[int]) -> None:
        """Close every table but ``keep``: a test's tables (and their bots, playing on for an
        absent player) stop with it, and no later hand of theirs takes the next test's
        scripted wall."""
        hall: Hall = self.runtime.hall

        async def job() -> None:
            for table_id in [t for t in hall.tables if t not in keep]:
                await hall.close_table(table_id, "the test is over")

        asyncio.run_coroutine_threadsafe(job(), self.loop).result(30)

    def _install_quick_play(self) -> None:
        """Quick play here makes a table of the current scenario (short timings)."""
        hall: Hall = self.runtime.hall
        live = self

        async def quick_play(user: Any, ruleset: str, practice: bool = False) -> Any:
            live.quick_plays.append((ruleset, practice))
            config = {"ruleset": ruleset, "private": True, "stakes": "points", "hands": 2,
                      "timing": FAST, "bot": "efficient", **live.scenario.config}
            actor = await hall.create_table(config, user)
            actor.quick = "practice" if practice else "quick"
            return actor

        hall.quick_play = quick_play  # type: ignore[method-assign]


def install_scenario(hall: LiveHall, monkeypatch: pytest.MonkeyPatch, scenario: Scenario) -> None:
    """The next quick-play table plays ``scenario``; undone with ``monkeypatch``."""
    monkeypatch.setattr(hall, "scenario", scenario)
    if scenario.wall is not None:
        original = TableDriver.start_hand
        pending = [scenario.wall]

        def start_hand(self: TableDriver, seed: bytes, now: float) -> Any:
            if pending:
                return self.start_hand_from_wall(pending.pop(), scenario.dice, now)
            return original(self, seed, now)

        monkeypatch.setattr(TableDriver, "start_hand", start_hand)
    elif scenario.seed is not None:
        original_start = TableDriver.start_hand
        seeds = [scenario.seed]

        def start_seeded(self: TableDriver, seed: bytes, now: float) -> Any:
            return original_start(self, seeds.pop() if seeds else seed, now)

        monkeypatch.setattr(TableDriver, "start_hand", start_seeded)
    if scenario.policy is not None:
        policy = scenario.policy

        def decide(name: str, seed: int, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
            return legal.index(policy(view, legal))

        monkeypatch.setattr(botpool, "decide", decide)


def scripted_wall(ruleset: str, hands: list[str], *, draws: str = "", indicator: str,
                  extra: str) -> list[int]:
    """A wall dealing ``hands`` (notation, dealer first), then the dealer's ``extra`` and the
    ``draws`` in order; the indicator last."""
    return wall_from_deal(ruleset, [parse_tiles(h) for h in hands], parse_tiles(draws) or None,
                          indicator=parse_tiles(indicator)[0],
                          dealer_extra=parse_tiles(extra)[0])


def mo_qie(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A bot that never claims: pass, 坚持, discard the tile just drawn (else the first)."""
    for kind in ("pass", "continue"):
        for action in legal:
            if action["type"] == kind:
                return action
    drawn = view["players"][view["seat"]].get("drawn")
    discards = [a for a in legal if a["type"] == "discard"]
    for action in discards:
        if action["tile"] == drawn:
            return action
    return discards[0] if discards else legal[0]


def script_hand(hall: LiveHall, monkeypatch: pytest.MonkeyPatch, ruleset: str,
                spec: dict[str, Any], config: dict[str, Any] | None = None,
                policy: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]] = mo_qie,
                ) -> None:
    """The next quick-play table's first hand is dealt from ``spec`` (the keywords of
    ``scripted_wall``), its bots playing ``policy``."""
    wall = scripted_wall(ruleset, spec["hands"], draws=spec.get("draws", ""),
                         indicator=spec["indicator"], extra=spec["extra"])
    install_scenario(hall, monkeypatch, Scenario(config={"hands": 1, **(config or {})},
                                                 wall=wall, policy=policy))


# 对家 (seat 2) 碰s 下家's discards twice (a 三摊 warning) and a third time (三摊: 对家 and 下家
# liable for each other, a 承包 pair); the own seat is asked to 坚持 or 放弃. With
# ``santan_policy`` and no 吃 at the table.
SANTAN = dict(
    hands=["123456m123456sE", "123456p789s789mS", "778899p2m3sWFPE9s", "123456p789s789mE"],
    draws="7p1s2s8p3s4s9p", indicator="N", extra="C",
)


def santan_policy(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """对家 (seat 2) 碰s whatever it can and discards its highest tile; the others never claim."""
    if view["seat"] == 2:
        for action in legal:
            if action["type"] == "pon":
                return action
        discards = [a for a in legal if a["type"] == "discard"]
        if discards and not any(a["type"] == "pass" for a in legal):
            return discards[-1]
    return mo_qie(view, legal)


# ------------------------------------------------------------------ the page


class ConsoleWatch:
    """Console errors and uncaught exceptions of a page (none are allowed)."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(f"console: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class ScreenshotError(AssertionError):
    """A screenshot that could not be written (the test that took it fails)."""


def shot(page: Any, name: str, folder: Path | None = None) -> Path:
    """A screenshot kept as a test artifact (tests/artifacts/web/, git-ignored). Fails the
    test when the file cannot be written or is not the PNG just taken."""
    folder = ARTIFACTS if folder is None else folder
    path = folder / f"{name}.png"
    from playwright.sync_api import Error as PlaywrightError

    try:
        folder.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        data = page.screenshot(path=str(path))
    except (OSError, PlaywrightError) as exc:
        raise ScreenshotError(f"screenshot {path} could not be written: {exc}") from exc
    if not path.is_file() or path.read_bytes() != data or not data.startswith(PNG_MAGIC):
        raise ScreenshotError(f"screenshot {path} was not written")
    return path


OPEN_PROMPT = """() => {
  const s = window.baidaTable && window.baidaTable.state;
  if (document.querySelector('.modal.settlement')) return {settlement: true};
  if (!s || !s.prompt || s.prompt.answered) return null;
  if (document.querySelector('.modal.guard')) return null;
  return {seq: s.prompt.seq, kind: s.prompt.kind, types: s.prompt.actions.map(a => a.type)};
}"""


SETTLEMENT_DRAWN = """() => {
  const st = document.querySelector('.modal.settlement');
  return Boolean(st && st.querySelector('.st-links'))
    && ![...st.querySelectorAll('.st-nonwinner')].some(e => e.textContent === '…');
}"""


def settlement_drawn(page: Any, timeout: float = 20.0) -> None:
    """Wait until the settlement is stored and drawn for the last time: a Wenling win's
    non-winners' items come from a fetch after the hand is stored, and the settlement is then
    drawn anew (a verification answer must survive it)."""
    page.wait_for_function(SETTLEMENT_DRAWN, timeout=timeout * 1000)


def wait_prompt(page: Any, timeout: float = 60.0) -> dict[str, Any]:
    """The next open prompt (or ``{"settlement": True}``)."""
    return page.wait_for_function(OPEN_PROMPT, timeout=timeout * 1000).json_value()


def answered(page: Any, seq: int) -> None:
    """Wait until prompt ``seq`` is answered or gone."""
    page.wait_for_function(
        "seq => (p => !p || p.seq !== seq || p.answered)(window.baidaTable.state.prompt)",
        arg=seq, timeout=15000)


def play_until_settlement(page: Any, *, keyboard_every: int = 3, timeout: float = 120.0,
                          on_prompt: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Play the own seat through the page until the settlement shows: win when offered,
    坚持 at 三摊, pass claims, discard the tile just drawn by a click or, every few turns,
    by the keyboard (←, →, Enter). ``on_prompt`` sees each prompt (and the settlement) first.
    Returns the number of own discards."""
    deadline = time.monotonic() + timeout
    turns = 0
    while time.monotonic() < deadline:
        prompt = wait_prompt(page, timeout=max(1.0, deadline - time.monotonic()))
        if on_prompt is not None:
            on_prompt(prompt)
        if prompt.get("settlement"):
            return turns
        types = prompt["types"]
        if "win" in types:
            page.locator(".actions [data-act='w']").click()
        elif "lazi" in types:  # a Wenling 腊子 is a win too; any discard would only ask first
            page.locator(".actions [data-act='l']").click()
        elif prompt["kind"] == "santan":
            page.locator(".modal.santan [data-act='continue']").click()
        elif "pass" in types:
            page.locator(".actions [data-act='pass']").click()
        elif "discard" in types:
            turns += 1
            if turns % keyboard_every == 0:
                page.keyboard.press("ArrowLeft")
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
            else:
                page.locator(".hand .tile-btn.can").last.click()
        else:
            page.locator(".actions .act").first.click()
        answered(page, prompt["seq"])
    raise AssertionError("the hand did not end in time")


def hand_faces(page: Any) -> list[str]:
    return page.locator(".hand .tile-btn").evaluate_all("els => els.map(e => e.dataset.face)")


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP, csp: bool = False
             ) -> tuple[Any, Any, ConsoleWatch]:
    """A page in a context of its own. The hall's Content-Security-Policy forbids eval, which
    Playwright's ``wait_for_function`` needs for the tests' string predicates, so the page
    ignores it unless ``csp`` (``test_web_csp`` checks the page under it)."""
    context = browser.new_context(viewport=viewport, locale="zh-CN", bypass_csp=not csp)
    page = context.new_page()
    return context, page, ConsoleWatch(page)


def enter_as_guest(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("[data-act='guest']").click()
    page.wait_for_selector("#balance")


def quick_play(page: Any, ruleset: str) -> None:
    page.locator(f"[data-quick='{ruleset}']").click()
    page.wait_for_selector(".hand .tile-btn", timeout=30000)


def browser_session() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Web:
    """One browser context on the hall; every page's console errors are collected."""

    def __init__(self, browser: Any, hall: LiveHall) -> None:
        self.browser = browser
        self.hall = hall
        self.contexts: list[Any] = []
        self.watches: list[Any] = []

    def page(self, viewport: dict[str, int] = DESKTOP, csp: bool = False) -> Any:
        context, page, watch = new_page(self.browser, viewport, csp)
        self.contexts.append(context)
        self.watches.append(watch)
        return page

    def errors(self) -> list[str]:
        return [e for w in self.watches for e in w.errors]

    def close(self) -> None:
        for context in self.contexts:
            context.close()
