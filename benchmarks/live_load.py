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
(ms), and the CPU time of the server's processes and of this load generator.

Usage::

    python benchmarks/live_load.py [--games 200] [--seconds 30] [--db PATH|postgresql://...]
        [--workers N]

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


async def follow(client: httpx.AsyncClient, url: str, seen: dict[int, float],
                 ready: asyncio.Event) -> None:
    async with client.stream("GET", url, timeout=None) as answer:
        ready.set()
        ident = 0
        async for line in answer.aiter_lines():
            if line.startswith("id: "):
                ident = int(line[4:])
            elif line.startswith("event: move"):
                seen[ident] = time.monotonic()


async def play(base: str, gid: int, moves: list[str], tokens: tuple[str, str],
               seconds: float, offset: float, delays: list[float],
               errors: dict[str, int]) -> None:
    seen: dict[int, float] = {}
    ready = asyncio.Event()
    limits = httpx.Limits(max_connections=4)
    # the opponent's page follows the game, logged in (an anonymous address may follow
    # only a few games at once: zrec.serve.live.STREAMS_PER_CLIENT)
    watching = {"Authorization": f"Bearer {tokens[1]}"}
    async with httpx.AsyncClient(base_url=base, limits=limits, headers=watching) as watcher, \
            httpx.AsyncClient(base_url=base, limits=limits) as mover:
        task = asyncio.create_task(follow(watcher, f"/api/live/{gid}/stream", seen, ready))
        await ready.wait()
        await asyncio.sleep(offset)
        start = time.monotonic()
        for ply, move in enumerate(moves, 1):
            if time.monotonic() - start > seconds:
                break
            sent = time.monotonic()
            try:
                answer = await mover.post(
                    f"/api/live/{gid}/move", json={"move": move}, timeout=30,
                    headers={"Authorization": f"Bearer {tokens[(ply - 1) % 2]}"})
                if answer.status_code != 200:
                    errors[str(answer.status_code)] = errors.get(str(answer.status_code), 0) + 1
                    break
            except httpx.HTTPError as exc:
                errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                break
            for _ in range(300):  # (at most 3 s)
                if ply in seen:
                    break
                await asyncio.sleep(0.01)
            if ply in seen:
                delays.append(seen[ply] - sent)
            else:
                errors["not seen in 3 s"] = errors.get("not seen in 3 s", 0) + 1
            await asyncio.sleep(max(0.0, start + ply - time.monotonic()))
        task.cancel()


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


async def main_async(args: argparse.Namespace, base: str, gids: list[int],
                     moves: list[list[str]], tokens: list[str]) -> dict[str, Any]:
    delays: list[float] = []
    errors: dict[str, int] = {}
    await asyncio.gather(*(
        play(base, gid, moves[i], (tokens[2 * i], tokens[2 * i + 1]), args.seconds,
             i / len(gids), delays, errors) for i, gid in enumerate(gids)))
    ordered = sorted(delays)

    def at(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"games": len(gids), "moves": len(delays), "errors": errors,
            "p50_ms": at(0.5), "p90_ms": at(0.9), "p99_ms": at(0.99),
            "max_ms": round(1000 * ordered[-1], 1) if ordered else None,
            "mean_ms": round(1000 * statistics.mean(ordered), 1) if ordered else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--db", default=None)
    parser.add_argument("--workers", type=int, default=None)
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
        for _ in range(300):
            try:
                if httpx.get(base + "/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        gids = []
        for i in range(args.games):
            answer = httpx.post(base + "/api/live", headers={
                "Authorization": f"Bearer {tokens[2 * i]}"}, json={
                "game": "mosona", "seats": {"White": f"player{2 * i}",
                                            "Black": f"player{2 * i + 1}"}}, timeout=30)
            answer.raise_for_status()
            gids.append(answer.json()["id"])
            taken = httpx.post(  # (Black is kept for its player, who takes it)
                f"{base}/api/live/{gids[-1]}/seat", json={"seat": "Black"},
                headers={"Authorization": f"Bearer {tokens[2 * i + 1]}"}, timeout=30)
            taken.raise_for_status()
        server_cpu, own_cpu = cpu_of(server.pid), time.process_time()
        result = asyncio.run(main_async(args, base, gids, moves, tokens))
        result["server_cpu_s"] = round(cpu_of(server.pid) - server_cpu, 1)
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
