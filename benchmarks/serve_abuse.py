"""A game page while anonymous clients hammer one expensive route of ``zrec serve``.

Starts a real server (``zrec serve``, one worker process, a subprocess) over a new
SQLite archive of the samples and a long random game of each kind the rules hold
(built here, seeded), then for each expensive route in turn runs ``--clients``
anonymous clients asking it again and again, with no pause (each on its own
kept-alive connection, HTTP written by hand to spend little CPU), for ``--seconds``
seconds or ``--most`` requests a client, while one more client asks for a plain game
page (``/games/1``) every ``--every`` seconds.  The routes:

* ``tree``: ``GET /api/tree`` of the longest game's first 60 moves;
* ``explorer``: the page ``/explorer`` of the same moves;
* ``position``: ``POST /api/position`` of a long record (the longest game, each
  request with another ``Event`` tag: checked and replayed from the start every time);
* ``validate``: ``POST /api/validate`` of a ~2 MB file of games;
* ``edit``: ``POST /api/edit`` of the long record (a comment added at its end);
* ``search``: ``/search`` by the position after the longest game's 40th ply;
* ``reply``: ``POST /api/reply`` asking ``mcts:1000`` for a move of the long record.

``--spread`` gives each client an address of its own (127.0.0.2, 127.0.0.3, ...: all
loopback), so that the limits per client do not hold them back and the pool's queue
does.  It prints a table: per route, the game page's p50 and p99 (ms) and its slowest,
and the route's own answers by status with the longest a request took (s).  ``--json``
prints the same as JSON.

Usage::

    python benchmarks/serve_abuse.py [--clients 50] [--seconds 15] [--most 200]
        [--every 0.05] [--routes tree,position,...] [--spread] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
ZREC = [sys.executable, "-m", "zrec"]
ROUTES = ["tree", "explorer", "position", "validate", "edit", "search", "reply"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def long_games(folder: Path) -> tuple[Path, str, str]:
    """A file of the longest of 20 seeded random games of each game zrec has rules
    for; the longest of them all, and its game."""
    from zrec.notation.writer import write_game
    from zrec.play.selfplay import random_game
    from zrec.rules import all_games

    texts, longest = [], (0, "", "")
    for rules in all_games():
        games = [random_game(rules, {"Event": "abuse"}, random.Random(s), 2000)
                 for s in range(20)]
        game = max(games, key=lambda g: len(g.line.moves))
        texts.append(write_game(game))
        longest = max(longest, (len(game.line.moves), texts[-1], rules.name))
    path = folder / "long.zrec"
    path.write_text("\n".join(texts), encoding="utf-8")
    return path, longest[1], longest[2]


class Connection:
    """One kept-alive HTTP/1.1 connection, written and read by hand."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      kind: str = "text/plain") -> tuple[int, bytes]:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.address, 0))
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if method == "POST":
            head += f"Content-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        try:
            lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = dict(line.lower().split(": ", 1) for line in lines[1:] if line)
            content = await self.reader.readexactly(int(headers.get("content-length", 0)))
            if headers.get("connection") == "close":
                self.close()
        except BaseException:
            self.close()
            raise
        return status, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Route:
    """What one route's clients got."""

    statuses: Counter[str] = field(default_factory=Counter)
    longest: float = 0.0


def requests(base_records: dict[str, Any]) -> dict[str, Any]:
    """For each route: a function of the request's number giving (method, path, body,
    content type)."""
    long_text: str = base_records["long"]
    moves: str = base_records["moves"]
    heavy: bytes = base_records["heavy"]
    position_after: str = base_records["position_after"]

    def numbered(n: int) -> str:
        return long_text.replace('[Event "abuse"]', f'[Event "abuse {n}"]', 1)

    return {
        "tree": lambda n: ("GET", f"/api/tree?game={base_records['game']}&moves="
                           + quote(moves), b"", ""),
        "explorer": lambda n: ("GET", f"/explorer?game={base_records['game']}&moves="
                               + quote(moves), b"", ""),
        "position": lambda n: ("POST", "/api/position", numbered(n).encode(), "text/plain"),
        "validate": lambda n: ("POST", "/api/validate", heavy, "text/plain"),
        "edit": lambda n: ("POST", "/api/edit", json.dumps(
            {"text": numbered(n), "at": 0, "op": "comment", "comment": f"c{n}"}).encode(),
            "application/json"),
        "search": lambda n: ("GET", "/search?position-after=" + quote(position_after)
                             + f"&offset={n % 2}", b"", ""),
        "reply": lambda n: ("POST", "/api/reply", json.dumps(
            {"text": numbered(n), "at": 10, "player": "mcts:1000", "seed": n}).encode(),
            "application/json"),
    }


