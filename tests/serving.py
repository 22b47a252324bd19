"""A real ``zrec serve`` for the browser tests: started on a free local port over an
archive, waited for until ``/api/health`` answers, and stopped after."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def served(folder: Path, db: str) -> Iterator[str]:
    """``zrec serve --db DB`` run in ``folder`` (its log in ``folder/server.log``); the
    base URL while it serves."""
    port = free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "zrec", "serve", "--db", db, "--port", str(port)],
        cwd=folder, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                with urllib.request.urlopen(url + "/api/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError((folder / "server.log").read_text())
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
