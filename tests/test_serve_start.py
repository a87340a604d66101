"""``baida serve`` says ``baida hall: URL`` only once that URL answers: scripts, tests and
people wait for the line and connect at once. A port that is taken is an error, with no URL."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ANNOUNCED = "baida hall: "


def serve(data: Path, port: int) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "baida.cli", "serve", "--port", str(port), "--data", str(data),
           "--bot-workers", "0", "--no-warm-up", "--log-format", "text",
           "--log-level", "warning"]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def stop(proc: subprocess.Popen[str]) -> str:
    """Stop the hall (Ctrl-C); everything it printed."""
    if proc.poll() is None:
        proc.send_signal(2)
    try:
        out, _ = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate(timeout=30)
    return out


def test_the_url_is_printed_once_it_answers(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = serve(tmp_path, port)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while ANNOUNCED not in line:
            assert time.monotonic() < deadline, "no URL within 60 s"
            line = proc.stdout.readline()
            assert line or proc.poll() is None, "the hall stopped before printing its URL"
        url = line.split(ANNOUNCED, 1)[1].strip()
        assert url == f"http://127.0.0.1:{port}/"
        # at once, no retry: the line means the hall is listening
        with urllib.request.urlopen(url + "healthz", timeout=10) as answer:
            assert answer.status == 200
    finally:
        stop(proc)


def test_a_taken_port_is_an_error_and_no_url_is_printed(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = serve(tmp_path, port)
        try:
            proc.wait(timeout=60)
        finally:
            out = stop(proc)
    assert proc.returncode != 0
    assert ANNOUNCED not in out, out[-2000:]
    assert "address already in use" in out.lower(), out[-2000:]
