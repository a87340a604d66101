"""What ties a node's life to its supervisor's: a node dies with its supervisor (Linux's
parent-death signal), and holds a lock file for as long as it lives, so a new supervisor on
the same port waits for an earlier run's nodes to be gone before it starts its own."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _prctl() -> Callable[..., int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: the node outlives its supervisor
        return None


def die_with_parent(parent: int, sig: int = signal.SIGTERM) -> Callable[[], None]:
    """A ``preexec_fn`` for a node: the kernel sends it ``sig`` when its parent (the
    supervisor, ``parent``) dies; a parent already gone by then: the child exits at once."""
    prctl = _prctl()  # loaded before the fork: the child only calls it

    def arrange() -> None:
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return arrange


def lock_path(folder: Path, node: str) -> Path:
    return folder / f"{node}.lock"


def hold(path: Path) -> IO[bytes]:
    """Lock ``path`` for as long as this process lives (the kernel lets go at its exit); the
    open file, to keep. ``BlockingIOError`` if another process holds it."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    file = open(path, "ab")  # noqa: SIM115 (held until the process ends)
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.close()
        raise
    return file


def wait_free(path: Path, timeout: float) -> bool:
    """Wait until nobody holds ``path``'s lock (a node of an earlier run has exited); False
    after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open(path, "ab") as file:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True  # closing the file lets go
        except FileNotFoundError:
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def held_locks(folder: Path) -> list[Path]:
    """The lock files of nodes in ``folder`` (some may be free)."""
    with contextlib.suppress(OSError):
        return sorted(folder.glob("*.lock"))
    return []
