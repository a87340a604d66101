"""Every command of README.md, run exactly as printed, in a fresh copy of the repository.

The copy gets its own ``.venv`` from ``make run`` (the runtime only, from the package index),
so this also checks that the quick start works on a machine with nothing installed and that
the commands live where the README says. ``make test`` is the one command not run here: it is
what runs this test. ``make run`` and ``baida client`` do not end by themselves: the hall is
checked to answer, and the client to play, then both are stopped.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LONG_RUNNING = ("make run", "baida client")


def shell_blocks(text: str) -> list[list[str]]:
    """The commands of each ```sh block (comments dropped)."""
    blocks = []
    for body in re.findall(r"```sh\n(.*?)```", text, re.S):
        lines = [line.split("  #")[0].rstrip() for line in body.splitlines()]
        blocks.append([line for line in lines if line and not line.startswith("#")])
    return blocks


def copy_repository(target: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\n")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def test_shell_blocks_are_found() -> None:
    commands = [c for block in shell_blocks(README.read_text()) for c in block]
    assert "make run" in commands and "make test" in commands
    assert any(c.startswith("baida score") or "| baida score" in c for c in commands)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_readme_command_works_as_printed(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    if not port_free(8000):
        pytest.fail("port 8000 is taken: the README's `make run` needs it (stop that hall)")
    repo = tmp_path / "baida"
    repo.mkdir()
    copy_repository(repo)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["HOME"] = str(tmp_path / "home")  # the hall's data, pip's config: nothing of ours
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if ".venv" not in p)
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR",
                                          str(Path.home() / ".cache" / "pip"))
    env["PYTHON"] = sys.executable  # the same interpreter the suite runs on
    blocks = shell_blocks(README.read_text())
    server = None
    log = tmp_path / "make-run.log"
    try:
        for block in blocks:
            script = []
            for command in block:
                if command == "make test":
                    continue
                if command == "make run":
                    server = subprocess.Popen(["bash", "-c", command], cwd=repo, env=env,
                                              stdout=log.open("w"), stderr=subprocess.STDOUT,
                                              start_new_session=True)
                    wait_for_hall(log, server)
                    continue
                script.append(command)
            if not script:
                continue
            long_running = any(c.startswith(LONG_RUNNING) for c in script)
            prelude = ". .venv/bin/activate\n" if ". .venv/bin/activate" not in script else ""
            run_block(prelude + "\n".join(script), repo, env, long_running, tmp_path)
        assert server is not None, "the README never runs `make run`"
        assert (repo / "records" / "readme-hand01.json").exists()
        assert (repo / "review.json").stat().st_size > 0
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)


def wait_for_hall(log: Path, server: subprocess.Popen) -> None:
    """``make run`` installs the runtime and starts the hall: wait for its URL, then ask it."""
    deadline = time.time() + 900
    while time.time() < deadline:
        text = log.read_text(errors="replace")
        found = re.search(r"baida hall: (http://\S+)", text)
        if found:
            with urllib.request.urlopen(found.group(1) + "healthz", timeout=30) as r:
                assert r.status == 200
            return
        if server.poll() is not None:
            pytest.fail(f"make run stopped:\n{text[-3000:]}")
        time.sleep(1)  # pip is installing: nothing to do but wait
    pytest.fail("make run did not print the hall's URL in 15 minutes")


def run_block(script: str, repo: Path, env: dict[str, str], long_running: bool,
              tmp_path: Path) -> None:
    if not long_running:
        done = subprocess.run(["bash", "-ec", script], cwd=repo, env=env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, f"{script}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        return
    out = tmp_path / "client.log"
    proc = subprocess.Popen(["bash", "-ec", script], cwd=repo, env=env, stdout=out.open("w"),
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 120
    try:
        while time.time() < deadline:
            lines = out.read_text(errors="replace").splitlines()
            if sum(" discards " in line for line in lines) >= 8:
                return  # it sat down, the match began and turns are being played
            if proc.poll() is not None:
                assert proc.returncode == 0, "\n".join(lines[-30:])
                return
            time.sleep(1)
        pytest.fail("the client did not play:\n" + out.read_text()[-2000:])
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(timeout=30)
