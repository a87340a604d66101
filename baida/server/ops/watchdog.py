"""A stall watchdog for operators: when the event loop does not come round for
``threshold`` seconds, log what it was doing (the main thread's stack), so a slow handler
shows up in the logs instead of as a mysterious latency. Off unless ``BAIDA_STALL_MS`` is set.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback

log = logging.getLogger("baida.server.stall")


class StallWatchdog:
    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.beat = time.monotonic()
        self._loop_thread = threading.get_ident()
        self._stop = threading.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._heartbeat())
        threading.Thread(target=self._watch, name="baida-stall-watch", daemon=True).start()

    async def _heartbeat(self) -> None:
        while not self._stop.is_set():
            self.beat = time.monotonic()
            await asyncio.sleep(self.threshold / 4)

    def _watch(self) -> None:
        reported = 0.0
        while not self._stop.wait(self.threshold / 4):
            stalled = time.monotonic() - self.beat
            if stalled > self.threshold and self.beat != reported:
                reported = self.beat
                frame = sys._current_frames().get(self._loop_thread)
                stack = "".join(traceback.format_stack(frame, limit=25)) if frame else "?"
                log.warning("event loop stalled %.0f ms in:\n%s", stalled * 1000, stack)

    def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
