"""``zrec serve`` under load while an import writes into the same archive.

Starts a real server (``zrec serve``, a subprocess) over an archive of the samples,
then runs ``--clients`` concurrent clients in this process for
``--seconds`` seconds (asyncio, each on its own kept-alive connection, HTTP written by
hand to spend little CPU), each asking in turn for:

* ``game``: a game's page (``/games/ID``);
* ``search-player`` and ``search-moves``: ``/api/games?player=...`` and
  ``/api/games?moves=...``;
* ``explorer``: ``--tree`` (default ``/api/tree?game=mosona&moves=...``), left out with
  a note when the server answers it 404 (no explorer yet);
* ``validate``: ``POST /api/validate`` of a random legal 100-ply Mosona record;
* ``position``: ``POST /api/position`` of the same record (the recording board's state
  at its end, drawn): the same text each time, as the board sends it again for every
  click of a move (the server keeps the last records it checked);
* ``position-new``: the same, each request a record the server has not seen (its
  ``Event`` tag numbered), so checked and replayed from the start every time;

while ``zrec archive import`` of ``--import-file`` (20,000 random Mosona games, built
once by ``archive_bench.py`` into benchmarks/data/) runs into the same archive.  Each
client waits ``--think`` seconds between its requests, on average (drawn at random, as
people click: the clients do not ask in step; 0: a closed loop, every client always
asking, and then a request's latency is about clients / throughput, Little's law).

It prints, per endpoint: requests, requests/s, p50 and p99 latency (ms) and errors by
status (or by exception); the answers and the server's and the import's logs that say
"database is locked"; the CPU time of the server, of the import and of this load
generator (to show it is not the bottleneck).  ``--json`` prints the same as JSON.

Usage::

    python benchmarks/serve_load.py [--clients 50] [--seconds 60] [--think 0]
        [--db PATH|postgresql://...] [--workers N] [--tree ROUTE] [--no-import] [--wait-import]

The import, if still running when the load ends, is stopped (``--wait-import``: waited
for).  ``--db`` names an empty SQLite file to make (default: a new one in a temporary folder)
or an empty PostgreSQL database; ``--workers`` defaults to 1 on SQLite, 2 on PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SAMPLES = [*sorted((ROOT / "samples").glob("*.zrec")),
           *sorted((ROOT / "samples" / "club").glob("*.zrec"))]
ZREC = [sys.executable, "-m", "zrec"]
LOCKED = "database is locked"
#: seconds a connection is left idle before a client opens a new one (as browsers do:
#: ``zrec serve`` closes an idle connection after 5 s)
IDLE = 4.0
DEFAULT_TREE = "/api/tree?game=mosona&moves=1.%20b6-b5%20b4xb6"
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@dataclass
class Stats:
    """What one endpoint answered."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    locked: int = 0


