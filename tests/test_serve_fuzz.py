"""A short fuzz run of ``zrec serve``'s API with schemathesis, from its ``/openapi.json``.

Every operation the description lists (each GET and POST under ``/api``) is called with
requests made from its parameters and body, valid and not, through ASGI against the
real application over a real SQLite archive of the samples.  Each answer must be no
server error (no 5xx), no traceback, and, when it is an error, JSON of the documented
shape ``{"error": {"code": ..., "message": ...}}`` with a known code.  The long run is
``benchmarks/serve_fuzz.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode

from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
FILES = [*sorted((ROOT / "samples").glob("*.zrec")),
         *sorted((ROOT / "samples" / "club").glob("*.zrec"))]


def documented_codes() -> set[str]:
    """The error codes of docs/serve.md, section 4 (its table: a code a row)."""
    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    section = text.split("\n## 4. ", 1)[1].split("\n## 5. ", 1)[0]
    return set(re.findall(r"^\| `([a-z-]+)` \| \d{3} \|", section, re.M))


#: the codes of docs/serve.md, section 4
CODES = documented_codes()
#: the operations this test expects to find (a new one must be added here: it is fuzzed)
OPERATIONS = {
    "GET /api/health", "GET /api/games", "GET /api/games/{gid}",
    "GET /api/events/{name}/standings", "GET /api/events/{name}/pairings",
    "POST /api/validate", "GET /api/tree",
    "POST /api/games", "POST /api/position", "POST /api/edit", "GET /api/roll",
    "POST /api/json", "POST /api/reply", "POST /api/analyse", "POST /api/puzzle",
    "POST /api/live", "GET /api/live", "GET /api/live/{gid}", "POST /api/live/{gid}/move",
    "POST /api/live/{gid}/seat", "GET /api/live/{gid}/position",
    "GET /api/live/{gid}/stream", "POST /api/events/{name}/live",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite"
    subprocess.run(
        [sys.executable, "-m", "zrec", "archive", "import", "-q", "--db", str(db),
         *map(str, FILES)],
        check=True, capture_output=True, timeout=300,
    )
    return create_app(str(db))


@pytest.fixture(scope="module")
def api_schema(app: FastAPI) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def problems_of(status: int, headers: dict[str, list[str]], content: bytes) -> list[str]:
    """What is wrong with an answer of the API (nothing: ``[]``)."""
    found = []
    text = content.decode("utf-8", "replace")
    if status >= 500:
        found.append(f"status {status}")
    if "Traceback" in text or "<html" in text.lower():
        found.append("a traceback or a page in an API answer")
    if status >= 400:
        kind = (headers.get("content-type") or [""])[0]
        try:
            error = json.loads(text)["error"]
            # (a record that does not validate comes with the validator's diagnostics)
            extra = {"diagnostics"} if error.get("code") == "invalid-record" else set()
            ok = set(error) - extra == {"code", "message"} and error["code"] in CODES and (
                isinstance(error["message"], str) and error["message"])
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok or not kind.startswith("application/json"):
            found.append(f"an error not in the documented JSON shape: {text[:200]!r}")
    return found


def operations(schema: Any) -> list[Any]:
    """The operations of an API's description."""
    return [result.ok() for result in schema.get_all_operations()]


def fuzz(schema: Any, examples: int, modes: tuple[str, ...] = ("positive", "negative"),
         seed: int | None = None) -> tuple[int, list[str]]:
    """Call every operation of ``schema`` with ``examples`` requests of each mode
    (``positive``: as described, ``negative``: not); the number of calls, and what was
    wrong with the answers (as :func:`problems_of` says, with the request)."""
    calls, failures = 0, []
    for operation in operations(schema):
        for mode in modes:
            strategy = operation.as_strategy(generation_mode=GenerationMode(mode))

            @given(case=strategy)
            @settings(max_examples=examples, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck), phases=[Phase.generate],
                      derandomize=seed is None)
            def call(case: Any) -> None:
                nonlocal calls
                calls += 1
                where = (f"{case.method} {case.formatted_path} query={case.query} "
                         f"body={str(case.body)[:80]!r}")
                try:
                    response = case.call()
                except Exception as exc:  # (through ASGI, what the server raised: a 500)
                    failures.append(f"{where}: the server raised {exc!r}")
                    return
                for problem in problems_of(response.status_code, response.headers,
                                           response.content):
                    failures.append(f"{where}: {problem}")

            if seed is not None:
                call = hypothesis_seed(seed)(call)
            try:
                call()
            except Unsatisfiable:  # nothing to make wrong (no parameter, no body)
                assert mode == "negative", operation.path
    return calls, failures


