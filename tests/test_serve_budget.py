"""The budgets of the server's expensive work (:mod:`zrec.serve.work`), against a real
server: the application served by uvicorn on a local port (in a thread of the test, so
that the test can give it a pool of its own size and read the pool's counts), its
workers real processes.

A full queue is answered 503 with ``Retry-After``, one client over its limit 429 with
``Retry-After`` (another address is not held back), work over its budget is stopped
and refused in words, a record too long for the board is refused in words, a request
abandoned by its client frees its worker at once, ``POST /api/reply``'s gate answers
``busy`` before the body is read, and a game page and ``/api/health`` answer quickly
while the pool is full."""

from __future__ import annotations

import contextlib
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from serving import free_port
from zrec.serve import board_player, create_app
from zrec.serve.board_records import MAX_MOVES
from zrec.serve.work import RETRY_AFTER, Pool

ROOT = Path(__file__).resolve().parents[1]
#: about 2 MB of valid Awéthi records: a few seconds of validating
HEAVY = ((ROOT / "samples" / "awethi.zrec").read_bytes() + b"\n") * 640
LIGHT = b'[Game "mosona"]\n[Result "*"]\n\n1. b6-b5 *\n'


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("budget") / "a.sqlite"
    subprocess.run([sys.executable, "-m", "zrec", "archive", "import", "-q", "--db",
                    str(path), str(ROOT / "samples" / "mosona-lined.zrec")], check=True)
    return str(path)


