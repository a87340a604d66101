"""The one-machine deployment as shipped: ``deploy/nginx-site.conf`` (Debian's nginx, a
certificate made here) in front of ``baida serve --secure-cookies --forwarded-allow-ips
127.0.0.1``: plain HTTP is sent to HTTPS, a browser signs in and opens its table's WebSocket
over TLS, the cookie is Secure, and the hall counts a guest limit by the address nginx reports
(which a client cannot choose); the same site without its Host line refuses a browser, as its
comment says. And ``deploy/baida.service`` is a unit systemd accepts."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy" / "nginx-site.conf"
UNIT = ROOT / "deploy" / "baida.service"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ANNOUNCED = "baida hall: "


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def site_for_test(site: str, hall: int, http: int, https: int, tmp: Path) -> str:
    """The shipped site with this test's ports and certificate: nothing else changed."""
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{hall};")
    site = re.sub(r"listen \[::\]:\d+[^;]*;\n", "", site)
    site = site.replace("listen 80;", f"listen 127.0.0.2:{http};")
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.2:{https} ssl;")
    site = site.replace("/etc/letsencrypt/live/hall.example.org/fullchain.pem", str(tmp / "c.pem"))
    site = site.replace("/etc/letsencrypt/live/hall.example.org/privkey.pem", str(tmp / "k.pem"))
    return site.replace("hall.example.org", "localhost")


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[dict[str, Any]]:
    if not Path(NGINX).exists() or shutil.which("openssl") is None:
        pytest.skip("needs Debian's nginx and openssl (.ci/run installs them)")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-keyout", str(tmp_path / "k.pem"),
                    "-out", str(tmp_path / "c.pem")], check=True, capture_output=True)
    ports = {"hall": free_port(), "http": free_port(), "https": free_port()}
    site = site_for_test(SITE.read_text(), ports["hall"], ports["http"], ports["https"], tmp_path)
    (tmp_path / "site.conf").write_text(site)
    temp = tmp_path / "nginx-temp"
    temp.mkdir()
    user = "user root;\n" if os.geteuid() == 0 else ""
    (tmp_path / "nginx.conf").write_text(
        f"{user}daemon off;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        "events {}\nhttp {\n  access_log off;\n"
        + "".join(f"  {kind}_temp_path {temp}/{kind};\n"
                  for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        + f"  include {tmp_path}/site.conf;\n}}\n")
    hall = subprocess.Popen(
        [sys.executable, "-m", "baida.cli", "serve", "--port", str(ports["hall"]),
         "--data", str(tmp_path / "data"), "--bot-workers", "0", "--no-warm-up",
         "--log-format", "text", "--log-level", "warning", "--guests-per-hour", "2",
         "--secure-cookies", "--forwarded-allow-ips", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    proxy = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"),
                              "-e", str(tmp_path / "error.log")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert hall.stdout is not None
        deadline = time.monotonic() + 60
        while ANNOUNCED not in (line := hall.stdout.readline()):
            assert line and time.monotonic() < deadline, "the hall did not start"
        for _ in range(100):
            if proxy.poll() is not None:
                raise AssertionError((tmp_path / "error.log").read_text())
            try:
                socket.create_connection(("127.0.0.2", ports["https"]), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield {**ports, "nginx": proxy.pid, "tmp": tmp_path}
    finally:
        for proc in (proxy, hall):
            proc.send_signal(2 if proc is hall else 15)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()


def client(source: str) -> httpx.Client:
    """HTTPS to the test's nginx from the loopback address ``source``, as a browser would."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=source, verify=False),
                        timeout=10)


def test_the_shipped_nginx_site_serves_the_hall_over_tls_with_its_sockets_and_addresses(
    deployed: dict[str, Any],
) -> None:
    https = f"https://localhost:{deployed['https']}"
    origin = {"Origin": https}
    # the name resolves to 127.0.0.1; nginx listens on 127.0.0.2 (so the client's address,
    # chosen per test below, differs from nginx's own 127.0.0.1 towards the hall)
    base = f"https://127.0.0.2:{deployed['https']}"
    host = {"Host": f"localhost:{deployed['https']}"}
    with client("127.0.0.3") as web:
        plain = web.get(f"http://127.0.0.2:{deployed['http']}/api/tables", headers=host)
        assert plain.status_code == 301
        assert plain.headers["location"] == "https://localhost/api/tables"
        page = web.get(base + "/", headers=host)
        assert page.status_code == 200 and "百搭" in page.text
        assert page.headers["strict-transport-security"] == "max-age=31536000"
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]  # the hall's
        signed = web.post(base + "/api/guest", headers={**host, **origin})
        assert signed.status_code == 201, signed.text
        cookie = signed.headers["set-cookie"]
        assert "secure" in cookie.lower() and "httponly" in cookie.lower()
        me = signed.json()["me"]
        made = web.post(base + "/api/tables", headers={**host, **origin,
                                                       "X-CSRF-Token": me["csrf"]},
                        json={"ruleset": "jiaxing"})
        assert made.status_code == 201, made.text
        table = made.json()["table"]["id"]
        cookies = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
    # the table's socket over TLS through nginx: welcomed, and a ping answered
    tls = ssl.create_default_context()
    tls.check_hostname = False
    tls.verify_mode = ssl.CERT_NONE

    async def socket_round() -> list[str]:
        url = f"wss://localhost:{deployed['https']}/ws/tables/{table}"
        async with connect(url, ssl=tls, additional_headers={"Cookie": cookies, **origin},
                           host="127.0.0.2", port=deployed["https"]) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 1}))
            await ws.send(json.dumps({"type": "ping", "id": "x"}))
            kinds: list[str] = []
            while "pong" not in kinds:
                kinds.append(json.loads(await asyncio.wait_for(ws.recv(), 10))["type"])
            return kinds

    kinds = asyncio.run(socket_round())
    assert kinds[0] == "welcome" and "pong" in kinds
    # the hall counts guests by the address nginx reports: 127.0.0.3 made one above and may
    # make one more; a header it sends naming another address changes nothing

    def new_guest(source: str, **headers: str) -> int:
        with client(source) as web:  # a new browser: no cookie
            return web.post(base + "/api/guest", headers={**host, **origin, **headers}).status_code

    assert new_guest("127.0.0.3") == 201
    assert new_guest("127.0.0.3", **{"X-Forwarded-For": "203.0.113.9"}) == 429
    assert new_guest("127.0.0.4") == 201  # another address: its own count
    # the same site without its Host line (nginx then sends "baida", the upstream's name): the
    # hall refuses the browser, whose Origin names the address it used
    site = deployed["tmp"] / "site.conf"
    text = site.read_text()
    assert text.count("proxy_set_header Host $http_host;") == 1
    site.write_text(text.replace("proxy_set_header Host $http_host;", ""))
    os.kill(deployed["nginx"], signal.SIGHUP)  # nginx reloads its configuration
    deadline = time.monotonic() + 10
    while (answer := new_guest("127.0.0.5")) == 201 and time.monotonic() < deadline:
        time.sleep(0.2)  # the old workers may answer a moment longer
    assert answer == 403


def test_the_shipped_unit_is_one_systemd_accepts(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    venv_baida = Path(sys.executable).parent / "baida"
    unit = UNIT.read_text().replace("/opt/baida/.venv/bin/baida", str(venv_baida))
    (tmp_path / "baida.service").write_text(unit)
    done = subprocess.run([analyze, "verify", str(tmp_path / "baida.service")],
                          capture_output=True, text=True)
    problems = [line for line in (done.stdout + done.stderr).splitlines()
                if "baida.service" in line]
    assert done.returncode == 0 and not problems, done.stdout + done.stderr
    assert "--secure-cookies" in unit and "--forwarded-allow-ips 127.0.0.1" in unit


def test_the_units_command_is_one_baida_serve_takes() -> None:
    """The unit's ExecStart, parsed by baida's own parser: every flag known, every value valid."""
    import shlex

    from baida.cli import build_parser

    line = next(x for x in UNIT.read_text().splitlines() if x.startswith("ExecStart="))
    argv = shlex.split(line.removeprefix("ExecStart="))
    assert argv[0] == "/opt/baida/.venv/bin/baida" and argv[1] == "serve"
    args = build_parser(argv[1:]).parse_args(argv[1:])
    assert (args.host, args.port, str(args.data)) == ("127.0.0.1", 8000, "/var/lib/baida")
    assert args.secure_cookies and args.forwarded_allow_ips == "127.0.0.1"
    site = SITE.read_text()
    assert "server 127.0.0.1:8000;" in site  # nginx sends to where the unit listens
