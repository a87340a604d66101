"""``baida serve`` says ``baida hall: URL`` only once that URL answers: scripts, tests and
people wait for the line and connect at once. A port that is taken is an error, with no URL;
so is storage the hall cannot use (a database that refuses, a folder that cannot be written),
said in one line by ``serve``, ``admin`` and ``nodes`` alike."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

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
    data = tmp_path / "new-data"  # a folder the hall makes: its owner's only (password hashes)
    proc = serve(data, port)
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
        assert data.stat().st_mode & 0o777 == 0o700
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


def _refused_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command, flags, said", [
    ("serve", ["--database", "postgresql+psycopg://hall:secret@127.0.0.1:{port}/hall"],
     "baida serve: cannot open the database postgresql+psycopg://hall:***@127.0.0.1:{port}/hall:"),
    ("serve", ["--nodes", "2", "--database", "mysql://hall@db/hall"],
     "baida serve: unsupported database 'mysql'"),
    ("serve", ["--data", "{tmp}/file/hall"], "baida serve: cannot write to the data folder"),
    ("serve", ["--database", "{tmp}/file/hall.db"],
     "baida serve: cannot write to the database's folder"),
    ("serve", ["--chat-filter", "{tmp}/no-such-list.txt"],
     "baida serve: --chat-filter: cannot read {tmp}/no-such-list.txt"),
    ("serve", ["--chat-filter", "{tmp}/long.txt"], "baida serve: --chat-filter: {tmp}/long.txt, "
     "line 2: a word of at most 40 characters"),
    ("admin", ["--database", "postgresql+psycopg://hall@127.0.0.1:{port}/hall", "check"],
     "baida admin: cannot open the database postgresql+psycopg://hall@127.0.0.1:{port}/hall:"),
    ("nodes", ["--database", "postgresql+psycopg://hall@127.0.0.1:{port}/hall", "list"],
     "baida nodes: cannot open the database postgresql+psycopg://hall@127.0.0.1:{port}/hall:"),
])
def test_storage_that_cannot_be_used_is_one_line_not_a_traceback(
    tmp_path: Path, command: str, flags: list[str], said: str
) -> None:
    """The operator reads what is wrong (a database that refuses, a kind the hall does not
    speak, a folder that cannot be written, a chat word list that cannot be used; never the
    password) and the command stops, 2."""
    (tmp_path / "file").write_text("a file where a folder should be")
    (tmp_path / "long.txt").write_text("ok\n" + "x" * 41 + "\n")
    fill = {"port": _refused_port(), "tmp": tmp_path}
    cmd = [sys.executable, "-m", "baida.cli", command, *(f.format(**fill) for f in flags)]
    if command == "serve":
        cmd += ["--port", str(_refused_port()), "--no-warm-up", "--bot-workers", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(said.format(**fill)), done.stderr
    assert "Traceback" not in done.stdout + done.stderr and "secret" not in done.stderr
    assert ANNOUNCED not in done.stdout


def test_every_node_of_several_is_given_the_chat_word_list(tmp_path: Path) -> None:
    """``--nodes N`` starts each node with the supervisor's flags: the chat list too, by its
    whole path (a node need not start in the same folder)."""
    import argparse

    from baida.server.serve_cli import add_arguments, node_flags, settings_from

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--nodes", "2", "--chat-filter", "words.txt"])
    flags = node_flags(args)
    at = flags.index("--chat-filter")
    assert Path(flags[at + 1]).is_absolute() and flags[at + 1].endswith("words.txt")
    assert settings_from(args).chat_filter == Path("words.txt")
    assert "--chat-filter" not in node_flags(parser.parse_args(["--nodes", "2"]))
