"""Live play under load: many live games at once, a move a second each.

Starts a real ``zrec serve`` (a subprocess: one process over SQLite, ``--workers N``
over PostgreSQL), makes two users a game (a user plays one game: the limits per user
are not what is measured) with an API token each, and ``--games`` live games of
Mosona.  Each game has one stream open (``GET /api/live/ID/stream``: what the opponent's
page follows) and its players move in turn, a move a second a game (the games' moves
spread over the second), each move a legal one of a random game drawn beforehand.  For
each move it measures the time from the move sent to its ``event: move`` read from the
game's stream: what the opponent waits to see it.  With ``--workers`` above 1 the moves
and the streams go through different connections, so through different processes as
the kernel hands connections out.

It prints the moves made, the errors by status, the p50, p90, p99 and largest delay
(ms), the p50 and p99 of the move's own answer (its ``POST``: what part of the delay
is the move's request), and the CPU time of the server's processes (and a move) and
of this load generator.  (A game's player waits for the stream's reader to wake it,
not polling: the generator takes less of the CPU it shares with the server.)

Usage::

    python benchmarks/live_load.py [--games 200] [--seconds 30] [--db PATH|postgresql://...]
        [--workers N] [--profile FILE]

``--profile FILE`` records where the server's processes spend their time while the
games are played (``py-spy record --format raw``, 100 samples a second, idle threads
left out; py-spy must be installed) in ``FILE``, one line a stack and its count.

``--db`` names an empty SQLite file to make (default: a new one in a temporary folder)
or an empty PostgreSQL database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def games_to_play(count: int, plies: int) -> list[list[str]]:
    """The moves of ``count`` random Mosona games of at least ``plies`` moves."""
    from zrec.play.selfplay import random_game
    from zrec.rules import find_game

    rules, seed = find_game("mosona"), 0
    found: list[list[str]] = []
    while len(found) < count:
        game = random_game(rules, {}, random.Random(seed), 400)
        seed += 1
        moves = [node.turn.text() for node in game.line.moves]
        if len(moves) >= plies:
            found.append(moves[:plies])
    return found


def make_users(db: str, count: int) -> list[str]:
    """``count`` users (a password hash no password matches: they only use tokens) and
    a token each."""
    from zrec.archive import Archive
    from zrec.serve.accounts import name_key, new_token

    with Archive.open(db, create=True) as archive:
        with archive.db.transaction(lock=True):
            for i in range(count):
                name = f"player{i}"
                archive.db.execute(
                    "INSERT INTO users (name, norm, role, password, created) VALUES "
                    "(?, ?, 'editor', 'none', '2026-11-29T00:00:00+00:00')",
                    (name, name_key(name)))
        return [new_token(archive, f"player{i}") for i in range(count)]


class Http:
    """One HTTP/1.1 connection kept open (keep-alive), on asyncio's streams: the load
    generator's client.  (httpx took 0.7 of a core at 200 games, on the two cores it
    shares with the server; this takes a fraction of that for the same requests.)"""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, token: str, body: bytes = b"") -> int:
        """Send a request with an API token; its status (the headers read, the body
        not)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Authorization: Bearer {token}\r\n")
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        assert self.reader is not None
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        self.length = -1
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                self.length = int(value)
        return int(lines[0].split()[1])

    async def body(self) -> bytes:
        """The body of a response with a length (what a JSON answer has)."""
        assert self.reader is not None and self.length >= 0
        return await self.reader.readexactly(self.length)

    async def chunks(self) -> Any:
        """The chunks of a chunked body (a stream's), as they come."""
        assert self.reader is not None
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
            if size == 0:
                return
            yield (await self.reader.readexactly(size + 2))[:-2]

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def follow(stream: Http, gid: int, token: str, seen: dict[int, float],
                 ready: asyncio.Event, news: asyncio.Event) -> None:
    status = await stream.send("GET", f"/api/live/{gid}/stream", token)
    if status != 200:
        raise RuntimeError(f"stream {status}")
    ready.set()
    ident, rest = 0, b""
    async for chunk in stream.chunks():
        rest += chunk
        *lines, rest = rest.split(b"\n")
        for line in lines:
            if line.startswith(b"id: "):
                ident = int(line[4:])
            elif line.startswith(b"event: move"):
                seen[ident] = time.monotonic()
                news.set()


