"""``zrec serve``'s JSON API against the real application (FastAPI's TestClient) on a
real archive imported from samples/ by ``zrec archive import``: every answer is what
the matching command prints for the same archive, byte for byte; errors are JSON with
their codes; the limits and headers hold.  On SQLite, and on PostgreSQL when
``ZREC_TEST_PG`` names a server (as the other archive tests).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from psycopg import sql

from zrec.serve import create_app

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
FILES = [*sorted(SAMPLES.glob("*.zrec")), *sorted((SAMPLES / "club").glob("*.zrec"))]
EVENT = "Zuni Club Championship 2026"
#: a player whose name is markup: the pages show it as text
SCRIPTED = "<script>alert(1)</script>"
ODD = f"""[Game "mosona"]
[Event "Odd names"]
[Round "1"]
[White "{SCRIPTED}"]
[Black "Lovelace, Ada"]
[Result "*"]

1. b6-b5 b4xb6 *
"""


def zrec(*args: str, stdin: bytes | None = None, code: int | None = 0) -> bytes:
    """What ``zrec ARGS`` prints (its exit code checked unless ``code`` is None)."""
    done = subprocess.run(
        [sys.executable, "-m", "zrec", *args], input=stdin, capture_output=True, timeout=300
    )
    if code is not None:
        assert done.returncode == code, done.stderr.decode()
    return done.stdout


def _pg_database() -> Iterator[str]:
    server = os.environ.get("ZREC_TEST_PG")
    if not server:
        if os.environ.get("CI") == "true":
            pytest.fail("ZREC_TEST_PG is not set: scripts/test starts a PostgreSQL server on CI")
        pytest.skip("no PostgreSQL server: set ZREC_TEST_PG=postgresql://...")
    name = "zrec_s_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlsplit(server)._replace(path="/" + name).geturl()
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An archive of every sample, the club's rounds and a game with odd names."""
    folder = tmp_path_factory.mktemp("serve")
    odd = folder / "odd.zrec"
    odd.write_text(ODD, encoding="utf-8")
    if request.param == "sqlite":
        target = str(folder / "archive.sqlite")
        zrec("archive", "import", "--db", target, "-q", *map(str, FILES), str(odd))
        yield target
        return
    for url in _pg_database():
        zrec("archive", "import", "--db", url, "-q", *map(str, FILES), str(odd))
        yield url


@pytest.fixture(scope="module")
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as client:
        yield client


def test_health_names_the_database(client: TestClient, db: str) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    kind = "postgresql" if db.startswith("postgresql://") else "sqlite"
    assert answer.json() == {"ok": True, "db": kind}


@pytest.mark.parametrize(
    ("params", "options"),
    [
        ({"player": "ada lovelace"}, ["--player", "ada lovelace"]),
        ({"event": EVENT, "limit": "2", "offset": "1"},
         ["--event", EVENT, "--limit", "2", "--offset", "1"]),
        ({"white": "Turing, Alan"}, ["--white", "Turing, Alan"]),
        ({"seat": "Black=Hopper, Grace"}, ["--seat", "Black=Hopper, Grace"]),
        ({"game": "mosona", "O": "Board=open"}, ["--game", "mosona", "-O", "Board=open"]),
        ({"option": "Jumps=bent"}, ["-O", "Jumps=bent"]),
        ({"moves": "1. b6-b5 b4xb6", "limit": "50"}, ["--moves", "1. b6-b5 b4xb6"]),
        ({"date-from": "2026.10.05", "date-to": "2026.10.06"},
         ["--date-from", "2026.10.05", "--date-to", "2026.10.06"]),
        ({"result": "1/2-1/2", "round": "2"}, ["--result", "1/2-1/2", "--round", "2"]),
        ({"termination": "resignation"}, ["--termination", "resignation"]),
        ({"material": "12:12", "limit": "50"}, ["--material", "12:12"]),
        ({"id": ["3", "11"]}, ["--id", "3", "--id", "11"]),
        ({"event": "no such event"}, ["--event", "no such event"]),
    ],
    ids=["player", "event-page", "white", "seat", "game-option", "option", "moves", "dates",
         "result-round", "termination", "material", "ids", "none"],
)
def test_games_are_what_search_prints(
    client: TestClient, db: str, params: dict[str, str], options: list[str]
) -> None:
    answer = client.get("/api/games", params=params)
    assert answer.status_code == 200, answer.text
    limit = ["--limit", "50"] if "--limit" not in options else []
    printed = zrec("archive", "search", "--db", db, "--format", "json", *options, *limit)
    assert answer.content == printed
    unpaged = [o for i, o in enumerate(options) if "--limit" not in options[i - 1 : i + 1]]
    unpaged = [o for i, o in enumerate(unpaged) if "--offset" not in unpaged[i - 1 : i + 1]]
    everything = zrec("archive", "search", "--db", db, "--format", "ids", *unpaged,
                      "--limit", "1000")
    assert answer.headers["x-total-count"] == str(len(everything.split()))
    assert answer.headers["content-type"] == "application/json"