def test_every_operation_is_fuzzed(api_schema: Any) -> None:
    found = {f"{op.method.upper()} {op.path}" for op in operations(api_schema)}
    assert found >= OPERATIONS
    assert all(op.split()[0] in ("GET", "POST") for op in found)


def test_api_answers_without_failing(api_schema: Any) -> None:
    calls, failures = fuzz(api_schema, 8)
    assert failures == []
    assert calls >= 2 * len(OPERATIONS)


def test_problems_of_sees_what_it_must() -> None:
    json_type = {"content-type": ["application/json"]}
    good = b'{"error": {"code": "not-found", "message": "there is no game #9"}}'
    assert problems_of(404, json_type, good) == []
    assert problems_of(200, json_type, b"[]") == []
    assert problems_of(500, json_type, good.replace(b"not-found", b"internal-error")) == [
        "status 500"]
    assert problems_of(400, {"content-type": ["text/html"]}, b"<html>Traceback</html>") == [
        "a traceback or a page in an API answer",
        "an error not in the documented JSON shape: '<html>Traceback</html>'",
    ]
    assert problems_of(400, json_type, b'{"detail": "x"}') == [
        "an error not in the documented JSON shape: '{\"detail\": \"x\"}'"]


def test_the_codes_are_read_from_the_guide() -> None:
    assert {
        "bad-request", "bad-search", "not-found", "method-not-allowed", "too-slow",
        "too-large", "internal-error", "login-needed", "bad-token", "forbidden", "csrf",
        "bad-tree", "bad-import",
    } <= CODES


#: the addresses whose headers are fuzzed (reads, and the writes that check a token)
HEADER_ROUTES = [("GET", "/"), ("GET", "/login"), ("GET", "/api/games"),
                 ("POST", "/login"), ("POST", "/logout"), ("POST", "/api/games")]


def test_any_cookie_token_or_header_bytes_are_no_server_error(app: FastAPI) -> None:
    """Session cookies, CSRF tokens (header and form field) and API tokens of any bytes
    (not ASCII too: a header's bytes reach the application as Latin-1): never a 5xx,
    always the security headers."""
    from fastapi.testclient import TestClient
    from hypothesis import strategies as st

    header_bytes = st.binary(max_size=60).map(
        lambda b: bytes(c for c in b if c not in b"\r\n\x00").strip())
    with TestClient(app) as client:
        client.get("/login")
        session = client.cookies["zrec_session"].encode()

        @given(route=st.sampled_from(HEADER_ROUTES), cookie=header_bytes, token=header_bytes,
               bearer=header_bytes, signed=st.booleans(), field=st.text(max_size=20))
        @settings(max_examples=150, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(route: tuple[str, str], cookie: bytes, token: bytes, bearer: bytes,
                 signed: bool, field: str) -> None:
            headers = [(b"cookie", b"zrec_session=" + (session if signed else cookie)),
                       (b"x-csrf-token", token)]
            if bearer:
                headers.append((b"authorization", b"Bearer " + bearer))
            method, path = route
            client.cookies.clear()
            body = {"csrf": field, "name": "a", "password": "b"} if method == "POST" else None
            answer = client.request(method, path, headers=headers, data=body,
                                    follow_redirects=False)
            assert answer.status_code < 500, (route, headers, answer.text[:200])
            assert "default-src 'self'" in answer.headers["content-security-policy"]

        call()
