"""The HTTP API's OpenAPI document (``/api/openapi.json``) names every route the hall serves,
and a fuzz test of the API from it (schemathesis: random paths, queries and bodies within and
around the document's schemas, signed in as a guest with its CSRF token) never gets a 5xx.
Examples per operation scale with ``BAIDA_TEST_SCALE``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples
from schemathesis.generation import GenerationMode
from starlette.routing import Route
from web_support import LiveHall

from baida.server.web.openapi import DOCUMENT


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveHall]:
    live = LiveHall(tmp_path_factory.mktemp("openapi")).start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def signed_in(hall: LiveHall) -> dict[str, Any]:
    """A guest's session cookie and CSRF token (a fresh guest, so that the fuzz's own
    requests, which may sign it out or register it, do not spoil the other tests)."""
    with httpx.Client(base_url=hall.base) as http:
        me = http.post("/api/guest").json()["me"]
        return {"cookies": dict(http.cookies), "headers": {"X-CSRF-Token": me["csrf"]}}


@pytest.fixture(scope="module")
def api_schema(hall: LiveHall) -> Any:
    return schemathesis.openapi.from_url(f"{hall.base}/api/openapi.json")


def served_routes(hall: LiveHall) -> set[tuple[str, str]]:
    out = set()
    for route in hall.app.app.routes:
        if isinstance(route, Route):
            out |= {(route.path, m.lower()) for m in route.methods or () if m != "HEAD"}
    return out


def test_the_document_names_every_route_and_nothing_else(hall: LiveHall) -> None:
    documented = {(path, method) for path, ops in DOCUMENT["paths"].items() for method in ops}
    assert served_routes(hall) == documented
    with httpx.Client(base_url=hall.base) as http:
        r = http.get("/api/openapi.json")
    assert r.status_code == 200 and r.json() == DOCUMENT


OPERATIONS = [op.ok() for op in schemathesis.openapi.from_dict(DOCUMENT).get_all_operations()]
# these may answer 503 by design
SERVER_BUSY = {"/healthz", "/healthz/ready", "/api/waits", "/api/verify"}
# these may end the guest's session (or make it another account): fuzzed last
LAST = ("POST /api/register", "POST /api/logout")
LABELS = sorted((op.label for op in OPERATIONS), key=lambda label: label in LAST)


@pytest.mark.parametrize("label", LABELS)
def test_no_request_gets_a_server_error(label: str, api_schema: Any, hall: LiveHall,
                                        signed_in: dict[str, Any]) -> None:
    """Cases within the operation's schemas and outside them (wrong types, out-of-range ids,
    missing fields), each sent signed in; none may answer 5xx (but a documented 503)."""
    operation = api_schema.find_operation_by_label(label)
    cases = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                      operation.as_strategy(GenerationMode.NEGATIVE))

    @given(case=cases)
    @settings(max_examples=examples(12), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case: Any) -> None:
        response = case.call(base_url=hall.base, cookies=signed_in["cookies"],
                             headers=signed_in["headers"], timeout=30)
        busy = response.status_code == 503 and (
            case.path in SERVER_BUSY or case.path.startswith("/api/hands/"))
        assert response.status_code < 500 or busy, (
            case.method, case.path, case.path_parameters, case.query, case.body,
            response.status_code, response.text[:300])

    fuzz()


def test_schemathesis_is_pinned_as_the_test_extra_says() -> None:
    root = Path(__file__).resolve().parents[1]
    pin = f"schemathesis=={schemathesis.__version__}" if hasattr(
        schemathesis, "__version__") else "schemathesis=="
    assert pin in (root / "constraints.txt").read_text()
    assert pin in (root / "pyproject.toml").read_text()