def test_position_after_names_a_stored_game(client: TestClient, db: str) -> None:
    """``position-after=ID:PLY`` is the position after ply PLY of a stored game: the
    command's ``--position-after FILE:PLY`` of the same record finds the same games."""
    (culin,) = json.loads(zrec("archive", "search", "--db", db, "--format", "json",
                               "--event", "Culin's opening"))
    answer = client.get("/api/games", params={"position-after": f"{culin['id']}:2"})
    printed = zrec("archive", "search", "--db", db, "--format", "json",
                   "--position-after", str(SAMPLES / "culin-opening.zrec") + ":2")
    assert answer.status_code == 200 and answer.content == printed
    assert culin["id"] in [g["id"] for g in answer.json()]
    bad = client.get("/api/games", params={"position-after": "notes.zrec:2"})
    assert bad.status_code == 400
    assert bad.json()["error"] == {
        "code": "bad-search", "message": "position-after takes ID:PLY, not 'notes.zrec:2'"
    }


def test_a_game_is_what_convert_writes(client: TestClient, db: str) -> None:
    for gid in (1, 11, 14):
        text = zrec("archive", "show", str(gid), "--db", db)
        (converted,) = json.loads(zrec("convert", "-", "--to", "json", stdin=text))
        answer = client.get(f"/api/games/{gid}")
        assert answer.status_code == 200
        assert answer.json() == converted


def test_every_style_of_a_game_page_is_allowed_by_its_csp(client: TestClient) -> None:
    """A board drawn with a stylesheet of its own (Awéthi's map and legend) carries a
    <style>: the page's CSP names it by hash (else the browser drops it), and still
    allows no inline style in general."""
    import base64
    import hashlib
    import re

    ids = [row["id"] for row in client.get("/api/games", params={"limit": "100"}).json()]
    styled = 0
    for gid in ids:
        answer = client.get(f"/games/{gid}")
        assert answer.status_code == 200
        csp = answer.headers["content-security-policy"]
        assert "unsafe-inline" not in csp and "script-src 'self';" in csp
        assert answer.headers.get_list("content-security-policy") == [csp]
        for style in re.findall(r"<style>(.*?)</style>", answer.text, re.S):
            digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in csp, gid
            styled += 1
    assert styled >= 2  # the two Awéthi samples


def test_standings_are_what_the_command_prints(client: TestClient, db: str) -> None:
    answer = client.get(f"/api/events/{EVENT}/standings")
    assert answer.content == zrec("archive", "standings", EVENT, "--db", db, "--format", "json")
    assert [line["player"] for line in answer.json()][:1] == ["Hopper, Grace"]
    answer = client.get(
        f"/api/events/{EVENT}/standings", params={"round": "2", "tiebreaks": "BH,SB"}
    )
    assert answer.content == zrec(
        "archive", "standings", EVENT, "--db", db, "--round", "2", "--tiebreaks", "BH,SB",
        "--format", "json",
    )
    late = client.get(f"/api/events/{EVENT}/standings", params={"round": "9"})
    assert late.status_code == 400 and late.json()["error"]["code"] == "bad-event-query"
    assert "there is no round 9" in late.json()["error"]["message"]
    unknown = client.get("/api/events/Nowhere Open/standings")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "not-found"
    assert unknown.json()["error"]["message"].startswith("there is no event 'Nowhere Open'")