@contextlib.contextmanager
def served(app: FastAPI) -> Iterator[str]:
    """``app`` served by uvicorn on a free local port; its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


def app_with(db: str, **pool: float) -> FastAPI:
    app = create_app(db)
    app.state.work = Pool(**pool)  # type: ignore[arg-type]
    return app


def post(url: str, body: bytes, path: str = "/api/validate", **client: object) -> httpx.Response:
    with httpx.Client(timeout=60, **client) as http:  # type: ignore[arg-type]
        return http.post(url + path, content=body)


def warm(url: str) -> None:
    """The pool's workers started (they start with the first request needing one; the
    first work of a worker may run past a short budget, reading its grammar)."""
    assert 200 in [post(url, LIGHT).status_code for _ in range(3)]


def test_a_full_queue_is_answered_503_with_retry_after(db: str) -> None:
    app = app_with(db, workers=1, queue=1, per_client=10, wait=60, seconds=60)
    with served(app) as url, ThreadPoolExecutor(4) as threads:
        warm(url)
        held = [threads.submit(post, url, HEAVY) for _ in range(2)]  # one runs, one waits
        time.sleep(1.0)
        started = time.monotonic()
        third = post(url, LIGHT)
        assert time.monotonic() - started < 2.0  # (answered after REFUSE_DELAY)
        assert third.status_code == 503
        assert third.headers["retry-after"] == str(RETRY_AFTER)
        assert third.json() == {"error": {"code": "busy", "message": (
            "the server is busy: 1 requests of expensive work run and 1 wait already; "
            "ask again in a moment")}}
        assert [f.result().status_code for f in held] == [200, 200]


def test_one_client_over_its_limit_is_answered_429(db: str) -> None:
    app = app_with(db, workers=2, queue=4, per_client=1, seconds=60)
    with served(app) as url, ThreadPoolExecutor(4) as threads:
        warm(url)
        first = threads.submit(post, url, HEAVY)
        time.sleep(1.0)
        second = post(url, LIGHT)
        assert second.status_code == 429
        assert second.headers["retry-after"] == str(RETRY_AFTER)
        assert second.json() == {"error": {"code": "too-many-requests", "message": (
            "1 requests of expensive work from this client are already under way: ask "
            "again when they are answered")}}
        # another address (127.0.0.2 is loopback too) is another client
        other = post(url, LIGHT, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        assert other.status_code == 200
        assert first.result().status_code == 200
        assert post(url, LIGHT).status_code == 200  # (the first answered: free again)


def test_work_past_its_budget_is_stopped_and_refused_in_words(db: str) -> None:
    app = app_with(db, workers=1, seconds=1.0, grace=2.0)
    with served(app) as url:
        warm(url)
        before = app.state.work.counts["stopped"]
        started = time.monotonic()
        answer = post(url, HEAVY)
        took = time.monotonic() - started
    assert answer.status_code == 422
    assert answer.json() == {"error": {"code": "over-budget", "message": (
        "the work of this request ran past its budget of 1 s and was stopped: send a "
        "smaller request")}}
    assert took < 2.5  # (stopped at its budget, not killed after the grace: 3 s)
    assert app.state.work.counts["stopped"] == before + 1


def test_a_record_too_long_for_the_board_is_refused_in_words(db: str) -> None:
    variations = " ".join(["(1. a5-b5)"] * MAX_MOVES)
    record = f'[Game "mosona"]\n[Result "*"]\n\n1. b6-b5 {variations} *\n'.encode()
    with served(create_app(db)) as url:
        answer = post(url, record, "/api/position")
    assert answer.status_code == 422
    assert answer.json() == {"error": {"code": "record-too-long", "message": (
        f"the record has {MAX_MOVES + 1} moves (variations included): the board takes "
        f"at most {MAX_MOVES}")}}


def test_work_abandoned_by_its_client_is_stopped(db: str) -> None:
    app = app_with(db, workers=1, queue=4, seconds=60)
    with served(app) as url:
        warm(url)
        before = app.state.work.counts["dropped"]
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.sendall(b"POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + str(len(HEAVY)).encode() + b"\r\n\r\n" + HEAVY)
            time.sleep(1.0)  # (the work under way)
        started = time.monotonic()
        answer = post(url, LIGHT)  # (the one worker: free once the work stopped)
        took = time.monotonic() - started
    assert answer.status_code == 200
    assert took < 1.5
    assert app.state.work.counts["dropped"] == before + 1


def test_the_reply_gate_answers_busy_before_the_body_is_read(db: str) -> None:
    held = [board_player._searching.acquire(blocking=False)
            for _ in range(board_player.AT_ONCE)]
    try:
        assert held == [True] * board_player.AT_ONCE
        with served(create_app(db)) as url:
            port = int(url.rsplit(":", 1)[1])
            with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
                # a body of 2 MB announced, never sent: the answer comes all the same
                raw.sendall(b"POST /api/reply HTTP/1.1\r\nHost: x\r\nContent-Type: "
                            b"application/json\r\nContent-Length: 2000000\r\n\r\n{")
                answer = ""
                while not answer.endswith("}}"):
                    answer += raw.recv(65536).decode()
    finally:
        for _ in held:
            board_player._searching.release()
    assert answer.startswith("HTTP/1.1 503 ")
    assert f"retry-after: {RETRY_AFTER}\r\n" in answer.lower()
    assert answer.endswith('{"error":{"code":"busy","message":"the server is already '
                           'searching 2 moves for other requests: ask again in a moment"}}')


def test_cheap_pages_answer_quickly_while_the_pool_is_full(db: str) -> None:
    app = app_with(db, workers=2, queue=8, per_client=10)
    with served(app) as url, ThreadPoolExecutor(8) as threads:
        warm(url)
        with httpx.Client(timeout=30) as http:
            assert http.get(url + "/games/1").status_code == 200  # (its page made once)
            heavy: list[Future[httpx.Response]] = [
                threads.submit(post, url, HEAVY) for _ in range(6)]
            time.sleep(1.0)
            took = []
            for path in ["/games/1", "/api/health"] * 10:
                started = time.monotonic()
                assert http.get(url + path).status_code == 200
                took.append(time.monotonic() - started)
            assert not all(f.done() for f in heavy)  # (the pool was full all along)
        # (each validated, or refused: the queue full, or its budget spent waiting)
        assert {f.result().status_code for f in heavy} <= {200, 422, 503}
    assert statistics.median(took) < 0.1, took
    assert max(took) < 1.0, took


class _Raised:
    value = 1


def test_a_replay_checks_its_budget_at_every_move() -> None:
    """The budget the pool arms (zrec.budget) stops a replay at its next move: spent
    by time, or by its flag (the client gone); with none armed, the replay runs."""
    from zrec.budget import Stopped, limited
    from zrec.notation.reader import read_game
    from zrec.play import positions, prepare

    game = read_game(LIGHT.decode(), "light.zrec")
    assert len(positions(prepare(game), game.line)) == 1
    with limited(-1.0), pytest.raises(Stopped) as spent:
        positions(prepare(game), game.line)
    assert spent.value.reason == "time"
    with limited(60.0, _Raised()), pytest.raises(Stopped) as cancelled:
        positions(prepare(game), game.line)
    assert cancelled.value.reason == "cancelled"
    assert len(positions(prepare(game), game.line)) == 1


def test_a_query_of_the_pool_is_stopped_by_its_budget(db_url: str) -> None:
    """A query that runs past the work's budget is stopped by the database itself
    (SQLite: the progress handler; PostgreSQL: ``statement_timeout``), not left
    running after its answer was given up."""
    from zrec.archive import Archive
    from zrec.archive.store.db import ArchiveError
    from zrec.budget import limited
    from zrec.serve.work import opened

    Archive.open(db_url, create=True).close()  # (an empty archive)
    slow = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
            "SELECT count(*) FROM (SELECT i FROM n LIMIT 100000000) AS m")
    started = time.monotonic()
    with limited(0.5) as budget, opened(db_url) as archive, pytest.raises(ArchiveError):
        archive.db.rows(slow)
    assert budget.spent() == "time"
    assert time.monotonic() - started < 3
