"""A child of the hall that notices its parent's death: ``die_with_parent`` asks Linux to
send it a signal when the parent goes (``prctl(PR_SET_PDEATHSIG)``), so a hall killed with
``kill -9`` leaves no bot worker or node behind; elsewhere a thread watches the parent id."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int, sig: int = signal.SIGKILL) -> str:
    """Receive ``sig`` when the process ``parent`` (this one's parent at its start) dies;
    exit at once if it is already gone. How it is watched: ``"prctl"`` or ``"thread"``."""
    how = "thread"
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0:
                how = "prctl"
        except (OSError, AttributeError):
            pass
    if how == "thread":
        threading.Thread(target=_watch, args=(parent, sig), name="baida-parent-watch",
                         daemon=True).start()
    if os.getppid() != parent:  # it died before the watch began
        os.kill(os.getpid(), sig)
    return how


def _watch(parent: int, sig: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), sig)
