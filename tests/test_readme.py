"""Every command of README.md, run exactly as printed, in a fresh copy of the repository.

A command is each line of a ```` ```sh ```` block, and each inline code span of the prose that
starts like one (``make …``, ``baida …``, ``python …``, ``.venv/bin/…``, ``.ci/…``). The
blocks run in order, in a copy of the repository whose ``.venv`` comes from its own
``make run`` (the runtime only, from the package index), so this also checks that the quick
start works on a machine with nothing installed and that each command lives where the README
says. Commands after the activation block run in the activated environment, as a reader's
would; ``.venv/bin/…`` and ``make …`` run without it.

An inline command must be one a block runs (a ``FILE`` or ``DIR`` in it standing for any
path), or it is run here after the blocks, as printed, or it is one of ``NOT_RUN``, each with
its reason. The ``baida`` commands the commands table names answer ``--help``; the
``python`` blocks run too.

Commands that do not end by themselves are started, watched until their first real output,
then stopped: ``make run`` (its URL, then ``/healthz``; the first one serves the rest of the
README, as "in another terminal"), ``baida client`` (turns being played), ``make bench`` and a
bare ``python -m bench`` (the anchors' section measured). Where the README states an output
it is checked: the hall's URL and data folder, the fields that "It prints" after a block, the
files the commands write.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMMAND_START = ("make ", "baida ", "python ", "python3 ", ".venv/bin/", ". .venv", ".ci/",
                 "pip ", "pytest ")
NOT_RUN = {
    "make test": "it is what runs this test",
    "make quicktest": "every test at scale 1, this one included; a block runs it with TESTS",
    ".ci/run": "installs Chromium with apt, then calls make test",
    "make lock": "rewrites constraints.txt from the newest versions on the index: a maintainer's"
                 " step that changes the repository",
}
PLACEHOLDER = re.compile(r"\b(FILE|DIR)\b")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.M | re.S)
SPAN = re.compile(r"`([^`]+)`")
# commands that do not end by themselves: what shows they work, and how long to wait for it
HALL_URL = re.compile(r"baida hall: (http://\S+)")
INSTALL_SECONDS = 900  # a command that installs from the index first


@dataclass
class Block:
    lang: str
    body: str
    commands: list[str]
    after: str = ""  # the first paragraph of prose after the block


@dataclass
class Readme:
    blocks: list[Block] = field(default_factory=list)
    inline: list[str] = field(default_factory=list)  # inline commands, in order, once each
    table_names: list[str] = field(default_factory=list)  # first column of the commands table
    prose: str = ""


def is_command(span: str) -> bool:
    return span.startswith(COMMAND_START) and not span.endswith("/")


def block_commands(body: str) -> list[str]:
    """The commands of a sh block: its lines, comments dropped."""
    lines = [line.split("  #")[0].rstrip() for line in body.splitlines()]
    return [line for line in lines if line and not line.lstrip().startswith("#")]


def parse(text: str) -> Readme:
    out = Readme()
    prose_parts: list[str] = []
    last = 0
    pending: Block | None = None
    for match in FENCE.finditer(text):
        prose = text[last:match.start()]
        if pending is not None:
            pending.after = prose.strip().split("\n\n")[0]
        prose_parts.append(prose)
        lang, body = match.group(1), match.group(2)
        pending = Block(lang, body, block_commands(body) if lang == "sh" else [])
        out.blocks.append(pending)
        last = match.end()
    prose_parts.append(text[last:])
    if pending is not None:
        pending.after = text[last:].strip().split("\n\n")[0]
    out.prose = "\n".join(prose_parts)
    plain = []
    for line in out.prose.splitlines():
        if line.startswith("|"):  # a table row: its first cell names, the others are prose
            cells = line.strip().strip("|").split("|")
            names = [" ".join(s.split()) for s in SPAN.findall(cells[0])]
            out.table_names += [n for n in names if n.startswith("baida ")]
            plain.append(" ".join(cells[1:]))
        else:
            plain.append(line)
    for span in SPAN.findall("\n".join(plain)):
        span = " ".join(span.split())
        if is_command(span) and span not in out.inline:
            out.inline.append(span)
    return out


def block_commands_all(readme: Readme) -> list[str]:
    return [c for b in readme.blocks for c in b.commands]


def covered(inline: str, commands: list[str]) -> bool:
    """Whether a block runs this inline command (a FILE or DIR in it: any path)."""
    if inline in commands:
        return True
    pattern = PLACEHOLDER.sub("__ANY__", inline)
    if pattern == inline:
        return False
    regex = re.escape(pattern).replace("__ANY__", r"\S+")
    return any(re.fullmatch(regex, c) for c in commands)


def run_here(readme: Readme) -> list[str]:
    """The inline commands no block runs and that are not excused: run after the blocks."""
    commands = block_commands_all(readme)
    return [c for c in readme.inline if c not in NOT_RUN and not covered(c, commands)]


def stated_fields(paragraph: str) -> dict[str, Any]:
    """``"key": value`` spans of an "It prints ..." paragraph, as JSON."""
    if not paragraph.startswith("It prints"):
        return {}
    out: dict[str, Any] = {}
    for span in SPAN.findall(paragraph):
        span = " ".join(span.split())
        if re.match(r'"\w+": ', span):
            out.update(json.loads("{" + span + "}"))
    return out


def stated_url(readme: Readme) -> str:
    found = re.search(r"`make run` serves the hall at `(http://[^`]+)`", readme.prose)
    assert found, "the README no longer says where `make run` serves the hall"
    return found.group(1)


def stated_data_dir(readme: Readme) -> str:
    found = re.search(r"data in `~/([^`]+)`", readme.prose)
    assert found, "the README no longer says where the hall keeps its data"
    return found.group(1)


# ------------------------------------------------------------------ the README, read


def test_the_readme_is_read_as_a_reader_would() -> None:
    readme = parse(README.read_text(encoding="utf-8"))
    commands = block_commands_all(readme)
    assert "make run" in commands and "make test" in commands
    assert any(c.endswith("| baida score") for c in commands)
    assert {"make run PORT=8080", "baida replay FILE --review"} <= set(readme.inline)
    assert "baida serve" in readme.table_names and "baida replay FILE" in readme.table_names
    score = next(b for b in readme.blocks if any("baida score" in c for c in b.commands))
    assert set(stated_fields(score.after)) >= {"tai", "points", "payments"}
    assert stated_url(readme).startswith("http://") and stated_data_dir(readme)
    assert any(b.lang == "python" for b in readme.blocks)


def test_every_inline_command_is_run_or_excused() -> None:
    """No command of the prose escapes: a block runs it, this test runs it, or it is excused
    (with a reason); a command with a placeholder cannot be run as printed, so a block must
    show it with a real path."""
    readme = parse(README.read_text(encoding="utf-8"))
    for command in run_here(readme):
        assert not PLACEHOLDER.search(command), (
            f"{command!r}: no block runs it, and FILE/DIR cannot be typed as printed")
    assert set(NOT_RUN) <= set(readme.inline) | set(block_commands_all(readme)), (
        "an excuse for a command the README no longer prints")


def test_the_parser_sees_what_it_should() -> None:
    text = ("Run `make run PORT=1` or `baida x FILE`; not `baida.tiles` nor `.venv/bin/`.\n\n"
            "```sh\nmake run   # starts\nbaida x records/a.json\n```\n\n"
            'It prints `"points": 5` and `"payments": {"E": -5,\n"S": 15}`.\n\n'
            "| command | what |\n|---|---|\n| `baida y FILE` | see `baida z --flag` |\n")
    readme = parse(text)
    assert readme.inline == ["make run PORT=1", "baida x FILE", "baida z --flag"]
    assert readme.table_names == ["baida y FILE"]
    assert readme.blocks[0].commands == ["make run", "baida x records/a.json"]
    assert stated_fields(readme.blocks[0].after) == {"points": 5, "payments": {"E": -5, "S": 15}}
    assert run_here(readme) == ["make run PORT=1", "baida z --flag"]
    assert covered("baida x FILE", ["baida x records/a.json"])
    assert not covered("baida x FILE --review", ["baida x records/a.json"])


# ------------------------------------------------------------------ running them


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


def fresh_env(tmp_path: Path) -> dict[str, str]:
    drop = ("VIRTUAL_ENV", "PYTHONPATH", "BAIDA_DATA", "XDG_DATA_HOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HOME"] = str(tmp_path / "home")  # the hall's data, pip's config: nothing of ours
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p)
    env["PIP_CACHE_DIR"] = os.environ.get("PIP_CACHE_DIR", str(Path.home() / ".cache" / "pip"))
    env["PYTHON"] = sys.executable  # the same interpreter the suite runs on
    return env


class Runner:
    """Runs the README's commands in the copy, as a reader types them."""

    def __init__(self, repo: Path, env: dict[str, str], logs: Path) -> None:
        self.repo, self.env, self.logs = repo, env, logs
        self.activated = False  # set once the README's activation line has run
        self.count = 0

    def script(self, command: str) -> str:
        bare = command.startswith(("make ", ".venv/bin/", ". .venv")) or not self.activated
        return command if bare else ". .venv/bin/activate\n" + command

    def run(self, command: str, timeout: float = INSTALL_SECONDS) -> str:
        """Run to the end: exit status 0; the standard output."""
        done = subprocess.run(["bash", "-ec", self.script(command)], cwd=self.repo, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
        assert done.returncode == 0, (
            f"{command}\nexit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        if command == ". .venv/bin/activate":
            self.activated = True
        return done.stdout

    def start(self, command: str, ready: Callable[[str], bool], timeout: float,
              ) -> tuple[subprocess.Popen[bytes], str]:
        """Start a command that does not end by itself; wait until ``ready(its output)``."""
        self.count += 1
        log = self.logs / f"command-{self.count}.log"
        proc = subprocess.Popen(["bash", "-ec", self.script(command)], cwd=self.repo,
                                env=self.env, stdin=subprocess.DEVNULL, stdout=log.open("w"),
                                stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = log.read_text(errors="replace")
            if ready(text):
                return proc, text
            if proc.poll() is not None:
                pytest.fail(f"{command} stopped (exit {proc.returncode}):\n{text[-3000:]}")
            time.sleep(1)  # installing or working: nothing to do but wait
        stop(proc)
        pytest.fail(f"{command}: nothing to show it works in {timeout:.0f} s:\n"
                    f"{log.read_text(errors='replace')[-3000:]}")

    def hall(self, command: str, url: str) -> subprocess.Popen[bytes]:
        """``make run …``: its URL is the one expected, and the hall answers there."""
        proc, text = self.start(command, lambda t: HALL_URL.search(t) is not None,
                                INSTALL_SECONDS)
        printed = HALL_URL.search(text).group(1)
        if printed != url:
            stop(proc)
            pytest.fail(f"{command} serves at {printed}, the README says {url}")
        with urllib.request.urlopen(url + "healthz", timeout=30) as answer:
            assert answer.status == 200
        return proc


# what only the test, bench and arena extras bring: `make run` installs none of them
NOT_RUNTIME = ("pytest", "hypothesis", "playwright", "ruff", "matplotlib", "ipython", "mahjong",
               "xiangting", "riichienv", "picows")


def assert_runtime_only(repo: Path) -> None:
    """The environment ``make run`` made holds the runtime and nothing of the extras."""
    listed = subprocess.run([str(repo / ".venv" / "bin" / "python"), "-m", "pip", "list",
                             "--format", "json"], capture_output=True, text=True, check=True)
    installed = {p["name"].lower() for p in json.loads(listed.stdout)}
    assert {"uvicorn", "starlette", "sqlalchemy", "rich"} <= installed, sorted(installed)
    extras = sorted(installed & set(NOT_RUNTIME))
    assert not extras, f"make run installed what only the extras need: {extras}"


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)


def playing(text: str) -> bool:
    """``baida client``: it sat down, the match began and turns are being played."""
    return sum(" discards " in line for line in text.splitlines()) >= 8


def benchmarked(text: str) -> bool:
    """``make bench``: the anchors' section (the bench extra's libraries) has been measured."""
    return "running scoring" in text


def url_with_port(url: str, command: str) -> str:
    found = re.search(r"\bPORT=(\d+)", command)
    return url if not found else re.sub(r":\d+/", f":{found.group(1)}/", url)


def check_output(command: str, out: str, block: Block | None, repo: Path) -> None:
    """What the README says a command prints or writes."""
    stated = stated_fields(block.after) if block is not None else {}
    if stated:
        printed = json.loads(out)
        for key, value in stated.items():
            assert printed.get(key) == value, f"{command}: {key} is {printed.get(key)!r}"
    if command.startswith("baida play ") and "--record" in command:
        assert list((repo / command.split("--record ")[1].split()[0]).glob("*.json"))
    if command.startswith("baida review ") and ">" in command:
        written = json.loads((repo / command.split(">")[1].strip()).read_text())
        assert written["decisions"], written
    if command.startswith("baida replay ") and "--review" in command:
        assert "review (expert bot" in out, out[-1000:]
    if command.startswith("python -m bench.hall_load"):
        lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        assert lines and all("tables" in line and "pace" in line for line in lines), out[-2000:]
    if command.startswith("python -m bench --only engine"):
        assert "hands/s" in out, out[-2000:]
    if command.startswith("make quicktest"):
        assert re.search(r"\d+ passed", out), out[-2000:]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_readme_command_works_as_printed(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    readme = parse(README.read_text(encoding="utf-8"))
    url = stated_url(readme)
    for command in ["make run", *run_here(readme)]:
        if command.startswith("make run"):
            port = int(re.search(r":(\d+)/", url_with_port(url, command)).group(1))
            if not port_free(port):
                pytest.fail(f"port {port} is taken: the README's `{command}` needs it")
    repo = tmp_path / "baida"
    repo.mkdir()
    copy_repository(repo)
    env = fresh_env(tmp_path)
    runner = Runner(repo, env, tmp_path)
    server = None
    try:
        for block in readme.blocks:
            if block.lang == "python":
                runner.run("python - <<'README_PYTHON'\n" + block.body + "README_PYTHON")
                continue
            for command in block.commands:
                if command in NOT_RUN:
                    continue
                if command == "make run":
                    server = runner.hall(command, url)
                    data = Path(env["HOME"], stated_data_dir(readme))
                    assert data.is_dir(), f"the hall's data is not in {data}"
                    assert_runtime_only(repo)
                elif command.startswith("baida client"):
                    stop(runner.start(command, playing, 180)[0])
                elif command in ("make bench", "python -m bench"):
                    stop(runner.start(command, benchmarked, INSTALL_SECONDS)[0])
                else:  # what "It prints" after a block is its last command's output
                    last = block if command == block.commands[-1] else None
                    check_output(command, runner.run(command), last, repo)
        assert server is not None, "the README never runs `make run`"
        stop(server)
        server = None
        for name in readme.table_names:  # every command the table lists exists
            runner.run(" ".join(name.split()[:2]) + " --help")
        for command in run_here(readme):
            if command.startswith("make run"):
                stop(runner.hall(command, url_with_port(url, command)))
            elif command in ("make bench", "python -m bench"):
                stop(runner.start(command, benchmarked, INSTALL_SECONDS)[0])
            else:
                check_output(command, runner.run(command), None, repo)
    finally:
        if server is not None:
            stop(server)
