"""A game page of ``zrec serve`` while many connections are held idle or sent slowly.

Starts a real server (``zrec serve``, a subprocess, loopback only) over an archive of
the samples, then, for each scenario, holds ``--connections`` connections open from this
process (asyncio) while one visitor asks for the longest game's page (``/games/ID``)
over and over, each time on a new connection, for ``--seconds`` seconds:

* ``rest``: nothing else;
* ``idle``: connections that send nothing (each one the server closes is opened
  again at once, so that ``--connections`` are always held);
* ``slowloris``: connections that send a request line, then a header byte every
  ``--every`` seconds (4: under any per-pause limit), opened again when closed;
* ``both``: ``--connections`` of each.

It prints, per scenario, the visitor's requests, their p50 and p99 latency (ms), the
answers by status (a 503 is a visitor turned away) and the connections the server
closed (with how long each had been held, p50 and max, in s).  ``--json`` prints the
same as JSON.  Every count and time is bounded: ``--connections`` at most 2,000,
``--seconds`` at most 120.

Usage::

    python benchmarks/serve_slow_clients.py [--connections 500] [--seconds 20]
        [--every 4] [--scenarios rest,idle,slowloris,both] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from serve_load import percentile, prepare, start_server  # noqa: E402

SCENARIOS = ("rest", "idle", "slowloris", "both")


class Holder:
    """``count`` connections held open, each opened again when the server closes it;
    ``slow``: each sends a request line, then a header byte every ``every`` s."""

    def __init__(self, port: int, count: int, slow: bool, every: float) -> None:
        self.port, self.count, self.slow, self.every = port, count, slow, every
        self.held: list[float] = []  # seconds each closed connection was held
        self.failed = 0  # connections that could not be opened
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self.tasks = [asyncio.create_task(self._hold()) for _ in range(self.count)]
        await asyncio.sleep(1.0)  # (all opened before the visitor starts)

    async def _hold(self) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                self.failed += 1
                await asyncio.sleep(0.5)
                continue
            opened = time.monotonic()
            try:
                if self.slow:
                    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                while True:
                    if self.slow:
                        writer.write(b"X")
                    try:
                        if not await asyncio.wait_for(reader.read(4096), self.every):
                            break  # closed by the server (after its 408, if any)
                    except asyncio.TimeoutError:
                        continue
            except OSError:
                pass
            finally:
                writer.close()
            self.held.append(time.monotonic() - opened)  # (not when cancelled at the end)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def visit(port: int, path: str, seconds: float) -> tuple[list[float], Counter[str]]:
    """The visitor: ``GET path`` on a new connection each time, for ``seconds``."""
    times: list[float] = []
    answers: Counter[str] = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), 10)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         "Connection: close\r\n\r\n".encode())
            data = await asyncio.wait_for(reader.read(), 30)
            writer.close()
            answers[data.split(b" ", 2)[1].decode() if data else "closed"] += 1
        except (OSError, asyncio.TimeoutError) as exc:
            answers[type(exc).__name__] += 1
        times.append((time.monotonic() - started) * 1000)
    return times, answers


async def scenario(name: str, port: int, path: str, args: argparse.Namespace
                   ) -> dict[str, Any]:
    holders = []
    if name in ("idle", "both"):
        holders.append(Holder(port, args.connections, False, args.every))
    if name in ("slowloris", "both"):
        holders.append(Holder(port, args.connections, True, args.every))
    for holder in holders:
        await holder.start()
    times, answers = await visit(port, path, args.seconds)
    for holder in holders:
        await holder.stop()
    held = [t for holder in holders for t in holder.held]
    return {
        "scenario": name,
        "held_connections": sum(h.count for h in holders),
        "requests": len(times),
        "p50_ms": round(percentile(times, 0.50), 1),
        "p99_ms": round(percentile(times, 0.99), 1),
        "answers": dict(answers),
        "closed_by_server": len(held),
        "held_p50_s": round(statistics.median(held), 1) if held else None,
        "held_max_s": round(max(held), 1) if held else None,
        "open_failures": sum(h.failed for h in holders),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--every", type=float, default=4.0)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.connections <= 2000 or not 1 <= args.seconds <= 120:
        parser.error("--connections: 1 to 2000; --seconds: 1 to 120")
    chosen = args.scenarios.split(",")
    if not set(chosen) <= set(SCENARIOS):
        parser.error(f"--scenarios: some of {','.join(SCENARIOS)}")
    folder = Path(tempfile.mkdtemp(prefix="zrec-slow-"))
    db = prepare(None, folder)
    server, base = start_server(db, 1, folder / "server.log")
    try:
        found = httpx.get(base + "/api/games", params={"limit": 1000}).json()
        path = f"/games/{max(found, key=lambda g: g['plies'])['id']}"
        port = int(base.rsplit(":", 1)[1])
        results = [asyncio.run(scenario(name, port, path, args)) for name in chosen]
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
    if args.json:
        print(json.dumps({"page": path, "scenarios": results}, indent=2))
        return
    print(f"{path}, one visitor, a new connection a request, {args.seconds:g} s a scenario")
    print("| scenario | held | requests | p50 ms | p99 ms | answers | closed by server "
          "(held p50 / max s) |")
    print("|---|---:|---:|---:|---:|---|---|")
    for r in results:
        answers = ", ".join(f"{k}: {v}" for k, v in sorted(r["answers"].items()))
        closed = (f"{r['closed_by_server']} ({r['held_p50_s']} / {r['held_max_s']})"
                  if r["closed_by_server"] else "0")
        print(f"| {r['scenario']} | {r['held_connections']} | {r['requests']} | "
              f"{r['p50_ms']} | {r['p99_ms']} | {answers} | {closed} |")


if __name__ == "__main__":
    main()
