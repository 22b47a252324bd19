"""Live play across server processes on PostgreSQL (``ZREC_TEST_PG``): a move made
through one process reaches the streams of another (LISTEN/NOTIFY, no broker), and a
process killed mid-game loses nothing: its players reconnect to another, with
``Last-Event-ID``, and finish the game, which is in the archive."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serving import free_port
from test_live_api import NEW, bearer, make_users, read_events
from test_live_archive import CHAIN_GAME
from zrec.archive import Archive


def start(folder: Path, db: str, workers: int = 1) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = open(folder / f"server-{port}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "zrec", "serve", "--db", db, "--port", str(port),
         "--workers", str(workers)], cwd=folder, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=2) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.1)
    raise AssertionError((folder / f"server-{port}.log").read_text())


@pytest.fixture
def two_servers(pg_url: str, tmp_path: Path) -> Iterator[tuple[str, list[Any], dict[str, str]]]:
    tokens = make_users(pg_url)
    started = [start(tmp_path, pg_url), start(tmp_path, pg_url, workers=2)]
    try:
        yield pg_url, started, tokens
    finally:
        for process, _ in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)


def post(url: str, path: str, body: dict[str, Any], token: str) -> Any:
    request = urllib.request.Request(url + path, json.dumps(body).encode(), {
        "Content-Type": "application/json", **bearer(token)})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


def test_a_move_through_one_process_reaches_the_streams_of_another_and_a_killed_one_loses_nothing(
        two_servers: tuple[str, list[Any], dict[str, str]]) -> None:
    db, ((first, one), (_, two)), tokens = two_servers
    gid = post(one, "/api/live", NEW, tokens["Ada"])["id"]
    post(two, f"/api/live/{gid}/seat", {"seat": "Black"}, tokens["Bob"])  # (kept for Bob)
    found: list[tuple[float, str, str, dict[str, Any]]] = []
    # a spectator on the second server: the first state, then a move and a state a ply
    watcher = threading.Thread(target=read_events,
                               args=(f"{two}/api/live/{gid}/stream", 17, found))
    watcher.start()
    time.sleep(1.0)
    sent: dict[int, float] = {}
    for ply, move in enumerate(CHAIN_GAME[:8], 1):
        # Ada (White) plays through the first server, Bob through the second
        sent[ply] = time.monotonic()
        post(one if ply % 2 else two, f"/api/live/{gid}/move", {"move": move},
             tokens["Ada" if ply % 2 else "Bob"])
        time.sleep(0.25)
    watcher.join(20)
    seen = {int(ident): at for at, kind, ident, _ in found if kind == "move"}
    assert sorted(seen) == list(range(1, 9))
    late = {ply: round(seen[ply] - sent[ply], 3) for ply in seen}
    assert all(delay < 1.0 for delay in late.values()), late

    os.killpg(first.pid, signal.SIGKILL)  # the first server dies mid-game
    first.wait(timeout=10)
    again: list[tuple[float, str, str, dict[str, Any]]] = []
    read_events(f"{two}/api/live/{gid}/stream", 2, again, last="6")
    assert [(kind, ident, data["move"]) for _, kind, ident, data in again] == [
        ("move", "7", CHAIN_GAME[6]), ("move", "8", CHAIN_GAME[7])]
    for ply, move in enumerate(CHAIN_GAME[8:], 9):  # both go on through the second
        post(two, f"/api/live/{gid}/move", {"move": move},
             tokens["Ada" if ply % 2 else "Bob"])
        time.sleep(0.25)
    with urllib.request.urlopen(f"{two}/api/live/{gid}", timeout=20) as answer:
        over = json.loads(answer.read())
    assert (over["status"], over["result"], over["ply"]) == ("over", "0-1", 16)
    with Archive.open(db, read_only=True) as archive:
        assert archive.game(over["game_id"]).plies == 16