@pytest.mark.parametrize(
    "record",
    [
        SAMPLES / "culin-opening.zrec",
        SAMPLES / "tournament.zrec",
        SAMPLES / "invalid" / "illegal-move.zrec",
        SAMPLES / "invalid" / "syntax.zrec",
        SAMPLES / "invalid" / "wrong-result.zrec",
        SAMPLES / "invalid" / "option-conflict.zrec",
    ],
    ids=lambda p: p.stem,
)
def test_validate_answers_what_validate_prints(client: TestClient, record: Path) -> None:
    body = record.read_bytes()
    answer = client.post("/api/validate", content=body)
    assert answer.status_code == 200
    printed = zrec("validate", "-", "--format", "json", stdin=body, code=None)
    assert answer.content == printed


def test_validate_gives_the_validators_words_with_the_line(client: TestClient) -> None:
    answer = client.post("/api/validate", content=b'[Game "mosona"]\n1. b6-b5 c5-b6 *\n')
    (problem,) = answer.json()["diagnostics"]
    assert (problem["code"], problem["line"], problem["column"]) == ("illegal-move", 2, 10)
    assert "c5-b6 is illegal: a capture is compulsory here" in problem["message"]
    assert answer.json()["summary"]["invalid"] == 1


def test_validate_reads_json_by_name_or_by_its_start(client: TestClient, tmp_path: Path) -> None:
    games = zrec("convert", str(SAMPLES / "mosona-open.zrec"), "--to", "json")
    (tmp_path / "games.json").write_bytes(games)
    done = subprocess.run(
        [sys.executable, "-m", "zrec", "validate", "games.json", "--format", "json"],
        cwd=tmp_path, capture_output=True,
    )
    printed = done.stdout
    named = client.post("/api/validate", params={"name": "games.json"}, content=games)
    assert named.content == printed
    assert client.post("/api/validate", content=games).content == printed.replace(
        b'"games.json"', b'"<stdin>"'
    )


def test_errors_are_json_with_stable_codes(client: TestClient) -> None:
    cases = [
        (client.get("/api/games/99999"), 404, "not-found", "there is no game #99999"),
        (client.get("/api/games/x"), 400, "bad-request", None),
        (client.get("/api/games", params={"limit": "0"}), 400, "bad-request", None),
        (client.get("/api/games", params={"game": "chess"}), 400, "bad-search", None),
        (client.get("/api/games", params={"seat": "Hopper"}), 400, "bad-search",
         "seat takes Tag=value, not 'Hopper'"),
        (client.delete("/api/games"), 405, "method-not-allowed",
         "/api/games does not take DELETE"),
        (client.get("/api/nothing"), 404, "not-found", "there is nothing at /api/nothing"),
    ]
    for answer, status, code, message in cases:
        assert answer.status_code == status, answer.text
        assert answer.headers["content-type"] == "application/json"
        error = answer.json()["error"]
        assert error["code"] == code
        assert message is None or error["message"] == message
        assert "Traceback" not in answer.text
    assert "limit" in client.get("/api/games", params={"limit": "0"}).json()["error"]["message"]


def test_a_body_over_the_limit_is_refused_before_it_is_read(db: str) -> None:
    app = create_app(db, max_body=1000)
    with TestClient(app) as small:
        ok = small.post("/api/validate", content=b'[Game "mosona"]\n1. b6-b5 *\n')
        assert ok.status_code == 200
        declared = small.post("/api/validate", content=b"x" * 1001)
        assert declared.status_code == 413
        assert declared.json()["error"]["code"] == "too-large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            for _ in range(10):
                yield b"y" * 200

        streamed = small.post("/api/validate", content=chunks())
        assert streamed.status_code == 413
        assert streamed.json()["error"] == {
            "code": "too-large", "message": "the request body is larger than 1000 bytes"
        }