async def play(where: tuple[str, int], gid: int, moves: list[str],
               tokens: tuple[str, str], seconds: float, offset: float,
               delays: list[float], answered: list[float], errors: dict[str, int]) -> None:
    seen: dict[int, float] = {}
    ready, news = asyncio.Event(), asyncio.Event()
    # the opponent's page follows the game, logged in (an anonymous address may follow
    # only a few games at once: zrec.serve.live.STREAMS_PER_CLIENT); the moves go
    # through another connection
    stream, mover = Http(*where), Http(*where)
    task = asyncio.create_task(follow(stream, gid, tokens[1], seen, ready, news))
    try:
        opened = asyncio.create_task(ready.wait())
        await asyncio.wait([task, opened], return_when=asyncio.FIRST_COMPLETED)
        opened.cancel()
        if not ready.is_set():  # (the stream was refused)
            failed = str(task.exception()) if not task.cancelled() else "cancelled"
            errors[failed] = errors.get(failed, 0) + 1
            return
        await asyncio.sleep(offset)
        start = time.monotonic()
        for ply, move in enumerate(moves, 1):
            if time.monotonic() - start > seconds:
                break
            sent = time.monotonic()
            try:
                status = await asyncio.wait_for(mover.send(
                    "POST", f"/api/live/{gid}/move", tokens[(ply - 1) % 2],
                    json.dumps({"move": move}).encode()), 30)
                await mover.body()
                if status != 200:
                    errors[str(status)] = errors.get(str(status), 0) + 1
                    break
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                break
            answered.append(time.monotonic() - sent)
            # (woken by the stream's reader when a move arrives: the time it arrived is
            # what it noted, whenever this task runs)
            while ply not in seen and time.monotonic() - sent < 3.0:
                news.clear()
                try:
                    await asyncio.wait_for(news.wait(), max(0.0, sent + 3.0 - time.monotonic()))
                except asyncio.TimeoutError:
                    break
            if ply in seen:
                delays.append(seen[ply] - sent)
            else:
                errors["not seen in 3 s"] = errors.get("not seen in 3 s", 0) + 1
            await asyncio.sleep(max(0.0, start + ply - time.monotonic()))
    finally:
        task.cancel()
        stream.close()
        mover.close()


def cpu_of(pid: int) -> float:
    """The CPU seconds of a process and its children (Linux /proc)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(stat[1]) == pid:
            total += (int(stat[11]) + int(stat[12])) / ticks
    return total


async def main_async(args: argparse.Namespace, where: tuple[str, int], gids: list[int],
                     moves: list[list[str]], tokens: list[str]) -> dict[str, Any]:
    delays: list[float] = []
    answered: list[float] = []
    errors: dict[str, int] = {}
    await asyncio.gather(*(
        play(where, gid, moves[i], (tokens[2 * i], tokens[2 * i + 1]), args.seconds,
             i / len(gids), delays, answered, errors) for i, gid in enumerate(gids)))
    ordered, answers = sorted(delays), sorted(answered)

    def at(values: list[float], q: float) -> float | None:
        return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1) \
            if values else None

    return {"games": len(gids), "moves": len(delays), "errors": errors,
            "p50_ms": at(ordered, 0.5), "p90_ms": at(ordered, 0.9),
            "p99_ms": at(ordered, 0.99), "max_ms": at(ordered, 1.0),
            "mean_ms": round(1000 * statistics.mean(ordered), 1) if ordered else None,
            # the move's own answer (its POST), for where the delay is
            "answer_p50_ms": at(answers, 0.5), "answer_p99_ms": at(answers, 0.99)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--db", default=None)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--profile", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="zrec-live-load-"))
    db = args.db or str(folder / "live.sqlite")
    workers = args.workers or (2 if db.startswith("postgresql") else 1)
    tokens = make_users(db, 2 * args.games)
    moves = games_to_play(args.games, int(args.seconds) + 2)
    port = free_port()
    log = open(folder / "server.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "zrec", "serve", "--db", db, "--port", str(port),
         "--workers", str(workers)], stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        setup = httpx.Client(base_url=base)
        for _ in range(300):
            try:
                if setup.get("/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        gids = []
        for i in range(args.games):
            answer = setup.post("/api/live", headers={
                "Authorization": f"Bearer {tokens[2 * i]}"}, json={
                "game": "mosona", "seats": {"White": f"player{2 * i}",
                                            "Black": f"player{2 * i + 1}"}}, timeout=30)
            answer.raise_for_status()
            gids.append(answer.json()["id"])
            taken = setup.post(  # (Black is kept for its player, who takes it)
                f"/api/live/{gids[-1]}/seat", json={"seat": "Black"},
                headers={"Authorization": f"Bearer {tokens[2 * i + 1]}"}, timeout=30)
            taken.raise_for_status()
        setup.close()
        spy = None if args.profile is None else subprocess.Popen(
            [str(Path(sys.executable).with_name("py-spy")), "record", "--format", "raw",
             "-r", "100", "--nonblocking", "--subprocesses", "-d", str(int(args.seconds)),
             "-o", args.profile, "--pid", str(server.pid)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server_cpu, own_cpu = cpu_of(server.pid), time.process_time()
        result = asyncio.run(main_async(args, ("127.0.0.1", port), gids, moves, tokens))
        if spy is not None:
            spy.wait(timeout=60)
        used = cpu_of(server.pid) - server_cpu
        result["server_cpu_s"] = round(used, 1)
        result["server_cpu_ms_a_move"] = round(1000 * used / max(1, result["moves"]), 2)
        result["load_cpu_s"] = round(time.process_time() - own_cpu, 1)
        result["workers"] = workers
        result["db"] = "postgresql" if db.startswith("postgresql") else "sqlite"
        result["seconds"] = args.seconds
        print(json.dumps(result, indent=2))
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


if __name__ == "__main__":
    main()