def record_of_plies(plies: int = 100, seed: int = 1) -> str:
    """A random legal Mosona record of exactly ``plies`` plies (the first seed whose
    game lasts that long)."""
    from zrec.notation.writer import write_game
    from zrec.play.selfplay import random_game
    from zrec.rules import find_game

    rules = find_game("mosona")
    for s in range(seed, seed + 1000):
        game = random_game(rules, {"Event": "load"}, random.Random(s), plies)
        if len(game.line.moves) == plies:
            return write_game(game)
    raise SystemExit(f"serve_load.py: no random game of {plies} plies in 1000 seeds")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) of a process and its descendants, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    own: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        own[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += own.get(p, 0.0)
        todo.extend(children.get(p, []))
    return total


def start_server(db: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [*ZREC, "serve", "--db", db, "--port", str(port), "--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"serve_load.py: zrec serve stopped: {log.read_text()}")
        try:
            if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                return server, base
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit("serve_load.py: zrec serve did not answer within 60 s")


def targets(base: str, tree: str) -> tuple[dict[str, tuple[str, str]], list[str]]:
    """The endpoints (name: method and path), and notes on those left out."""
    found = httpx.get(base + "/api/games", params={"limit": 1000}).json()
    longest = max(found, key=lambda g: g["plies"])  # the game page with the most moves
    player = next(p["name"] for g in found for p in g["players"])
    chosen = {
        "game": ("GET", f"/games/{longest['id']}"),
        "search-player": ("GET", "/api/games?" + httpx.QueryParams(player=player).__str__()),
        "search-moves": ("GET", "/api/games?game=mosona&moves=1.%20b6-b5%20b4xb6"),
        "explorer": ("GET", tree),
        "validate": ("POST", "/api/validate"),
        "position": ("POST", "/api/position"),
        "position-new": ("POST", "/api/position"),
    }
    notes = []
    status = httpx.get(base + tree).status_code
    if status == 404:
        del chosen["explorer"]
        notes.append(f"explorer left out: {tree} answers 404 (no such route yet)")
    return chosen, notes


class Connection:
    """One kept-alive HTTP/1.1 connection, written and read by hand: httpx spent ~6 ms
    of CPU a request, more than the server, on the same 2 cores; this spends a tenth."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        if time.monotonic() - self.used > IDLE:  # the server has closed it, or soon will
            self.close()
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if method == "POST":
            head += f"Content-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        try:
            lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = dict(line.lower().split(": ", 1) for line in lines[1:] if line)
            if headers.get("transfer-encoding") == "chunked":
                content = b""
                while size := int((await self.reader.readuntil(b"\r\n"))[:-2], 16):
                    content += (await self.reader.readexactly(size + 2))[:-2]
                await self.reader.readuntil(b"\r\n")
            else:
                content = await self.reader.readexactly(int(headers.get("content-length", 0)))
        except BaseException:
            self.close()
            raise
        if headers.get("connection") == "close":
            self.close()
        self.used = time.monotonic()
        return status, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def client(
    base: str, plan: list[tuple[str, str, str]], body: bytes,
    stats: dict[str, Stats], until: float, think: float, offset: int,
) -> None:
    where = httpx.URL(base)
    connection = Connection(where.host, where.port or 80)
    pause = random.Random(offset)
    if think:  # the clients do not start together, nor ask in step
        await asyncio.sleep(pause.uniform(0, think))
    i = offset
    while time.monotonic() < until:
        name, method, path = plan[i % len(plan)]
        i += 1
        s = stats[name]
        sent = body if method == "POST" else b""
        if name.endswith("-new"):  # a record the server has not seen
            sent = body.replace(b'[Event "load"]', f'[Event "load {offset}.{i}"]'.encode())
        start = time.perf_counter()
        try:
            status, content = await asyncio.wait_for(connection.request(method, path, sent), 60)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError) as exc:
            s.errors[type(exc).__name__] += 1
            connection.close()
            continue
        s.latencies.append(time.perf_counter() - start)
        if status >= 400:
            s.errors[str(status)] += 1
        if LOCKED.encode() in content:
            s.locked += 1
        if think:
            await asyncio.sleep(pause.expovariate(1 / think))
    connection.close()


async def load(base: str, chosen: dict[str, tuple[str, str]], body: bytes, clients: int,
               seconds: float, think: float) -> dict[str, Stats]:
    stats = {name: Stats() for name in chosen}
    plan = [(name, method, path) for name, (method, path) in chosen.items()]
    until = time.monotonic() + seconds
    await asyncio.gather(*(client(base, plan, body, stats, until, think, k)
                           for k in range(clients)))
    return stats


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def prepare(db: str | None, folder: Path) -> str:
    """The archive to serve: ``db`` (or a new SQLite file) with the samples in it."""
    target = db or str(folder / "load.sqlite")
    subprocess.run([*ZREC, "archive", "import", "-q", "--db", target, *map(str, SAMPLES)],
                   check=True, stdout=subprocess.DEVNULL)
    return target


def import_file(path: str | None) -> Path:
    if path:
        return Path(path)
    sys.path.insert(0, str(HERE))
    from archive_bench import build

    return build(20_000, 1)


def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="zrec-load-"))
    db = prepare(args.db, folder)
    workers = args.workers or (2 if db.startswith("postgresql") else 1)
    server, base = start_server(db, workers, folder / "server.log")
    importer = None
    try:
        chosen, notes = targets(base, args.tree)
        body = record_of_plies(100).encode()
        if not args.no_import:
            games = import_file(args.import_file)
            importer = subprocess.Popen(
                [*ZREC, "archive", "import", "-q", "--db", db, str(games)],
                stdout=subprocess.DEVNULL, stderr=(folder / "import.log").open("wb"))
        server_cpu, own_cpu = cpu_seconds(server.pid), time.process_time()
        started = time.monotonic()
        stats = asyncio.run(load(base, chosen, body, args.clients, args.seconds, args.think))
        wall = time.monotonic() - started
        server_cpu, own_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - own_cpu
        imported = None
        if importer is not None:
            if importer.poll() is None and not args.wait_import:
                imported = "running at the end (stopped)"
                importer.terminate()
            else:
                imported = "running at the end" if importer.poll() is None else (
                    "ended during the load")
                imported += f"; exit {importer.wait()}"
    finally:
        if importer is not None and importer.poll() is None:
            importer.terminate()
        server.terminate()
        server.wait(30)
    logs = {name: (folder / f"{name}.log").read_text(errors="replace")
            for name in ("server", "import") if (folder / f"{name}.log").exists()}
    return {
        "db": "postgresql" if db.startswith("postgresql") else "sqlite",
        "workers": workers, "clients": args.clients, "seconds": round(wall, 1),
        "think": args.think, "notes": notes, "import": imported,
        "endpoints": {
            name: {
                "requests": len(s.latencies) + sum(v for k, v in s.errors.items()
                                                   if not k.isdigit()),
                "per_second": round(len(s.latencies) / wall, 1),
                "p50_ms": round(percentile(s.latencies, 0.5) * 1000, 1),
                "p99_ms": round(percentile(s.latencies, 0.99) * 1000, 1),
                "mean_ms": round(statistics.fmean(s.latencies) * 1000, 1)
                if s.latencies else None,
                "errors": dict(s.errors), "locked_answers": s.locked,
            }
            for name, s in stats.items()
        },
        "locked_in_logs": {name: text.count(LOCKED) for name, text in logs.items()},
        "tracebacks_in_server_log": len(re.findall("Traceback", logs.get("server", ""))),
        "cpu_seconds": {"server": round(server_cpu, 1), "load_generator": round(own_cpu, 1)},
    }


def show(result: dict[str, Any]) -> None:
    print(f"{result['db']}, {result['workers']} worker(s), {result['clients']} clients, "
          f"think {result['think']} s, {result['seconds']} s; import: {result['import']}")
    for note in result["notes"]:
        print("note:", note)
    print(f"{'endpoint':<15}{'requests':>9}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>8}  errors")
    for name, e in result["endpoints"].items():
        errors = ", ".join(f"{k}: {v}" for k, v in e["errors"].items()) or "none"
        if e["locked_answers"]:
            errors += f"; {e['locked_answers']} say '{LOCKED}'"
        print(f"{name:<15}{e['requests']:>9}{e['per_second']:>8}{e['p50_ms']:>8}"
              f"{e['p99_ms']:>8}  {errors}")
    print(f"'{LOCKED}' in the logs: {result['locked_in_logs']}; tracebacks in the "
          f"server's log: {result['tracebacks_in_server_log']}")
    cpu = result["cpu_seconds"]
    print(f"CPU seconds: server {cpu['server']}, load generator {cpu['load_generator']} "
          f"({cpu['load_generator'] / result['seconds']:.0%} of a core)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds each client waits between its requests")
    parser.add_argument("--db", help="an empty SQLite file to make, or postgresql://...")
    parser.add_argument("--workers", type=int, help="default: 1 on SQLite, 2 on PostgreSQL")
    parser.add_argument("--tree", default=DEFAULT_TREE, help="the explorer's route")
    parser.add_argument("--import-file", help="default: 20,000 random Mosona games")
    parser.add_argument("--no-import", action="store_true")
    parser.add_argument("--wait-import", action="store_true",
                        help="let the import finish after the load (default: stop it)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        show(result)


if __name__ == "__main__":
    main()