def test_a_failure_is_a_json_error_without_traceback(db: str) -> None:
    app: FastAPI = create_app(db)

    @app.get("/api/boom")
    def boom() -> None:
        raise RuntimeError("secret detail")

    with TestClient(app, raise_server_exceptions=False) as failing:
        answer = failing.get("/api/boom")
    assert answer.status_code == 500
    assert answer.json() == {
        "error": {"code": "internal-error",
                  "message": "the server failed to answer (its log says why)"}
    }
    assert "secret detail" not in answer.text


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/games/99999", "/static/zrec-replay.js"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def test_openapi_describes_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{gid}", "/api/events/{name}/standings",
            "/api/validate", "/api/health"} <= set(paths)
    names = {p["name"] for p in paths["/api/games"]["get"]["parameters"]}
    assert {"player", "event", "moves", "position", "date-from", "position-after",
            "limit", "offset", "O"} <= names
    assert not any(p.startswith(("/games", "/events", "/static")) for p in paths)


def test_pages_answer_and_escape_names(client: TestClient) -> None:
    for path in ("/", "/search?player=ada", "/games/11", f"/events/{EVENT}",
                 "/players/Lovelace, Ada", "/events/Odd names"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "<script>alert" not in answer.text, path
    odd = client.get("/events/Odd names").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in odd
    search = client.get("/search", params={"player": "ada lovelace"}).text
    assert "games 1–4 of 4" in search
    for path in ("/games/99999", "/events/Nowhere", "/players/Nobody At All"):
        missing = client.get(path)
        assert missing.status_code == 404 and missing.headers["content-type"].startswith(
            "text/html"
        )
        assert "404: not-found" in missing.text


def test_nothing_is_cached_between_requests(client: TestClient, db: str, tmp_path: Path) -> None:
    """A game imported while the server runs is there at the next request."""
    before = int(client.get("/api/games", params={"limit": "1"}).headers["x-total-count"])
    extra = tmp_path / "extra.zrec"
    extra.write_text('[Game "mosona"]\n[Event "Later"]\n\n1. a4-b5 *\n', encoding="utf-8")
    zrec("archive", "import", "--db", db, "-q", str(extra))
    after = client.get("/api/games", params={"limit": "1"}).headers["x-total-count"]
    assert int(after) == before + 1
    assert client.get("/api/games", params={"event": "Later"}).json()[0]["tags"]["Event"] == (
        "Later"
    )


def test_serve_refuses_what_it_cannot_serve(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "zrec", "serve", *args], capture_output=True, text=True,
            cwd=tmp_path, timeout=60,
        )

    missing = run("--db", "nope.sqlite")
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr == (
        "zrec: there is no archive at nope.sqlite (zrec archive import makes one; --db or "
        "ZREC_DB names another)\n"
    )
    zrec("archive", "import", "--db", str(tmp_path / "a.sqlite"), "-q",
         str(SAMPLES / "culin-opening.zrec"))
    workers = run("--db", "a.sqlite", "--workers", "2")
    assert workers.returncode == 2
    assert "--workers above 1 needs a PostgreSQL archive" in workers.stderr
    secret = run("--db", "postgresql://zrec:hunter2@127.0.0.1:1/games")
    assert secret.returncode == 2 and "hunter2" not in secret.stderr + secret.stdout
    assert secret.stderr.startswith("zrec: cannot connect to postgresql://zrec@127.0.0.1:1/games")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = run("--db", "a.sqlite", "--port", str(port))
    assert busy.returncode == 2
    assert busy.stderr == f"zrec: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_workers_share_a_postgresql_archive_and_hide_its_password(tmp_path: Path) -> None:
    """``--workers 2`` over PostgreSQL: both processes answer from the one database, and
    neither the command nor the server's log shows the URL's password."""
    for url in _pg_database():
        zrec("archive", "import", "--db", url, "-q", str(SAMPLES / "tournament.zrec"))
        parts = urlsplit(url)
        secret = parts._replace(
            netloc=f"{parts.username}:hunter2-secret@{parts.hostname}:{parts.port}"
        ).geturl()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        log = tmp_path / "serve.log"
        with open(log, "wb") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "zrec", "serve", "--db", secret, "--workers", "2",
                 "--port", str(port)],
                stdout=out, stderr=subprocess.STDOUT,
            )
            try:
                answers: list[bytes] = []
                for _ in range(300):
                    try:
                        with urllib.request.urlopen(
                            f"http://127.0.0.1:{port}/api/games?event=Zuni%20Club%20"
                            "Championship%202026", timeout=5,
                        ) as answer:
                            answers.append(answer.read())
                        if len(answers) == 6:
                            break
                    except OSError:
                        time.sleep(0.1)
                printed = zrec("archive", "search", "--db", url, "--format", "json",
                               "--event", "Zuni Club Championship 2026")
                assert answers == [printed] * 6
            finally:
                server.terminate()
                server.wait(timeout=30)
        text = log.read_text(encoding="utf-8")
        assert "hunter2" not in text
        assert f"zrec: serving {parts.scheme}://{parts.username}@" in text
        assert text.count("Started server process") == 2


