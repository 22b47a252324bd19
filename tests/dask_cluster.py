"""A Dask cluster on this machine for the tests of ``--cluster`` (``zrec study``,
``zrec readings --fit``), started with Dask's own commands (``dask scheduler`` and
``dask worker``, run as ``python -m`` of the same Python) on free ports: a scheduler,
and workers that :func:`two_workers` (the fixture of conftest.py) or a test starts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEDULER = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]


def start(
    command: list[str], log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a process this test started, and the worker processes it started itself."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def scheduler(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """A scheduler on a free port of 127.0.0.1, and its address once it listens."""
    file = folder / "scheduler.json"
    process = start(
        [*SCHEDULER, "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(file)],
        folder / "scheduler.log",
    )  # fmt: skip
    for _ in range(300):
        if file.exists() and file.stat().st_size:
            address: str = json.loads(file.read_text())["address"]
            return address, process
        assert process.poll() is None, (folder / "scheduler.log").read_text()
        time.sleep(0.1)
    stop(process)
    raise AssertionError("the scheduler did not start within 30 s")


def wait_for_workers(address: str, count: int) -> None:
    from distributed import Client

    client: Any = Client(address, timeout=30, set_as_default=False)  # type: ignore[no-untyped-call]
    try:
        client.wait_for_workers(count, timeout=60)
    finally:
        client.close()


@contextmanager
def two_workers(folder: Path) -> Iterator[str]:
    """The address of a scheduler with two worker processes of one thread each, stopped
    at the end."""
    address, boss = scheduler(folder)
    workers = start(
        [*WORKER, address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
        folder / "workers.log",
    )
    try:
        wait_for_workers(address, 2)
        yield address
    finally:
        stop(workers)
        stop(boss)