async def hammer(port: int, make: Any, clients: int, seconds: float, most: int,
                 every: float, spread: bool) -> tuple[Route, list[float]]:
    route = Route()
    page: list[float] = []
    end = time.monotonic() + seconds
    counter = iter(range(10**9))

    async def client(i: int) -> None:
        conn = Connection(port, f"127.0.0.{2 + i}" if spread else "127.0.0.1")
        for _ in range(most):
            if time.monotonic() > end:
                break
            method, path, body, kind = make(next(counter))
            started = time.monotonic()
            try:
                status, _ = await conn.request(method, path, body, kind)
                route.statuses[str(status)] += 1
            except (OSError, asyncio.IncompleteReadError) as exc:
                route.statuses[type(exc).__name__] += 1
            route.longest = max(route.longest, time.monotonic() - started)
        conn.close()

    async def watcher() -> None:
        conn = Connection(port, "127.0.0.1")
        await asyncio.sleep(0.5)  # (the clients under way)
        while time.monotonic() < end:
            started = time.monotonic()
            status, _ = await conn.request("GET", "/games/1")
            if status == 200:
                page.append(time.monotonic() - started)
            else:
                page.append(float("inf"))
            await asyncio.sleep(every)
        conn.close()

    await asyncio.gather(watcher(), *(client(i) for i in range(clients)))
    return route, page


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--most", type=int, default=200)
    parser.add_argument("--every", type=float, default=0.05)
    parser.add_argument("--routes", default=",".join(ROUTES))
    parser.add_argument("--spread", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import httpx

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = str(folder / "a.sqlite")
        long_file, long_text, long_game = long_games(folder)
        files = [*sorted((ROOT / "samples").glob("*.zrec")), long_file]
        subprocess.run([*ZREC, "archive", "import", "-q", "--db", db, *map(str, files)],
                       check=True, stdout=subprocess.DEVNULL)
        port = free_port()
        log = folder / "server.log"
        server = subprocess.Popen([*ZREC, "serve", "--db", db, "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=log.open("wb"))
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            games = httpx.get(base + "/api/games", params={"limit": 1000}).json()
            longest = max(games, key=lambda g: g["plies"])
            words = long_text.split("\n\n", 1)[1].split()[:-1]  # (its result left out)
            moves = ""
            while words and len(moves) + len(words[0]) < 3900:
                moves += " " + words.pop(0)
            cut = re.search(r".*\s(?=\d+\.(\s|$))", moves + " ", re.S)
            if words and cut:  # (ended before a move number: no turn cut in two)
                moves = moves[: cut.end()]
            heavy = ((long_text + "\n") * (2_000_000 // (len(long_text) + 1))).encode()
            made = requests({"long": long_text, "moves": moves.strip(), "heavy": heavy,
                             "game": long_game,
                             "position_after": f"{longest['id']}:40"})
            rows = []
            for name in args.routes.split(","):
                httpx.get(base + "/games/1")  # (its page made once, kept)
                route, page = asyncio.run(hammer(port, made[name], args.clients,
                                                 args.seconds, args.most, args.every,
                                                 args.spread))
                finite = [p for p in page if p != float("inf")]
                rows.append({
                    "route": name, "page_requests": len(page),
                    "page_p50_ms": round(ms(finite, 0.5), 1) if finite else None,
                    "page_p99_ms": round(ms(finite, 0.99), 1) if finite else None,
                    "page_max_ms": round(1000 * max(finite), 1) if finite else None,
                    "page_failed": len(page) - len(finite),
                    "statuses": dict(sorted(route.statuses.items())),
                    "route_longest_s": round(route.longest, 2),
                })
                time.sleep(3)  # (the pool's work of the route done)
        finally:
            server.terminate()
            server.wait(30)
            killed = log.read_text(encoding="utf-8").count("did not stop in time")
    if args.json:
        print(json.dumps({"routes": rows, "workers_killed": killed}, indent=2))
        return
    print(f"{args.clients} clients{' (an address each)' if args.spread else ' (one address)'}"
          f", {args.seconds:g} s or {args.most} requests each, a route at a time; the game "
          f"page every {args.every:g} s")
    print(f"{'route':<10} {'page p50':>9} {'page p99':>9} {'page max':>9}  "
          f"{'route answers (status: count)':<40} {'longest':>8}")
    for row in rows:
        statuses = ", ".join(f"{k}: {v}" for k, v in row["statuses"].items())
        print(f"{row['route']:<10} {row['page_p50_ms']:>7} ms {row['page_p99_ms']:>6} ms "
              f"{row['page_max_ms']:>6} ms  {statuses:<40} {row['route_longest_s']:>6} s")
    print(f"workers killed for not stopping within their budget and grace: {killed}")


if __name__ == "__main__":
    main()