def test_a_game_kept_invalid_has_a_page_that_says_why(tmp_path: Path) -> None:
    target = str(tmp_path / "invalid.sqlite")
    zrec("archive", "import", "--db", target, "--keep-invalid", "-q",
         str(SAMPLES / "invalid" / "illegal-move.zrec"), code=1)
    with TestClient(create_app(target)) as client:
        page = client.get("/games/1")
        assert page.status_code == 200
        assert "This game cannot be replayed: " in page.text
        assert "c5-b6 is illegal: a capture is compulsory here" in page.text
        assert '<pre class="record">[Game &#34;mosona&#34;]' in page.text
        assert client.get("/api/games/1").json()["moves"][1]["move"] == "c5-b6"


def test_a_body_that_stops_coming_is_given_up() -> None:
    """A client that sends part of a body and then nothing gets 408 after the pause the
    guard allows (here 0.2 s), and the application is not left waiting."""
    import asyncio

    from zrec.serve.app import Guard

    async def reader(scope: dict[str, object], receive: object, send: object) -> None:
        while True:
            message = await receive()  # type: ignore[operator]
            if not message.get("more_body"):
                return

    sent: list[dict[str, object]] = []

    async def run() -> None:
        parts = [{"type": "http.request", "body": b"[Game", "more_body": True}]

        async def receive() -> dict[str, object]:
            if parts:
                return parts.pop()
            await asyncio.sleep(3600)
            raise AssertionError("never")

        async def send(message: dict[str, object]) -> None:
            sent.append(message)

        scope = {"type": "http", "headers": [(b"transfer-encoding", b"chunked")]}
        await asyncio.wait_for(Guard(reader, timeout=0.2)(scope, receive, send), 5)

    asyncio.run(run())
    assert sent[0]["status"] == 408
    assert json.loads(sent[1]["body"]) == {  # type: ignore[arg-type]
        "error": {"code": "too-slow", "message": "the request body paused for more than 0.2 s"}
    }


def test_a_game_page_names_its_files_without_the_servers_folders(
    client: TestClient, db: str
) -> None:
    from zrec.archive import Archive

    shown = client.get("/games/1").text
    with Archive.open(db, read_only=True) as archive:
        (path, _, _), *_ = archive.sources_of(1)
    assert str(path).startswith(str(ROOT))  # the archive keeps the path as given
    assert str(ROOT) not in shown
    name = next(f.name for f in FILES if f"{f.name}, game 1, line" in shown)
    assert name.endswith(".zrec")


def test_a_worker_keeps_its_connections(client: TestClient, db: str) -> None:
    """A worker reuses its read-only connections (one here, the requests coming one
    after another), on SQLite as on PostgreSQL; a connection that was closed is
    dropped, not used; a game added meanwhile is seen at the next request."""
    from zrec.serve.opening import _IDLE

    for _ in range(5):
        assert client.get("/api/games", params={"limit": "1"}).status_code == 200
    (kept,) = _IDLE[db]
    kept.db.conn.close()
    assert client.get("/api/games", params={"limit": "1"}).status_code == 200
    (again,) = _IDLE[db]
    assert again is not kept
    assert again.db.value("SELECT 1") == 1
