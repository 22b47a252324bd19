"""The connections of a real ``zrec serve`` (:mod:`zrec.serve.connections`): idle and
slow clients are closed on time and do not turn visitors away, a body taking too long
is answered 408, a client leaving mid-body leaves one line in the log, and SIGTERM
stops a busy server within 10 s."""

from __future__ import annotations

import contextlib
import json
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from zrec.serve.app import Guard
from zrec.serve.connections import HEAD_TIMEOUT, IDLE_TIMEOUT, Protocol, server_options

ROOT = Path(__file__).resolve().parents[1]
ZREC = [sys.executable, "-m", "zrec"]
SAMPLES = sorted((ROOT / "samples").glob("*.zrec"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    def __init__(self, db: str, log: Path, *more: str) -> None:
        self.port = free_port()
        self.log = log
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [*ZREC, "serve", "--db", db, "--port", str(self.port), *more],
            stdout=subprocess.DEVNULL, stderr=log.open("wb"))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, log.read_text()
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        raise AssertionError("zrec serve did not answer within 60 s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("conn") / "conn.sqlite")
    subprocess.run([*ZREC, "archive", "import", "-q", "--db", path, *map(str, SAMPLES)],
                   check=True, timeout=120)
    return path


@pytest.fixture
def served(db: str, tmp_path: Path) -> Iterator[Served]:
    server = Served(db, tmp_path / "server.log")
    yield server
    server.stop()


def closed_at(sock: socket.socket, started: float, limit: float) -> tuple[float, bytes]:
    """When the server closed ``sock`` (seconds after ``started``) and what it sent."""
    got = b""
    while time.monotonic() - started < limit:
        ready, _, _ = select.select([sock], [], [], 0.1)
        if ready:
            try:
                data = sock.recv(4096)
            except ConnectionResetError:
                data = b""
            if not data:
                return time.monotonic() - started, got
            got += data
    return float("inf"), got


def test_idle_connections_do_not_turn_visitors_away(served: Served) -> None:
    """520 idle connections: a visitor's page is still 200 (uvicorn counted them
    against its limit of 500 and answered 503), and they are closed after 5 s."""
    started = time.monotonic()
    idle = [socket.create_connection(("127.0.0.1", served.port)) for _ in range(520)]
    try:
        time.sleep(0.5)
        answers = [httpx.get(served.base + "/games/1", timeout=10).status_code
                   for _ in range(3)]
        assert answers == [200, 200, 200]
        first, sent = closed_at(idle[0], started, IDLE_TIMEOUT + 5)
        assert IDLE_TIMEOUT - 0.5 <= first <= IDLE_TIMEOUT + 2.5 and sent == b""
        last, _ = closed_at(idle[-1], started, IDLE_TIMEOUT + 3.5)
        assert last <= IDLE_TIMEOUT + 3.5
    finally:
        for sock in idle:
            sock.close()


def test_a_head_sent_a_byte_at_a_time_is_given_up_after_10_s(served: Served) -> None:
    """A slow client sending a header line every second, and one sending a request
    after an answer on the same connection, slowly: 408 and closed 10 s after the
    connection was made (or the answer sent)."""
    slow = socket.create_connection(("127.0.0.1", served.port))
    started = time.monotonic()
    slow.sendall(b"GET /games/1 HTTP/1.1\r\nHost: x\r\n")
    got = b""
    try:
        while time.monotonic() - started < HEAD_TIMEOUT + 5:
            try:
                slow.sendall(b"X-Slow: a\r\n")
            except OSError:
                break
            ready, _, _ = select.select([slow], [], [], 1.0)
            if ready:
                when, got = closed_at(slow, started, HEAD_TIMEOUT + 5)
                break
        else:
            when = float("inf")
        assert HEAD_TIMEOUT - 0.5 <= when <= HEAD_TIMEOUT + 2.5
        assert got.startswith(b"HTTP/1.1 408 ")
        assert got.endswith(b"the request line and headers took more than 10 s")
    finally:
        slow.close()


def _run_uvicorn(app: Any, protocol: type[Protocol]) -> tuple[uvicorn.Server, int]:
    port = free_port()
    options = {**server_options(), "http": protocol}
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning", **options))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, port


async def _read_all(scope: Any, receive: Any, send: Any) -> None:
    """An application that reads the whole body, then answers its length."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


async def _read_none(scope: Any, receive: Any, send: Any) -> None:
    """An application that answers without reading the body."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


class _Quick(Protocol):
    body_deadline = 1.5


def _trickle(port: int, every: float, limit: float) -> tuple[float, bytes]:
    sock = socket.create_connection(("127.0.0.1", port))
    started = time.monotonic()
    sock.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
    got = b""
    try:
        while time.monotonic() - started < limit:
            try:
                sock.sendall(b"a")
            except OSError:
                break
            ready, _, _ = select.select([sock], [], [], every)
            if ready:
                return closed_at(sock, started, limit)
        return float("inf"), got
    finally:
        sock.close()


def test_a_body_trickled_is_given_up_at_its_deadline_not_only_at_a_pause() -> None:
    """A byte every 0.5 s (pauses shorter than the 1 s allowed): 408 when the whole
    body has taken 1.5 s; and when the application answers without reading it, the
    connection is closed a second after that."""
    server, port = _run_uvicorn(Guard(_read_all, timeout=1.0, deadline=1.5), _Quick)
    try:
        when, got = _trickle(port, 0.5, 10)
        assert 1.4 <= when <= 3.0, (when, got)
        assert got.startswith(b"HTTP/1.1 408 ")
        assert json.loads(got.split(b"\r\n\r\n", 1)[1]) == {"error": {
            "code": "too-slow", "message": "the request body took more than 1.5 s"}}
    finally:
        server.should_exit = True
    server, port = _run_uvicorn(_read_none, _Quick)
    try:
        when, got = _trickle(port, 0.5, 10)
        assert 2.4 <= when <= 4.0, (when, got)
        assert got.startswith(b"HTTP/1.1 200 ")
    finally:
        server.should_exit = True


def test_a_body_cut_short_logs_one_line_and_no_traceback(served: Served) -> None:
    """A body shorter than its Content-Length, then the connection closed: one line in
    the server's log, no traceback (there were two a request)."""
    for path in ("/api/validate", "/api/position"):
        with socket.create_connection(("127.0.0.1", served.port)) as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                         "Content-Length: 1000\r\n\r\n[Game ".encode())
            time.sleep(0.3)
    time.sleep(1.0)
    assert httpx.get(served.base + "/api/health").status_code == 200
    log = served.log.read_text()
    assert "Traceback" not in log and "Exception" not in log
    assert re.findall(r".*the client left.*", log) == [
        "POST /api/validate: the client left before its whole body came",
        "POST /api/position: the client left before its whole body came",
    ]


@pytest.fixture(scope="module")
def busy_db(db: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """An archive with 200 random Awéthi games, and a long move list of its own
    sample game (a tree of it replays every Awéthi game: ~0.5 s of CPU)."""
    folder = tmp_path_factory.mktemp("busy")
    games = folder / "awethi.zrec"
    subprocess.run([*ZREC, "random", "--game", "awethi", "--count", "200", "--seed", "7",
                    "-o", str(games)], check=True, timeout=300)
    path = str(folder / "busy.sqlite")
    subprocess.run([*ZREC, "archive", "import", "-q", "--db", path, str(games),
                    *map(str, SAMPLES)], check=True, timeout=300)
    body = (ROOT / "samples" / "awethi.zrec").read_text(encoding="utf-8").split("\n\n", 1)[1]
    moves = " ".join(re.sub(r"\{[^}]*\}", "", body).split())
    return path, re.sub(r"\s*(0-0-1|1-0-0|0-1-0|\*)\s*$", "", moves)


def _hammer(base: str, moves: str, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            httpx.get(base + "/api/tree", params={"game": "awethi", "moves": moves},
                      timeout=60)
        except httpx.HTTPError:
            return


def _stops_in_time(server: Served, moves: str) -> None:
    stop = threading.Event()
    clients = [threading.Thread(target=_hammer, args=(server.base, moves, stop), daemon=True)
               for _ in range(60)]
    for client in clients:
        client.start()
    try:
        time.sleep(3)
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.process.wait(timeout=30)
        took = time.monotonic() - started
        assert took <= 10, (took, server.log.read_text()[-2000:])
    finally:
        stop.set()
        server.stop()


def test_sigterm_stops_a_busy_server_within_10_s(busy_db: tuple[str, str],
                                                 tmp_path: Path) -> None:
    path, moves = busy_db
    _stops_in_time(Served(path, tmp_path / "server.log"), moves)


def test_sigterm_stops_busy_workers_within_10_s(busy_db: tuple[str, str], pg_url: str,
                                                tmp_path: Path) -> None:
    """The same with ``--workers 2`` over PostgreSQL."""
    _, moves = busy_db
    games = tmp_path / "awethi.zrec"
    subprocess.run([*ZREC, "random", "--game", "awethi", "--count", "200", "--seed", "7",
                    "-o", str(games)], check=True, timeout=300)
    subprocess.run([*ZREC, "archive", "import", "-q", "--db", pg_url, str(games),
                    *map(str, SAMPLES)], check=True, timeout=300)
    _stops_in_time(Served(pg_url, tmp_path / "server.log", "--workers", "2"), moves)
